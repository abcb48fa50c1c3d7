/**
 * The conversation core: one turn per incoming message, the same for every front door.
 * Archive the message, build the context, run the bounded tool loop (core/turn/answer.ts), archive
 * the reply, and schedule distillation off the reply's critical path (core/writing/memory-writer.ts).
 */
import { type ConversationApi, type HandleOptions, type TurnOutcome, type TurnToolAccess } from '../assistant-api.js';
import { placeKey, type IncomingMessage, type Place } from '../place.js';
import { answer, egressScope, tapSensitive, unreadNotice, type AnswerDeps, type Ask } from './answer.js';
import { CONTEXT_RETRY_NOTICE, MemoryUnavailableError, ModelError, modelErrorReply } from '../errors.js';
import type { SensitiveRecord } from '../privacy/egress.js';
import type { TurnEvent, TurnEventListener } from './events.js';
import type { Home } from '../home.js';
import type { Clock, LogEntry, Logger, Recall } from '../ports/index.js';
import { remindersFor, type Reminder } from './raise.js';
import { classifyText, isSensitive } from '../privacy/sensitivity.js';
import { removeSecrets, secretNotice } from '../privacy/secrets.js';
import { TaintLedger } from './taint.js';
import { withoutHostPaths } from '../privacy/public-text.js';
import type { LoopResult } from './tool-loop.js';
import { askerFor } from '../time/reminder-desk.js';
import { errorMessage } from '../../util/error-text.js';

export interface ConversationDeps extends AnswerDeps {
  clock: Clock;
  logger: Logger;
  recall: Recall;
  settings: AnswerDeps['settings'] & { historyMessages: number; maxMessageChars: number };
  openHome: (place: Place, recall?: Recall) => Promise<Home>;
  newId: () => string;
}

const FAILURE_REPLY = 'Sorry — something went wrong while answering. Your message is saved.';
const OUT_OF_TIME = '(I ran out of time for this answer.)';

/**
 * The turn's one deadline. The model work (`answer`) ends a little earlier, so the front door
 * still has time to post what was written before the whole turn (`turn`) is over.
 */
function turnDeadline(deadlineMs: number): { turn: AbortSignal; answer: AbortSignal; answerMs: number } {
  // a fifth of the deadline, at most 15 s — but at least 5 s (or half) for a short deadline
  const reserve = Math.max(Math.min(15_000, Math.round(deadlineMs / 5)), Math.min(5000, Math.round(deadlineMs / 2)));
  const answerMs = deadlineMs - reserve;
  return { turn: AbortSignal.timeout(deadlineMs), answer: AbortSignal.timeout(answerMs), answerMs };
}

