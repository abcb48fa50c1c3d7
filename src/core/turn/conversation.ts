/**
 * The conversation core: one turn per incoming message, the same for every front door.
 * Archive the message, build the context, run the bounded tool loop (core/turn/answer.ts), archive
 * the reply, and schedule distillation off the reply's critical path (core/writing/memory-writer.ts).
 */
import { type ConversationApi, type HandleOptions, type TurnOutcome, type TurnToolAccess } from '../assistant-api.js';
import { placeKey, type IncomingMessage, type Place } from '../place.js';
import { answer, egressScope, tapSensitive, unreadNotice, type AnswerDeps, type Ask } from './answer.js';
import { CONTEXT_RETRY_NOTICE, MemoryUnavailableError, ModelError, ModelHttpError, modelErrorReply } from '../errors.js';
import type { QuotedLines, SensitiveRecord } from '../privacy/egress.js';
import type { TurnEvent, TurnEventListener, TurnFailure } from './events.js';
import type { Home } from '../home.js';
import type { Clock, LogEntry, Logger, Recall } from '../ports/index.js';
import { remindersFor, type Reminder } from './raise.js';
import { KeyedQueue } from '../keyed-queue.js';
import { classifyText, isSensitive, labelOf, labelText, mayGo, type SensitivityValue } from '../privacy/sensitivity.js';
import { removeSecrets, secretNotice } from '../privacy/secrets.js';
import { RunningTurns } from './taint.js';
import { promptHistory } from './prompt.js';
import { withoutHostPaths } from '../privacy/public-text.js';
import { moveSecretsToVault, vaultNotice, type MovedSecrets } from '../machines/message-secrets.js';
import type { Vault } from '../ports/vault.js';
import type { LoopResult } from './tool-loop.js';
import { askerFor } from '../time/reminder-desk.js';
import { errorMessage } from '../../util/error-text.js';
import { TurnConsent } from '../privacy/consent-turn.js';
import { entryItem } from '../privacy/sensitive-records.js';
import type { ConsentLedger, ConsentMode } from '../privacy/consent.js';
import { LABEL_LOOKBACK, storedLabel } from './stored-label.js';
import type { PrecheckOutcome } from './precheck.js';
import { judgeMessage, raiseEarlier } from './judge-message.js';
import { SettingLabels } from './setting-labels.js';

export interface ConversationDeps extends AnswerDeps {
  clock: Clock;
  logger: Logger;
  recall: Recall;
  settings: AnswerDeps['settings'] & { historyMessages: number; maxMessageChars: number };
  openHome: (place: Place, recall?: Recall) => Promise<Home>;
  newId: () => string;
  /** Where secrets typed in a message about a machine are kept (absent: they are only removed). */
  vault?: Vault | undefined;
  /**
   * The newest `limit` stored entries of every place (a project's archive; of the DMs, those labelled
   * sensitive), for text whose place is not known.
   */
  storedEverywhere?: (limit: number) => Promise<LogEntry[]>;
  /** Asking in the moment: the mode, the ledger of answers, and how long a person has to answer. */
  consent: { mode: ConsentMode; ledger: ConsentLedger; timeoutMs: number };
}

/**
 * What of the history may go to a model at `locality`: a message labelled sensitive is shown to a
 * hosted one as withheld, unless its person let it go in this turn (`released`, by item id).
 */
function historyFor(history: LogEntry[], locality: 'local' | 'hosted', released: (e: LogEntry) => boolean = () => false): LogEntry[] {
  return history.map((e) => (mayGo(labelOf(e), locality) || released(e) ? e : { ...e, text: '[withheld: a message marked sensitive]' }));
}

