/**
 * One voice channel's conversation: a heard segment → speech to text → hallucination filter
 * → who-is-it-for rule → the same turn as text, in voice mode → sentences to the playback
 * queue as they stream. Each voice turn is posted in the project's text channel
 * (`🎙️ Name: transcript`, then the reply). Turns run one at a time; "stop" cancels the
 * turn in progress, the turns waiting, and what is being said.
 */
import type { ConversationApi } from '../core/assistant-api.js';
import type { ConsentAccess } from '../core/privacy/consent.js';
import type { Place } from '../core/place.js';
import type { Logger, SpeechToText } from '../core/ports/index.js';
import { silentLogger } from '../core/ports/index.js';
import { isHallucination, stripNonSpeech } from '../speech/stt/hallucinations.js';
import type { AddressingPolicy } from './addressing.js';
import type { PlaybackQueue } from './playback-queue.js';
import { compressForSpeech, splitSentences } from './speech-text.js';
import { SpokenReplyStream } from './spoken-reply.js';
import { errorMessage } from '../util/error-text.js';

export interface HeardSegment {
  userId: string;
  displayName: string;
  /** 16 kHz mono s16. */
  pcm: Int16Array;
  /** Already transcribed (the end-of-turn detector's transcript of exactly this audio): no second recognition. */
  transcript?: string;
}

export type HearOutcome =
  | { kind: 'hallucination'; transcript: string }
  | { kind: 'ignored'; transcript: string; reason: string }
  | { kind: 'stopped'; transcript: string }
  | { kind: 'answered'; transcript: string; reply: string }
  | { kind: 'cancelled'; transcript: string }
  | { kind: 'failed'; transcript: string; error: string };

export interface VoiceConversationDeps {
  assistant: { conversation: Pick<ConversationApi, 'handle'> };
  stt: SpeechToText;
  queue: PlaybackQueue;
  place: Place;
  policy: AddressingPolicy;
  /** People (bots not counted) in the voice channel right now. */
  humansPresent(): number;
  /** Post to the project's text channel. */
  post(text: string): Promise<void>;
  language?: string;
  logger?: Logger;
  now?: () => Date;
  /** Asking the speaker in the moment before something private goes to a hosted model (by DM: voice shows no buttons). */
  consentFor?(speaker: { id: string; name: string }): ConsentAccess;
}

export class VoiceConversation {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly active = new Set<AbortController>();
  /** Bumped by `cancel()`: turns queued before it never start. */
  private epoch = 0;
  private readonly log: Logger;
  private closed = false;
  private sttFailureShown = false;

  constructor(private readonly deps: VoiceConversationDeps) {
    this.log = deps.logger ?? silentLogger;
  }

  async hear(segment: HeardSegment): Promise<HearOutcome> {
    const controller = new AbortController();
    this.active.add(controller);
    let transcript: string;
    try {
      transcript = stripNonSpeech(segment.transcript ?? (await this.deps.stt.transcribe(segment.pcm, { signal: controller.signal, ...(this.deps.language ? { language: this.deps.language } : {}) })));
    } catch (error) {
      this.log.warn({ err: error, stt: this.deps.stt.id }, 'speech to text failed');
      if (!this.sttFailureShown && !controller.signal.aborted) {
        // say it once where people can see it (e.g. the Whisper model is missing and where to put it)
        this.sttFailureShown = true;
        await this.safePost(`⚠️ I can't understand speech right now: ${errorMessage(error)}`);
      }
      return { kind: 'failed', transcript: '', error: String(error) };
    } finally {
      this.active.delete(controller);
    }
    this.log.debug({ user: segment.userId, transcript }, 'heard');
    if (this.closed) return { kind: 'cancelled', transcript };
    if (isHallucination(transcript)) return { kind: 'hallucination', transcript };
    const decision = this.deps.policy.decide(transcript, this.deps.humansPresent(), this.deps.queue.speaking || this.active.size > 0);
    if (decision.action === 'stop') {
      this.cancel();
      return { kind: 'stopped', transcript };
    }
    if (decision.action === 'ignore') return { kind: 'ignored', transcript, reason: decision.reason };
    await this.safePost(`🎙️ ${segment.displayName}: ${transcript}`);
    const epoch = this.epoch;
    const turn = this.chain.then(() => (epoch === this.epoch && !this.closed ? this.runTurn(segment, decision.text) : ({ kind: 'cancelled', transcript } as const)));
    this.chain = turn.catch(() => undefined);
    const outcome = await turn;
    return outcome.kind === 'answered' || outcome.kind === 'failed' ? { ...outcome, transcript } : { kind: 'cancelled', transcript };
  }

  private async runTurn(segment: HeardSegment, text: string): Promise<HearOutcome> {
    const controller = new AbortController();
    this.active.add(controller);
    const spoken = new SpokenReplyStream();
    let streamed = false;
    const say = (sentences: string[]) => {
      if (controller.signal.aborted) return;
      for (const s of sentences) this.deps.queue.enqueue(s);
    };
    try {
      const outcome = await this.deps.assistant.conversation.handle(
        {
          place: this.deps.place,
          speaker: segment.displayName,
          speakerId: segment.userId,
          text,
          source: `voice:${(this.deps.now?.() ?? new Date()).getTime()}`,
          mode: 'voice',
          time: this.deps.now?.() ?? new Date(),
        },
        {
          signal: controller.signal,
          ...(this.deps.consentFor ? { consent: this.deps.consentFor({ id: segment.userId, name: segment.displayName }) } : {}),
          onEvent: (event) => {
            if (event.type !== 'text_delta') return;
            streamed = true;
            say(spoken.push(event.text));
          },
        },
      );
      if (controller.signal.aborted || outcome.reason === 'cancelled') return { kind: 'cancelled', transcript: text };
      // set by the event listener above, which the type narrowing cannot see
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (streamed) say(spoken.end());
      else if (outcome.reply.trim()) say(splitSentences(compressForSpeech(outcome.reply)));
      else if (outcome.reason !== 'done') say(["Sorry, I couldn't answer that. The details are in the text channel."]);
      const notices = outcome.notices.map((n) => `⚠️ ${n}`);
      const post = [outcome.reply.trim(), ...notices].filter(Boolean).join('\n');
      if (post) await this.safePost(post);
      return { kind: 'answered', transcript: text, reply: outcome.reply };
    } catch (error) {
      if (controller.signal.aborted) return { kind: 'cancelled', transcript: text };
      this.log.warn({ err: error }, 'voice turn failed');
      this.deps.queue.enqueue('Sorry, something went wrong.');
      return { kind: 'failed', transcript: text, error: String(error) };
    } finally {
      this.active.delete(controller);
    }
  }

  /** Stop talking and drop the reply in progress and the replies waiting. */
  cancel(): void {
    this.epoch++;
    for (const c of this.active) c.abort(new Error('cancelled by voice'));
    this.deps.queue.interrupt();
  }

  private async safePost(text: string): Promise<void> {
    try {
      await this.deps.post(text);
    } catch (error) {
      this.log.warn({ err: error }, 'could not post to the text channel');
    }
  }

  /** Wait for queued turns (tests, shutdown). */
  async idle(): Promise<void> {
    await this.chain;
    await this.deps.queue.idle();
  }

  close(): void {
    this.closed = true;
    this.cancel();
  }
}
