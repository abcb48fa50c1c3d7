/**
 * A new message's label before anything leaves, and what it changes in its place (issue 36,
 * fourth outside sweep): the rules, and the local lane's precheck (precheck.ts) reading the new
 * message with the place's earlier ones. A fact split over two messages ("Tobin starts at
 * Fernhill House on Monday", later "Fernhill House is the residential rehab clinic") makes the
 * earlier one sensitive: its stored label is raised (a project's day file, a DM's row; the reply
 * of its turn with it), so the history a hosted model reads — in this turn and after a restart —,
 * search and the index (a label line changes the message's chunk, which a hosted embedder then
 * never gets again) read it labelled. A label only goes up here.
 */
import type { Home } from '../home.js';
import type { LocalChatModel, Locality, LogEntry, Logger, MemoryLayers, RaisedEntryLabel } from '../ports/index.js';
import { formatSensitivity, isSensitive, labelOf, labelText, markedSensitivity } from '../privacy/sensitivity.js';
import { relabelledEntry } from '../writing/sensitivity-verdict.js';
import { precheck, precheckApplies, precheckByMeaning, precheckContext, type PrecheckOutcome, type PrecheckSettings } from './precheck.js';
import type { MeaningJudge } from '../privacy/meaning-judge.js';

export interface JudgeDeps {
  logger: Logger;
  /** The chat model's locality now. */
  locality: Locality;
  precheck?: { lane: LocalChatModel | null; meaning?: MeaningJudge | null; settings: PrecheckSettings } | undefined;
}

/**
 * The message's label: the rules', or the stricter verdict of the local memory lane (without one,
 * the built-in judge by meaning) when something may leave, with the earlier messages the lane says
 * it makes sensitive (the judge by meaning reads one message at a time: it names none).
 */
export async function judgeMessage(deps: JudgeDeps, entry: LogEntry, history: readonly LogEntry[], signals: (AbortSignal | undefined)[]): Promise<PrecheckOutcome> {
  const said = labelText(entry.text);
  const { lane = null, meaning = null, settings } = deps.precheck ?? {};
  // no judge: the rules only; everything local: nothing leaves, no cost
  if ((!lane && !meaning) || !settings || !precheckApplies(settings, deps.locality)) return { label: said, raised: false, earlier: [] };
  const out = lane
    ? await precheck(lane, entry, said, settings.timeoutMs, signals, precheckContext(history, entry.time, settings.contextMessages ?? 0))
    : await precheckByMeaning(meaning!, entry, said, settings.timeoutMs, signals);
  // never the text: what happened, for the owner's log
  const judge = lane ? 'the memory lane' : 'the judge by meaning';
  if (out.unjudged) deps.logger.info({ why: out.unjudged, timeoutMs: settings.timeoutMs }, `${judge} did not judge a message; it is kept from hosted services`);
  else if (out.raised) deps.logger.info({ kind: out.label.kind ?? 'sensitive' }, `${judge} labelled a message the rules missed, before anything left`);
  if (out.earlier.length) deps.logger.info({ count: out.earlier.length }, `${judge} labelled earlier messages that a new one makes sensitive`);
  return out;
}

/**
 * Stores the raised labels of earlier messages where they live (`home.raiseLabels`), and returns
 * `history` with them (and the reply of a raised message's turn) labelled, for the rest of this
 * turn. A store that fails is logged: this turn still withholds them.
 */
export async function raiseEarlier(home: Home, history: readonly LogEntry[], earlier: readonly RaisedEntryLabel[], logger: Logger): Promise<LogEntry[]> {
  if (earlier.length === 0) return [...history];
  await home.raiseLabels(earlier).catch((err: unknown) => logger.warn({ err, count: earlier.length }, 'labels of earlier messages were not stored'));
  // a decision or quote distillation already took from such a message carries its label too
  try {
    const { layers } = await home.layers();
    if (relabelledLayers(layers, earlier) !== layers) await home.editLayers((current) => relabelledLayers(current, earlier));
  } catch (err) {
    logger.warn({ err }, 'labels of decisions and quotes taken from earlier messages were not stored');
  }
  const same = (a: LogEntry, b: LogEntry) => a.time === b.time && a.role === b.role && a.speaker === b.speaker && a.source === b.source && a.text === b.text;
  const out = [...history];
  for (const { entry, label } of earlier) {
    const i = out.findIndex((e) => e === entry || same(e, entry));
    if (i < 0) continue;
    out[i] = relabelledEntry(out[i]!, label);
    // the reply of its turn drew on it (as the stores raise it)
    const reply = entry.role === 'user' ? out.findIndex((e, j) => j > i && e.role === 'assistant' && e.source === entry.source) : -1;
    if (reply > i && !isSensitive(labelOf(out[reply]!))) out[reply] = relabelledEntry(out[reply]!, label);
  }
  return out;
}

/**
 * `layers` with each decision and quote taken from a raised message (its source, on its day)
 * labelled as that message now is; `layers` itself when none changes. The summary is left as it is:
 * it is rewritten at the next distillation, and a label on it would hold the whole summary back
 * for good (docs/privacy.md, *A fact split over two messages*).
 */
function relabelledLayers(layers: MemoryLayers, earlier: readonly RaisedEntryLabel[]): MemoryLayers {
  const labelOfItem = (item: { date: string; source: string; text: string }) => {
    if (isSensitive(markedSensitivity(item.text))) return null;
    return earlier.find((r) => r.entry.source === item.source && r.entry.time.slice(0, 10) === item.date && isSensitive(r.label))?.label ?? null;
  };
  const mark = <T extends { date: string; source: string; text: string }>(item: T): T => {
    const label = labelOfItem(item);
    return label ? { ...item, text: `${item.text} [sensitivity:: ${formatSensitivity(label)}]` } : item;
  };
  const decisions = layers.decisions.map(mark);
  const quotes = layers.quotes.map(mark);
  const same = decisions.every((d, i) => d === layers.decisions[i]) && quotes.every((q, i) => q === layers.quotes[i]);
  return same ? layers : { ...layers, decisions, quotes };
}
