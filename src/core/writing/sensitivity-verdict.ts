/**
 * The memory lane's verdict on each archive message it distils (issue 36 §1: "each message
 * classified by the rules, and by the memory lane's verdict where it runs; the stricter wins").
 * The local memory model reads every message of the batch anyway; it also names the ones that
 * reveal something sensitive in words the rules table does not know ("Jon was sectioned last
 * night"). Its reply is untrusted: each item is validated with zod, an invalid or missing verdict
 * changes nothing, and a verdict only ever raises a label — a message the rules (or its writer)
 * labelled sensitive stays so whatever the model says.
 *
 * A raised message is stored with its new label (the archive's label line, a DM row's column:
 * DistillTarget.raiseLabels), and so is the reply of its turn: a reply carries the strictest label
 * of what its turn drew on, and its turn drew on that message.
 *
 * The one label a verdict may lower is a provisional one: a message the lane could not judge
 * before anything left (the precheck failed closed, `unjudged`) is settled by the lane's next
 * whole verdict on it — what the verdict names it, else what the rules say of its words. The
 * reply of its turn keeps its label (its taint may have other sources).
 */
import { z } from 'zod';
import type { LogEntry } from '../ports/index.js';
import { isSensitive, labelOf, labelText, type SensitivityValue } from '../privacy/sensitivity.js';

/** What the model may call a message: a kind of the labels (`legal` is sensitive without a kind), or `other`. */
const VERDICT_KINDS = ['phi', 'credential', 'financial', 'legal', 'other'] as const;
/** At most this many messages named per reply (a grammar-constrained reply stays bounded). */
export const MAX_VERDICTS = 20;

export const verdictItem = z.object({ message: z.coerce.number().int().min(1), kind: z.enum(VERDICT_KINDS) });
export type VerdictItem = z.infer<typeof verdictItem>;

/** The reply's field, for its JSON Schema. */
export const verdictList = z.array(verdictItem).max(MAX_VERDICTS);

/** The prompt's line about the field. */
export const VERDICT_INSTRUCTION =
  "- sensitive: every new message (a person's or the assistant's) that reveals health (illness, medication, therapy, a hospital stay, a pregnancy), a secret or an identity number (a code, a password, a passport), money details, or a legal or immigration matter — in any wording, also when no obvious word says it — each with its number and kind (phi, credential, financial, legal, other). Name also a message that is harmless alone when a later one makes it sensitive (a fact split over two messages: the later one says that a place, person or thing the earlier one named is a clinic, an illness, a debt, a court case…). Empty when none.";

/** A message whose label the verdict raised: its position in the entries distilled, as read, and its new label. */
export interface RaisedLabel {
  index: number;
  entry: LogEntry;
  label: SensitivityValue;
}

/** The label a verdict item gives: its kind when the labels have it, else sensitive without a kind. */
export function labelFor(kind: VerdictItem['kind']): SensitivityValue {
  return kind === 'phi' || kind === 'credential' || kind === 'financial' ? { sensitivity: 'sensitive', kind } : { sensitivity: 'sensitive' };
}

/**
 * The labels `verdict` raises in `entries` (1-based message numbers, as the prompt numbers them):
 * only entries not already labelled sensitive (by their stored label or the rules) are raised;
 * a number outside the batch is ignored. `whole` (the lane judged every message: a valid list,
 * nothing dropped): each provisional (`unjudged`) entry is settled too, as the verdict names it
 * or else as the rules read its words — the one way a label is lowered.
 */
export function raisedLabels(entries: readonly LogEntry[], verdict: readonly VerdictItem[], whole = false): RaisedLabel[] {
  const raised = new Map<number, SensitivityValue>();
  const raise = (i: number, label: SensitivityValue) => {
    const entry = entries[i];
    if (entry && !raised.has(i) && ((whole && entry.unjudged) || !isSensitive(labelOf(entry)))) raised.set(i, label);
  };
  for (const v of verdict) {
    const i = v.message - 1;
    const entry = entries[i];
    if (!entry) continue;
    const label = labelFor(v.kind);
    raise(i, label);
    // the reply of this message's turn (same source, later in the batch) drew on it
    if (entry.role === 'user') {
      const reply = entries.findIndex((e, j) => j > i && e.role === 'assistant' && e.source === entry.source);
      if (reply > i) raise(reply, label);
    }
  }
  // a provisional label the verdict did not name: what the rules say of its words (ordinary, mostly)
  if (whole) for (const [i, e] of entries.entries()) if (e.unjudged && !raised.has(i)) raised.set(i, labelText(e.text));
  return [...raised.entries()].sort(([a], [b]) => a - b).map(([index, label]) => ({ index, entry: entries[index]!, label }));
}

/** `entry` stored with `label` (no longer provisional). */
export function relabelledEntry(entry: LogEntry, label: SensitivityValue): LogEntry {
  const out: LogEntry = { ...entry, sensitivity: label.sensitivity };
  delete out.unjudged;
  delete out.kind;
  if (label.kind) out.kind = label.kind;
  return out;
}

/** `entries` with the raised labels set, so what is made from them in this batch (summary, decisions, quotes, records) carries them. */
export function withRaised(entries: readonly LogEntry[], raised: readonly RaisedLabel[]): LogEntry[] {
  const by = new Map(raised.map((r) => [r.index, r.label]));
  return entries.map((e, i) => {
    const label = by.get(i);
    return label ? relabelledEntry(e, label) : e;
  });
}
