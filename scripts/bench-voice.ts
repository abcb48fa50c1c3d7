/**
 * `npm run bench:voice [-- --runs N --stt-ms R --model-ms M --pause MS --silence MS]`: the
 * voice path from the last word to the first sound, with end of turn.
 *
 * Utterances are spoken by the local engine (eSpeak NG), part by part with natural pauses
 * between the parts, encoded to 20 ms Opus packets and delivered on the real clock into the
 * real receive pipeline + end-of-turn detector (TurnTaker), the real conversation and playback
 * queue with the local voice (warmed first, as a session does). The recogniser is scripted with
 * a fixed latency R and answers with what had been said when it was called (partial parts
 * punctuated as Whisper tends to: "I was thinking...", "Add milk,"); the model is scripted,
 * first sentence after M ms. The first audio frame is the first Opus frame @discordjs/voice
 * would send for the reply.
 *
 * Measured per utterance: end of speech → turn committed, → first audio frame; premature
 * cut-offs (a turn committed before the last part was spoken) and missed ends (a complete
 * utterance that had to wait for the long window). Judged: p50 (end of speech → first audio)
 * on complete utterances ≤ 800 ms + R + M; 0 premature cut-offs on the mid-sentence set; no
 * utterance committed later than the long window (+ R) after its last word.
 */
import { loadavg } from 'node:os';
import type { ConversationApi } from '../src/core/assistant-api.js';
import { silentLogger, type SpeechToText, type SynthesizedAudio, type TextToSpeech } from '../src/core/ports/index.js';
import { loadConfig } from '../src/config.js';
import { EspeakTts } from '../src/speech/tts/espeak-tts.js';
import { AddressingPolicy } from '../src/voice/addressing.js';
import { toAudioResource } from '../src/voice/discord-audio.js';
import { chooseDetector, type TurnDetection } from '../src/voice/end-of-turn.js';
import { PlaybackQueue } from '../src/voice/playback-queue.js';
import { realTimers } from '../src/voice/timers.js';
import { TurnTaker, type HeardTurn } from '../src/voice/turn-taker.js';
import { VoiceConversation } from '../src/voice/voice-conversation.js';
import { percentile } from './bench-util.js';
import { speechPackets } from '../test/fixtures/audio/speech.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v >= 0 ? v : fallback;
}