/** Resolves with `work`, or with `onTimeout()` when `signal` fires first. */
function within<T>(work: Promise<T>, signal: AbortSignal, onTimeout: () => T): Promise<T> {
  if (signal.aborted) return Promise.resolve(onTimeout());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => resolve(onTimeout());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export class Conversation implements ConversationApi {
  /** Turns that drew on sensitive context, and their replies: never given to a hosted voice. */
  private readonly taint = new TaintLedger();

  constructor(private readonly deps: ConversationDeps) {}

  /**
   * One turn, bounded by the turn deadline whatever happens inside it (a stalled store, a
   * stalled model): it always resolves, and `outcome.deadline` lets the front door bound
   * posting the reply by the same deadline.
   */
  async handle(message: IncomingMessage, options: HandleOptions = {}): Promise<TurnOutcome> {
    const deadline = turnDeadline(this.deps.settings.limits.deadlineMs);
    const state = { open: true };
    const onEvent = options.onEvent;
    const guarded: TurnEventListener = (event) => {
      if (state.open) onEvent?.(event);
    };
    const work = this.turn(message, guarded, options.signal, deadline, options.tools);
    const outcome = await within(work, deadline.turn, (): TurnOutcome => {
      this.deps.logger.warn({ deadlineMs: this.deps.settings.limits.deadlineMs }, 'turn deadline reached before the turn finished');
      work.catch((err: unknown) => this.deps.logger.warn({ err }, 'a turn that ran out of time failed afterwards'));
      return { project: '', reply: OUT_OF_TIME, reason: 'deadline', related: [], notices: ['turn deadline reached'] };
    });
    state.open = false;
    return { ...outcome, deadline: deadline.turn };
  }

  private async turn(message: IncomingMessage, onEvent: TurnEventListener, cancel: AbortSignal | undefined, deadline: Ask['deadline'], access?: TurnToolAccess): Promise<TurnOutcome> {
    const { settings, clock, model } = this.deps;
    // Sensitive records a search brings up in this turn are withheld too, wherever they are in the archive.
    const found: SensitiveRecord[] = [];
    const now = message.time ?? clock.now();
    // Secrets never reach memory, the index or a model: removed before the message is archived.
    const scan = removeSecrets(message.text);
    let home: Home;
    let history: LogEntry[];
    try {
      home = await this.deps.openHome(message.place, tapSensitive(this.deps.recall, found));
      history = await home.recent(settings.historyMessages);
      await home.archive({ time: now.toISOString(), speaker: message.speaker, source: message.source, text: scan.text, role: 'user' });
    } catch (error) {
      // A damaged or full memory store: say so (file, what works, how to recover), not "try again".
      if (!(error instanceof MemoryUnavailableError)) throw error;
      this.deps.logger.error({ err: error }, 'memory unavailable');
      return { project: placeKey(message.place), reply: withoutHostPaths(error.message), reason: 'error', related: [], notices: [] };
    }
    const log = this.deps.logger.child({ project: home.key });
    if (message.speakerId) this.deps.writer.noteSpeaker(home, message.speaker, message.speakerId);
    log.debug({ speaker: message.speaker, text: scan.text }, 'message');
    const outcome: TurnOutcome = { project: home.key, reply: '', reason: 'done', related: [], notices: [] };
    if (scan.kinds.length) {
      log.info({ kinds: scan.kinds }, 'secret removed from a message before archiving');
      outcome.notices.push(secretNotice(scan.kinds));
    }
    if (message.reply === false) {
      void this.deps.writer.scheduleDistill(home, false);
      return outcome;
    }
    const turnId = this.deps.newId();
    let withheldInTurn = false;
    this.taint.begin(home.key, turnId, () => withheldInTurn || found.length > 0);
    const emit = (event: TurnEvent) => {
      if (event.type === 'notice') outcome.notices.push(event.text);
      try {
        onEvent(event);
      } catch (err) {
        log.warn({ err }, 'event listener failed');
      }
    };
    emit({ type: 'turn_start', turnId, project: home.key, mode: message.mode ?? 'text' });
    for (const n of outcome.notices.splice(0)) emit({ type: 'notice', turnId, level: 'warn', text: n });
    for (const p of home.problems) emit(unreadNotice(turnId, p));

    let text = scan.text;
    if (text.length > settings.maxMessageChars) {
      text = `${text.slice(0, settings.maxMessageChars)}\n… (message cut here)`;
      emit({ type: 'notice', turnId, level: 'warn', text: `the message is long; only its first ${settings.maxMessageChars} characters were read` });
    }
    let images = message.images ?? [];
    if (images.length && !model.acceptsImages) {
      emit({ type: 'notice', turnId, level: 'warn', text: `${images.length} image(s) skipped: the model does not accept images` });
      images = [];
    }
    const reminders = await this.remindersOf(home, message, now).catch((err: unknown) => {
      log.warn({ err }, 'reminders not read');
      return [];
    });
    const asker = askerFor(message.place, message.speaker, message.speakerId);
    const ask: Ask = {
      home,
      speaker: message.speaker,
      text,
      images,
      now,
      mode: message.mode ?? 'text',
      source: message.source,
      turnId,
      emit,
      log,
      cancel,
      deadline,
      found,
      access,
      reminders,
      onWithheld: () => (withheldInTurn = true),
      asker,
    };
    try {
      let result: LoopResult;
      try {
        result = await answer(this.deps, ask, history);
      } catch (error) {
        if (!(error instanceof ModelError && error.kind === 'context_too_long') || history.length === 0) throw error;
        // Too long for the model's context: say so, and try once more without the earlier messages.
        log.warn({ err: error, history: history.length }, 'context too long; retrying with less history');
        emit({ type: 'notice', turnId, level: 'warn', text: CONTEXT_RETRY_NOTICE });
        result = await answer(this.deps, ask, []);
      }
      outcome.reply = result.text;
      outcome.reason = result.reason;
      outcome.related = result.pages.filter((p) => p.startsWith('notes/')).slice(0, 3);
      outcome.records = result.records;
    } catch (error) {
      const reason = withoutHostPaths(errorMessage(error), home.pages ? home.key : undefined);
      log.warn({ err: error }, 'turn failed');
      outcome.reply = error instanceof ModelError ? modelErrorReply(error) : FAILURE_REPLY;
      outcome.reason = 'error';
      emit({ type: 'turn_end', turnId, reason: 'error', text: outcome.reply, error: reason });
      return outcome;
    }
    if (outcome.reply.trim() && outcome.reason !== 'cancelled') {
      // brought up once: noted on the records, so the next turn does not repeat it
      for (const r of reminders) await home.records.mark(r.ids, r.what, now.toISOString().slice(0, 10)).catch((err: unknown) => log.warn({ err }, 'reminder not noted'));
      try {
        await home.archive({ time: clock.now().toISOString(), speaker: settings.assistantName, source: message.source, text: outcome.reply, role: 'assistant' });
      } catch (error) {
        // The answer is given anyway; the person sees that it was not saved (a full disk…).
        if (!(error instanceof MemoryUnavailableError)) throw error;
        log.error({ err: error }, 'reply not archived');
        emit({ type: 'notice', turnId, level: 'warn', text: `this reply was not saved: ${withoutHostPaths(error.message, home.key)}` });
      }
    }
    outcome.tainted = this.taint.settle(home.key, turnId, outcome.reply, isSensitive(classifyText(outcome.reply)));
    emit({ type: 'turn_end', turnId, reason: outcome.reason, text: outcome.reply });
    void this.deps.writer.scheduleDistill(home, false);
    return outcome;
  }

  /** Past-due commitments of the speaker and open reviews about what the message names, not yet brought up. */
  private async remindersOf(home: Home, message: IncomingMessage, now: Date): Promise<Reminder[]> {
    const ask = { speaker: message.speaker, text: message.text, ...(message.speakerId ? { speakerId: message.speakerId } : {}) };
    return remindersFor(await home.records.raisable(ask, now), this.deps.model.locality === 'hosted');
  }

  /**
   * Whether text for a hosted service other than the chat model (the online voice) must stay on
   * this machine: it shows a sensitive record, the rules call it sensitive, or it comes from a
   * turn that drew on sensitive context (of `place`, or of any place when it is not known).
   */
  async speechMustStayLocal(place: Place | null, text: string): Promise<boolean> {
    if (isSensitive(classifyText(text))) return true;
    if (!place) return this.taint.tainted(text);
    const home = await this.deps.openHome(place);
    if (this.taint.tainted(text, home.key)) return true;
    return (await this.deps.egress.scrubText(egressScope(home), text)) !== text;
  }

  /** Text for a hosted service other than the chat model (a hosted MCP client), sensitive records withheld. */
  async withholdSensitive(place: Place, text: string): Promise<string> {
    return this.deps.egress.scrubText(egressScope(await this.deps.openHome(place)), text);
  }
}
