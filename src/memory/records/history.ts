/**
 * The history of a record, kept append-only in the project's `notes/_log.md` (one line per
 * change, readable, never rewritten), so "why does Charlie think that?" can be answered from
 * the Markdown alone. A record line is the log's usual line with the page path and the block id
 * (`path#^id`) and an action:
 *
 *     - 2026-06-01T10:00:00.000Z added People/Sarah-Chen.md#^r-3f9a1c (source: https://discord.com/channels/1/2/3) — distillation; gate 0.83 (recency 1 · salience 1 · identity 1 · source 0.7)
 *     - 2026-06-08T10:00:00.000Z restated People/Sarah-Chen.md#^r-3f9a1c (source: https://discord.com/channels/1/2/9) — said 2026-06-08
 *     - 2026-06-09T08:00:00.000Z edited People/Sarah-Chen.md#^r-3f9a1c (source: hand edit) — statement now r-81c2d0
 *     - 2026-06-10T03:00:00.000Z merged People/Sarah-Chen.md#^r-3f9a1c (source: reflection) — absorbed People/Sarah-Chen.md#^r-77aa01
 *     - 2026-06-11T09:00:00.000Z review People/Sarah-Chen.md#^r-3f9a1c — disagrees with ^r-5b21c0
 *     - 2026-06-12T09:00:00.000Z reviewed People/Sarah-Chen.md#^r-3f9a1c (source: /memory review) — keep-new: superseded
 *
 * No statement text goes into the log (a forgotten record must not live on here): an edit is
 * identified by the hash its new statement would have as a block id.
 *
 * `merged` is the reflection job's line: the record that stays is the line's record; `absorbed`
 * names the one folded into it (whose own history then belongs to the kept record's chain).
 * The reflection job (src/memory/reflect/) writes these record lines too:
 *
 *     - … merged People/Sarah-Chen.md#^r-aaaaaa (source: reflection) — absorbed People/Sarah-Chen.md#^r-bbbbbb
 *     - … distilled Topics/Work.md#^r-dddddd (source: reflection) — a rule distilled from ^r-aaaaaa + ^r-cccccc
 *     - … expired People/Sarah-Chen.md#^r-eeeeee (source: reflection) — (due 2026-06-26)
 *     - … settled People/Sarah-Chen.md#^r-eeeeee (source: reflection) — (happened 2026-01-02)
 *     - … review People/Sarah-Chen.md#^r-aaaaaa (source: reflection) — disagrees with ^r-ffffff (proposed by reflection: …)
 */
import { blockIdFor } from '../../core/records/block-id.js';

export const RECORD_ACTIONS = ['added', 'restated', 'edited', 'merged', 'review', 'reviewed', 'distilled', 'expired', 'settled'] as const;
export type RecordAction = (typeof RECORD_ACTIONS)[number];

export interface RecordEvent {
  /** ISO time the change was made (or, for a hand edit, noticed). */
  at: string;
  action: RecordAction;
  /** Page path relative to notes/. */
  page: string;
  id: string;
  source?: string;
  detail?: string;
}

/** The fields of a `_log.md` line for a record event (Wiki.log renders the line). */
export function recordLogLine(e: Omit<RecordEvent, 'at'>): { action: RecordAction; path: string; source?: string; detail?: string } {
  return { action: e.action, path: `${e.page}#^${e.id}`, ...(e.source ? { source: e.source } : {}), ...(e.detail ? { detail: e.detail } : {}) };
}

/** The `merged` line the reflection job writes when `gone` is folded into `kept`. */
export function mergeEvent(kept: { page: string; id: string }, gone: { page: string; id: string }): Omit<RecordEvent, 'at'> {
  return { action: 'merged', page: kept.page, id: kept.id, source: 'reflection', detail: `absorbed ${gone.page}#^${gone.id}` };
}

/** The `distilled` line of a rule the reflection job wrote, naming the records it came from. */
export function ruleEvent(rule: { page: string; id: string }, from: readonly { id: string }[]): Omit<RecordEvent, 'at'> {
  return { action: 'distilled', page: rule.page, id: rule.id, source: 'reflection', detail: `a rule distilled from ${from.map((f) => `^${f.id}`).join(' + ')}` };
}

/** The record a `merged` event folded in, or null. */
export function absorbedBy(e: RecordEvent): { page: string; id: string } | null {
  if (e.action !== 'merged') return null;
  const m = /absorbed (.+)#\^(r-[\w-]+)/.exec(e.detail ?? '');
  return m ? { page: m[1] ?? '', id: m[2] ?? '' } : null;
}

/** The `edited` event for a hand edit: identified by the hash the new statement has. */
export function editEvent(page: string, id: string, statement: string): Omit<RecordEvent, 'at'> {
  return { action: 'edited', page, id, source: 'hand edit', detail: `statement now ${blockIdFor(page, statement)}` };
}

const LINE = new RegExp(`^- (\\d{4}-\\d\\d-\\d\\dT[^ ]+) (${RECORD_ACTIONS.join('|')}) (.+?)#\\^(r-[\\w-]+)(?: \\(source: (.*?)\\))?(?: — (.*))?$`);

/** Every record event of a `_log.md` text, in order; other lines are skipped. */
export function parseRecordEvents(log: string): RecordEvent[] {
  const out: RecordEvent[] = [];
  for (const raw of log.split('\n')) {
    const m = LINE.exec(raw.trimEnd());
    if (!m) continue;
    out.push({
      at: m[1] ?? '',
      action: m[2] as RecordAction,
      page: m[3] ?? '',
      id: m[4] ?? '',
      ...(m[5] ? { source: m[5] } : {}),
      ...(m[6] ? { detail: m[6] } : {}),
    });
  }
  return out;
}

/** Page renames in the log (`renamed OLD → NEW`): new path → every path it had before. */
export function parseRenames(log: string): Map<string, string[]> {
  return renameChains(renameLinks(log));
}

/** Each rename of `log` into `direct` (new path → the path before), later lines winning. */
export function renameLinks(log: string, direct = new Map<string, string>()): Map<string, string> {
  for (const raw of log.split('\n')) {
    const m = /^- \S+ renamed (.+?) → (.+?)(?: \(source: .*\))?$/.exec(raw.trimEnd());
    if (m?.[1] && m[2]) direct.set(m[2], m[1]);
  }
  return direct;
}

/** New path → every path it had before, from the direct renames. */
export function renameChains(direct: ReadonlyMap<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const to of direct.keys()) {
    const chain: string[] = [];
    for (let at = direct.get(to); at !== undefined && !chain.includes(at) && chain.length < 20; at = direct.get(at)) chain.push(at);
    out.set(to, chain);
  }
  return out;
}