const config = loadConfig();
const runs = arg('runs', 2);
const sttMs = arg('stt-ms', 150);
const modelMs = arg('model-ms', 250);
const pauseMs = arg('pause', config.VOICE_TURN_PAUSE_MS);
const silenceMs = arg('silence', config.VOICE_SILENCE_MS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** One utterance: parts spoken with pauses between; `heard` is the transcript if it stopped after that part. */
interface Part {
  say: string;
  heard: string;
  pauseAfterMs?: number;
}
type Kind = 'complete' | 'question' | 'mid-sentence' | 'trailing conjunction' | 'list';
interface Utterance {
  kind: Kind;
  parts: Part[];
}

const one = (kind: Kind, text: string): Utterance => ({ kind, parts: [{ say: text, heard: text }] });
/** An utterance in parts: each `[say, heard, pauseAfterMs?]`. */
const paused = (kind: Kind, ...parts: [say: string, heard: string, pauseAfterMs?: number][]): Utterance => ({
  kind,
  parts: parts.map(([say, heard, pauseAfterMs]) => (pauseAfterMs === undefined ? { say, heard } : { say, heard, pauseAfterMs })),
});
const UTTERANCES: Utterance[] = [
  one('complete', 'Remind me to call Sarah at five.'),
  one('complete', 'Turn off the lights in the kitchen.'),
  one('complete', 'Add bread to the shopping list.'),
  one('question', 'What is on my calendar tomorrow?'),
  one('question', 'How long does it take to drive to Porto?'),
  one('question', 'Is it going to rain this afternoon?'),
  paused('mid-sentence', ['I was thinking', 'I was thinking...', 700], ['maybe Lisbon in May.', 'I was thinking... maybe Lisbon in May.']),
  paused('mid-sentence', ['Can you book a table for', 'Can you book a table for', 800], ['four people on Friday?', 'Can you book a table for four people on Friday?']),
  paused('mid-sentence', ['Remind me to', 'Remind me to', 600], ['water the plants.', 'Remind me to water the plants.']),
  paused('trailing conjunction', ['I want to go to Lisbon because', 'I want to go to Lisbon because', 900], ['the weather is nice.', 'I want to go to Lisbon because the weather is nice.']),
  paused('trailing conjunction', ["Let's order pizza and", "Let's order pizza, and", 700], ['maybe a salad.', "Let's order pizza, and maybe a salad."]),
  paused('trailing conjunction', ['So', 'So...', 600], ['what is the plan for Saturday?', "So... what's the plan for Saturday?"]),
  paused('trailing conjunction', ['Um', 'Um,', 700], ['when is the dentist?', 'Um, when is the dentist?']),
  paused('list', ['Add milk', 'Add milk,', 600], ['eggs', 'Add milk, eggs,', 600], ['and butter to the list.', 'Add milk, eggs, and butter to the list.']),
  paused('list', ['We need apples, pears and', 'We need apples, pears, and', 800], ['some grapes.', 'We need apples, pears, and some grapes.']),
];

/** Answers with what had been said when it was called, after a fixed latency. */
class ScriptedRecogniser implements SpeechToText {
  readonly id = 'scripted';
  said = '';
  async transcribe(): Promise<string> {
    const text = this.said;
    await sleep(sttMs);
    return text;
  }
}

interface Sample {
  kind: Kind;
  committedMs: number;
  firstAudioMs: number;
  /** Local voice synthesis of the first sentence. */
  synthMs: number;
  premature: boolean;
  missedEnd: boolean;
  reason: string;
}

/** The local voice, timed: how long the first sentence of each reply took to synthesise. */
class TimedVoice implements TextToSpeech {
  readonly id: string;
  readonly locality = 'local' as const;
  last = 0;
  constructor(private readonly inner: EspeakTts) {
    this.id = inner.id;
  }
  async synthesize(text: string, options?: { signal?: AbortSignal }): Promise<SynthesizedAudio> {
    const t0 = performance.now();
    const audio = await this.inner.synthesize(text, options);
    this.last = performance.now() - t0;
    return audio;
  }
}

async function runSet(detection: TurnDetection, utterances: Utterance[], packets: Map<string, Uint8Array[]>, voice: TimedVoice, repeat: number): Promise<Sample[]> {
  const stt = new ScriptedRecogniser();
  const heard: string[] = [];
  const assistant: { conversation: Pick<ConversationApi, 'handle'> } = {
    conversation: {
      handle: async (message, options) => {
        heard.push(message.text);
        await sleep(modelMs);
        options?.onEvent?.({ type: 'text_delta', turnId: 't', text: 'Sure, I can help with that. ' });
        return { project: 'bench', reply: 'Sure, I can help with that.', reason: 'done', related: [], notices: [] };
      },
    },
  };
  let firstAudioAt = 0;
  const queue = new PlaybackQueue({
    tts: voice,
    sink: {
      play: async (audio: SynthesizedAudio) => {
        const resource = await toAudioResource(audio);
        while (!resource.read()) await new Promise((r) => setImmediate(r));
        firstAudioAt ||= performance.now();
        resource.playStream.destroy();
      },
    },
  });
  const conversation = new VoiceConversation({
    assistant,
    stt,
    queue,
    place: { kind: 'project', origin: { name: 'bench', key: 'bench' } },
    policy: new AddressingPolicy(config.VOICE_WAKE_NAME, 'never'),
    humansPresent: () => 1,
    post: async () => {},
  });
  const turns: HeardTurn[] = [];
  const taker = new TurnTaker({
    stt,
    detector: chooseDetector(detection, { pauseMs, silenceMs, wakeName: config.VOICE_WAKE_NAME }),
    pipeline: { silenceMs, pauseMs, minSpeechMs: config.VOICE_MIN_SPEECH_MS, maxUtteranceMs: config.VOICE_MAX_UTTERANCE_MS, maxNoSpeechMs: config.VOICE_MAX_NO_SPEECH_MS },
    timers: realTimers,
    logger: silentLogger,
    onTurn: (turn) => {
      turns.push(turn);
      void conversation.hear({ userId: turn.userId, displayName: 'bench', pcm: turn.pcm, ...(turn.transcript !== undefined ? { transcript: turn.transcript } : {}) });
    },
  });
  const samples: Sample[] = [];
  for (let r = 0; r < repeat; r++) {
    for (const u of utterances) {
      turns.length = 0;
      heard.length = 0;
      firstAudioAt = 0;
      let lastPacketAt = 0;
      for (const part of u.parts) {
        const list = packets.get(part.say)!;
        const start = performance.now();
        for (let i = 0; i < list.length; i++) {
          await sleep(start + i * 20 - performance.now());
          taker.push('speaker', list[i]!);
          lastPacketAt = performance.now();
        }
        stt.said = part.heard;
        if (part.pauseAfterMs) await sleep(part.pauseAfterMs);
      }
      const final = u.parts.at(-1)!.heard;
      while (!firstAudioAt && performance.now() - lastPacketAt < silenceMs + sttMs + modelMs + 5000) await sleep(5);
      await conversation.idle();
      const turn = turns.find((t) => t.timings.lastWordAt >= lastPacketAt - 200) ?? turns.at(-1);
      const end = Math.min(lastPacketAt, turn?.timings.lastWordAt ?? lastPacketAt);
      samples.push({
        kind: u.kind,
        committedMs: (turn?.timings.committedAt ?? NaN) - end,
        firstAudioMs: firstAudioAt - end,
        synthMs: voice.last,
        premature: turns.length > 1 || heard.some((h) => h !== final),
        missedEnd: turn?.timings.reason === 'silence',
        reason: String(turn?.timings.reason),
      });
      await sleep(silenceMs + 200); // keep utterances apart
    }
  }
  taker.close();
  return samples;
}

const fmt = (v: number) => `${Math.round(v)}`.padStart(5);
function line(label: string, s: Sample[]): string {
  const c = s.map((x) => x.committedMs);
  const a = s.map((x) => x.firstAudioMs);
  const v = s.map((x) => x.synthMs);
  return `${label.padEnd(22)} n=${String(s.length).padStart(2)}  committed p50 ${fmt(percentile(c, 50))} p95 ${fmt(percentile(c, 95))} max ${fmt(Math.max(...c))}  │  first audio p50 ${fmt(percentile(a, 50))} p95 ${fmt(percentile(a, 95))} (voice synthesis p50 ${fmt(percentile(v, 50))})  │  premature ${s.filter((x) => x.premature).length}  missed ends ${s.filter((x) => x.missedEnd).length}`;
}

async function main(): Promise<void> {
  console.log(
    `Charlie voice bench — Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}, ${runs} runs; short pause ${pauseMs} ms (VOICE_TURN_PAUSE_MS), long window ${silenceMs} ms (VOICE_SILENCE_MS)`,
  );
  console.log(`scripted recogniser R = ${sttMs} ms, scripted model first sentence M = ${modelMs} ms; local voice espeak-ng; times in ms from the last word`);
  const speaker = new EspeakTts({ voice: 'en-us', wordsPerMinute: 165 });
  const packets = new Map<string, Uint8Array[]>();
  for (const u of UTTERANCES) for (const p of u.parts) if (!packets.has(p.say)) packets.set(p.say, await speechPackets(p.say, speaker));
  const local = new EspeakTts({ voice: config.TTS_LOCAL_VOICE });
  const voice = new TimedVoice(local);
  const t0 = performance.now();
  await local.warmUp();
  console.log(`local voice warmed in ${Math.round(performance.now() - t0)} ms (done when a session joins, before the first turn)\n`);

  const samples = await runSet('rules', UTTERANCES, packets, voice, runs);
  const complete = samples.filter((s) => s.kind === 'complete' || s.kind === 'question');
  const incomplete = samples.filter((s) => s.kind !== 'complete' && s.kind !== 'question');
  console.log('end of turn: rules (VOICE_TURN_DETECTION=auto without a model file)');
  for (const kind of ['complete', 'question', 'mid-sentence', 'trailing conjunction', 'list'] as const) {
    console.log(
      `  ${line(
        kind,
        samples.filter((s) => s.kind === kind),
      )}`,
    );
  }
  console.log(`  ${line('complete + questions', complete)}`);
  console.log(`  ${line('all with a pause', incomplete)}`);

  const baseline = await runSet(
    'off',
    UTTERANCES.filter((u) => u.parts.length === 1),
    packets,
    voice,
    1,
  );
  console.log('\nbaseline: fixed window only (VOICE_TURN_DETECTION=off), same complete utterances');
  console.log(`  ${line('complete + questions', baseline)}`);

  const p50 = percentile(
    complete.map((s) => s.firstAudioMs),
    50,
  );
  const budget = 800 + sttMs + modelMs;
  const premature = incomplete.filter((s) => s.premature).length;
  const latest = Math.max(...samples.map((s) => s.committedMs));
  const ok = (b: boolean) => (b ? 'PASS' : 'FAIL');
  console.log('\njudged:');
  console.log(
    `  ${ok(p50 <= budget)} end of speech → first audio p50 on complete utterances ${Math.round(p50)} ms ≤ 800 + R + M = ${budget} ms (fixed window: ${Math.round(
      percentile(
        baseline.map((s) => s.firstAudioMs),
        50,
      ),
    )} ms)`,
  );
  console.log(
    `       of the 800: the short pause ${pauseMs} ms + the local voice's synthesis of the first sentence (p50 ${Math.round(
      percentile(
        complete.map((s) => s.synthMs),
        50,
      ),
    )} ms on this machine) + decode/Opus`,
  );
  console.log(`  ${ok(premature === 0)} premature cut-offs on the mid-sentence set: ${premature} of ${incomplete.length}`);
  console.log(`  ${ok(latest <= silenceMs + sttMs + 30)} latest commit after the last word: ${Math.round(latest)} ms ≤ long window + R = ${silenceMs + sttMs} ms`);
  const reasons = new Map<string, number>();
  for (const s of samples) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  console.log(`  turn ended by: ${[...reasons].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  process.exit(0);
}

await main();