const UNJUDGED_NOTICE = 'the privacy check could not judge this message in time, so it is kept from hosted services';
const UNREAD_NOTICE = 'the privacy check reads English only (no local model is set up), so this message is kept from hosted services';
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
  /** The turn running in each place and whether it drew on sensitive context (its reply is labelled when stored). */
  private readonly turns = new RunningTurns();
  /**
   * Reminders brought up, noted on their records once the reply is out (at 10,000 pages a turn
   * that named a page waited 15–20 ms more for those writes), one home at a time.
   */
  private readonly notes = new KeyedQueue();

  constructor(private readonly deps: ConversationDeps) {
    // the project's name and style are judged once for each wording, for every turn after
    deps.settingLabels ??= new SettingLabels();
  }

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
    const work = this.turn(message, guarded, options.signal, deadline, options.tools, options.consent, options.history);
    const outcome = await within(work, deadline.turn, (): TurnOutcome => {
      this.deps.logger.warn({ deadlineMs: this.deps.settings.limits.deadlineMs }, 'turn deadline reached before the turn finished');
      work.catch((err: unknown) => this.deps.logger.warn({ err }, 'a turn that ran out of time failed afterwards'));
      return { project: '', reply: OUT_OF_TIME, reason: 'deadline', related: [], notices: ['turn deadline reached'] };
    });
    state.open = false;
    return { ...outcome, deadline: deadline.turn };
  }

  /** The message's machine secrets, moved into its author's vault; null when none (or no vault: removeSecrets then drops them). */
  private async moveToVault(message: IncomingMessage): Promise<MovedSecrets | null> {
    const vault = this.deps.vault;
    if (!vault) return null;
    const owner = askerFor(message.place, message.speaker, message.speakerId).ownerId;
    return moveSecretsToVault(message.text, owner, vault).catch((err: unknown) => {
      this.deps.logger.warn({ err }, 'the vault could not keep a secret from a message; it is removed instead');
      return null;
    });
  }

  private async turn(
    message: IncomingMessage,
    onEvent: TurnEventListener,
    cancel: AbortSignal | undefined,
    deadline: Ask['deadline'],
    access: TurnToolAccess | undefined,
    consentAccess: HandleOptions['consent'],
    conversation: HandleOptions['history'],
  ): Promise<TurnOutcome> {
    const { settings, clock, model } = this.deps;
    // Sensitive records a search brings up in this turn are withheld too, wherever they are in the archive.
    const found: SensitiveRecord[] = [];
    const now = message.time ?? clock.now();
    // Secrets never reach memory, the index or a model: a machine's login goes into the person's
    // vault (the text keeps its handle), anything else is removed, before the message is archived.
    const moved = await this.moveToVault(message);
    const scan = removeSecrets(moved?.text ?? message.text);
    const entry: LogEntry = { time: now.toISOString(), speaker: message.speaker, source: message.source, text: scan.text, role: 'user' };
    let said = labelText(scan.text);
    let judged: PrecheckOutcome;
    // whether the turn has drawn on sensitive context: its searches then get no hosted vector (set fully once the turn begins)
    const taint = { now: () => isSensitive(said) || found.length > 0 };
    let home: Home;
    let history: LogEntry[];
    try {
      home = await this.deps.openHome(
        message.place,
        tapSensitive(this.deps.recall, found, () => taint.now()),
      );
      history = conversation ? await conversation(settings.historyMessages) : await home.recent(settings.historyMessages);
      // labelled when written: the rules every writer applies, and the local lane's verdict before anything leaves,
      // which reads the message with its place's earlier ones and may raise those (a fact split over two messages)
      judged = await judgeMessage({ logger: this.deps.logger, locality: model.locality, precheck: this.deps.precheck }, entry, history, [cancel, deadline.answer]);
      said = judged.label;
      history = await raiseEarlier(home, history, judged.earlier, this.deps.logger);
      await home.archive({ ...entry, ...stored(said), ...(judged.unjudged ? { unjudged: true as const } : {}) });
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
    if (moved) {
      log.info({ kinds: moved.kinds, handle: moved.handle }, 'secret moved from a message into the vault');
      outcome.notices.push(vaultNotice(moved));
    }
    if (scan.kinds.length) {
      log.info({ kinds: scan.kinds }, 'secret removed from a message before archiving');
      outcome.notices.push(secretNotice(scan.kinds));
    }
    if (message.reply === false) {
      void this.deps.writer.scheduleDistill(home, false);
      return outcome;
    }
    // told to whom Charlie answers (a message it only archives gets no line about it in a channel)
    if (judged.unjudged) outcome.notices.push(judged.unjudged === 'language' ? UNREAD_NOTICE : UNJUDGED_NOTICE);
    const turnId = this.deps.newId();
    let fromLayers = false;
    let released = () => false;
    // the turn draws on what its model is shown: the message, the history a local model reads (what fits its prompt),
    // the labelled summary, decisions and quotes a local model reads, what its tools found, what a person let go to a
    // hosted model. What the egress guard withheld from a hosted model was never shown to it: it does not taint the reply
    const fromHistory = model.locality === 'local' && promptHistory(history).some((e) => isSensitive(labelOf(e)));
    this.turns.begin(home.key, turnId, () => isSensitive(said) || fromHistory || fromLayers || found.length > 0 || released());
    const key = home.key;
    taint.now = () => this.turns.tainted(key);
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
      drewOnLabelled: () => (fromLayers = true),
      tainted: () => this.turns.tainted(home.key),
      asker,
      consent: new TurnConsent({
        ...this.deps.consent,
        access: consentAccess,
        now: () => clock.now(),
        signals: [cancel, deadline.answer],
        notice: (text) => emit({ type: 'notice', turnId, level: 'info', text }),
      }),
    };
    released = () => ask.consent.released({ kind: 'chat', id: model.id }).size > 0;
    try {
      let result: LoopResult;
      try {
        result = await answer(
          this.deps,
          ask,
          await this.shownHistory(history, { time: now.toISOString(), speaker: message.speaker, source: message.source, text: scan.text, role: 'user', ...stored(said) }, ask, home),
        );
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
      emit({ type: 'turn_end', turnId, reason: 'error', text: outcome.reply, error: reason, failure: failureOf(error) });
      return outcome;
    }
    outcome.tainted = this.turns.settle(home.key, turnId, isSensitive(classifyText(outcome.reply)));
    // the reply carries the strictest label of what it was made from
    const replyLabel = labelText(outcome.reply, outcome.tainted ? strictestOf(said) : null);
    if (outcome.reply.trim() && outcome.reason !== 'cancelled') {
      // brought up once: noted on the records, so the next turn does not repeat it
      // (after the reply is out: page writes the person does not wait for; the home's next turn waits for them)
      if (reminders.length)
        void this.notes.run(home.key, async () => {
          for (const r of reminders) await home.records.mark(r.ids, r.what, now.toISOString().slice(0, 10)).catch((err: unknown) => log.warn({ err }, 'reminder not noted'));
        });
      try {
        await home.archive({ time: clock.now().toISOString(), speaker: settings.assistantName, source: message.source, text: outcome.reply, role: 'assistant', ...stored(replyLabel) });
      } catch (error) {
        // The answer is given anyway; the person sees that it was not saved (a full disk…).
        if (!(error instanceof MemoryUnavailableError)) throw error;
        log.error({ err: error }, 'reply not archived');
        emit({ type: 'notice', turnId, level: 'warn', text: `this reply was not saved: ${withoutHostPaths(error.message, home.key)}` });
      }
    }
    emit({ type: 'turn_end', turnId, reason: outcome.reason, text: outcome.reply });
    void this.deps.writer.scheduleDistill(home, false);
    return outcome;
  }

  /**
   * The history a hosted model is shown, after asking in the moment: the labelled messages people
   * wrote (in the history, and the message itself) are items like any other (their speaker's),
   * asked about once, before the model's first request; what is not released is withheld as always.
   */
  private async shownHistory(history: LogEntry[], current: LogEntry, ask: Ask, home: Home): Promise<LogEntry[]> {
    const { model } = this.deps;
    if (model.locality === 'local' || !ask.consent.asking) return historyFor(history, model.locality);
    const scope = egressScope(home);
    // people's messages only: a labelled reply drew on items it does not name (each turn would ask about the last
    // reply again), so it stays withheld as in withhold mode, and the model reads those items afresh through its tools
    const labelled = [...history, current].filter((e) => e.role === 'user' && !mayGo(labelOf(e), 'hosted'));
    if (labelled.length === 0) return historyFor(history, model.locality);
    const ok = await ask.consent.decide(
      labelled.map((e) => ({ item: entryItem(e, scope), text: e.text })),
      { kind: 'chat', id: model.id },
    );
    return historyFor(history, model.locality, (e) => ok.has(entryItem(e, scope).id));
  }

  /** Past-due commitments of the speaker and open reviews about what the message names, not yet brought up. */
  private async remindersOf(home: Home, message: IncomingMessage, now: Date): Promise<Reminder[]> {
    // what the last turns brought up is noted first, so it is not brought up again
    await this.notes.run(home.key, () => Promise.resolve());
    const ask = { speaker: message.speaker, text: message.text, ...(message.speakerId ? { speakerId: message.speakerId } : {}) };
    return remindersFor(await home.records.raisable(ask, now), this.deps.model.locality === 'hosted');
  }

  /** Resolves when every reminder brought up has been noted (at shutdown). */
  idle(): Promise<void> {
    return this.notes.idle();
  }

  /**
   * Whether text for a hosted service other than the chat model (the online voice) must stay on
   * this machine, decided by labels: the rules call it sensitive, a tainted turn is running (in
   * `place`, or anywhere when it is not known), or it is part of a stored entry labelled
   * sensitive (a reply whose turn drew on sensitive context: the label survives a restart, and is
   * found however old the entry is). A text no stored entry holds stays here, unless it is a
   * sentence of the turn running in `place`.
   * The line matcher stays as a second net.
   */
  async speechMustStayLocal(place: Place | null, text: string): Promise<boolean> {
    if (isSensitive(classifyText(text))) return true;
    // no place: a text of unknown origin (not a stored entry anywhere) stays here too
    if (!place) return this.turns.tainted() || (await storedLabel((limit) => this.deps.storedEverywhere?.(limit) ?? Promise.resolve([]), text)) !== 'stored';
    const home = await this.deps.openHome(place);
    if (this.turns.tainted(home.key)) return true;
    // a text the place does not hold is a running turn's sentence (a spoken reply, judged by its turn's taint above);
    // with no turn running there, its origin is unknown and it stays here
    // while a turn runs, each of its spoken sentences is asked about: the newest entries only, not the whole archive per sentence
    const running = this.turns.running(home.key);
    const stored = await storedLabel((limit) => home.recent(limit), text, running ? LABEL_LOOKBACK.slice(0, 1) : LABEL_LOOKBACK);
    if (stored === 'sensitive' || (stored === 'unknown' && !running)) return true;
    return (await this.deps.egress.scrubText(egressScope(home), text)) !== text;
  }

  /** What Charlie said in `place` outside a turn (a delivered morning brief): archived as its message, with the label it was made with. */
  async keep(place: Place, said: { text: string; label: SensitivityValue; source: string }): Promise<void> {
    const home = await this.deps.openHome(place);
    const entry: LogEntry = { time: this.deps.clock.now().toISOString(), speaker: this.deps.settings.assistantName, source: said.source, text: said.text, role: 'assistant' };
    await home.archive({ ...entry, ...stored(labelText(said.text, said.label)) });
  }

  /** Text for a hosted service other than the chat model (a hosted MCP client), sensitive records withheld (`quoted`: see ConversationApi). */
  async withholdSensitive(place: Place, text: string, quoted: QuotedLines = 'withheld'): Promise<string> {
    return this.deps.egress.scrubText(egressScope(await this.deps.openHome(place)), text, undefined, quoted);
  }
}

/** The fields a label is stored in. */
function stored(label: SensitivityValue): Pick<LogEntry, 'sensitivity' | 'kind'> {
  return { sensitivity: label.sensitivity, ...(label.kind ? { kind: label.kind } : {}) };
}

/** A tainted reply's label: sensitive, with the message's kind when it had one. */
function strictestOf(said: SensitivityValue): SensitivityValue {
  return isSensitive(said) ? said : { sensitivity: 'sensitive' };
}

/** Why a turn failed, for the front doors (events.ts TurnFailure). */
function failureOf(error: unknown): TurnFailure {
  if (error instanceof ModelHttpError && error.modelMessage) return { kind: error.kind, modelMessage: error.modelMessage };
  if (error instanceof ModelError) return { kind: error.kind };
  return { kind: error instanceof MemoryUnavailableError ? 'memory' : 'internal' };
}
