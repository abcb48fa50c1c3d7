/**
 * Contradictions go into review, never silently replaced. A new record that disagrees with an
 * active one about the same entity (page) and attribute marks both `[status:: review]` and
 * links each to the other (`[vs:: ^r-…]`); `review.md` (generated) lists the pairs. The person
 * resolves a pair — keep new, keep old, keep both — and the loser becomes `superseded` with the
 * date (`[superseded:: YYYY-MM-DD]`), kept on the page for the record but out of retrieval.
 * `hold` keeps a record out of retrieval and prompts while the person decides.
 *
 * This module is the Markdown side (fact lines, `review.md`); the rule that two records are about
 * the same attribute is the core's (src/core/records/review.ts), shared with private.db.
 */
import type { ReviewChoice, ReviewPair } from '../../core/ports/index.js';
import { field, parseFactLine, setField, type FactLine } from '../markdown/lines.js';
import { normalizeStatement } from '../../core/names.js';
import type { WikiPage } from '../graph/page.js';
import type { RecordEvent } from './history.js';
import { readRecord } from './record.js';
import { attributeOf, saysChanged } from '../../core/records/review.js';
import { retrievable } from '../../core/records/record.js';

function isOpen(page: string, fact: FactLine): boolean {
  return retrievable(readRecord(page, fact, { sensitivity: 'personal' }).status);
}

/**
 * The lines of a page with a new record set against the open records it contradicts (same
 * attribute, another statement): when the new one says the old state ended ("now", "moved",
 * "no longer") the old ones are superseded on `today`; otherwise both go into review. Returns
 * the edits to existing lines, the new line as it should be written, and what happened.
 */
export function reviewAgainst(
  page: string,
  facts: readonly FactLine[],
  lines: readonly string[],
  newLine: string,
  today: string,
): { edits: Map<number, string>; line: string; conflicts: number; superseded: string[] } {
  const edits = new Map<number, string>();
  const superseded: string[] = [];
  const fresh = parseFactLine(newLine, 0);
  if (!fresh?.blockId) return { edits, line: newLine, conflicts: 0, superseded };
  const attr = attributeOf(fresh.text, field(fresh.fields, 'about'));
  if (!attr) return { edits, line: newLine, conflicts: 0, superseded };
  const replaces = saysChanged(fresh.text);
  let line = newLine;
  let conflicts = 0;
  for (const old of facts) {
    if (!old.blockId || old.blockId === fresh.blockId || !isOpen(page, old) || normalizeStatement(old.text) === normalizeStatement(fresh.text)) continue;
    if (attributeOf(old.text, field(old.fields, 'about')) !== attr) continue;
    const raw = lines[old.line - 1];
    if (raw === undefined) continue;
    if (replaces) {
      edits.set(old.line, setField(setField(setField(raw, 'status', 'superseded'), 'superseded', today), 'vs', `^${fresh.blockId}`));
      superseded.push(old.blockId);
      continue;
    }
    edits.set(old.line, setField(setField(raw, 'status', 'review'), 'vs', `^${fresh.blockId}`));
    if (conflicts === 0) line = setField(setField(line, 'status', 'review'), 'vs', `^${old.blockId}`);
    conflicts++;
  }
  return { edits, line, conflicts, superseded };
}

export type { ReviewChoice, ReviewPair };

/** The pairs in review on the pages, each once. */
export function reviewPairs(pages: Iterable<WikiPage>): ReviewPair[] {
  const out: ReviewPair[] = [];
  for (const p of pages) {
    // most pages have no record with a partner: they are passed over without building their map
    if (!p.facts.some((f) => field(f.fields, 'vs')) && !p.unsourced.some((f) => field(f.fields, 'vs'))) continue;
    const byId = new Map(
      p.facts
        .concat(p.unsourced)
        .filter((f) => f.blockId)
        .map((f) => [f.blockId ?? '', f]),
    );
    const seen = new Set<string>();
    for (const f of byId.values()) {
      // only a record with a partner can be in a pair: the others are not read (reading hashes each)
      const vs = (field(f.fields, 'vs') ?? '').replace(/^\^/, '');
      const other = byId.get(vs);
      if (!other) continue;
      const r = readRecord(p.path, f, { sensitivity: p.sensitivity });
      if (r.status !== 'review' || seen.has(r.id) || seen.has(vs)) continue;
      seen.add(r.id).add(vs);
      const o = readRecord(p.path, other, { sensitivity: p.sensitivity });
      const [a, b] = o.said > r.said || (o.said === r.said && other.line > f.line) ? [r, o] : [o, r];
      out.push({ page: p.path, title: p.title, old: { id: a.id, statement: a.statement, said: a.said }, new: { id: b.id, statement: b.statement, said: b.said } });
    }
  }
  return out;
}

/** `review.md`: the pairs waiting for a person, with links to their block ids. */
export function renderReview(pairs: readonly ReviewPair[]): string {
  return reviewText(pairs.map(reviewItem));
}

/** One pair's line of `review.md`. */
export function reviewItem(p: ReviewPair): string {
  const link = (id: string, text: string) => `[[notes/${p.page.replace(/\.md$/, '')}#^${id}|${text.replace(/[[\]|]/g, '')}]]`;
  return `- **${p.title}** — old: ${link(p.old.id, p.old.statement)} (said ${p.old.said || '?'}) · new: ${link(p.new.id, p.new.statement)} (said ${p.new.said || '?'}) · \`${p.new.id}\``;
}

/** `review.md` from its pairs' lines (reviewItem), in order. */
export function reviewText(items: readonly string[]): string {
  const head = '# In review\n\nGenerated by Charlie: records that disagree. Resolve with `/memory review` (keep new, keep old, keep both) or edit the pages.\n';
  if (items.length === 0) return `${head}\nNothing is in review.\n`;
  return `${head}\n${items.join('\n')}\n`;
}

/**
 * The page's text after a person's choice about the record `id` (either side of a pair, or
 * any record for `hold`), or null when the page has no such record.
 */
export function resolveOnPage(content: string, page: WikiPage, id: string, choice: ReviewChoice, today: string): string | null {
  const lines = content.split('\n');
  const facts = page.facts.concat(page.unsourced);
  const target = facts.find((f) => f.blockId === id);
  if (!target) return null;
  const set = (f: FactLine, edit: (raw: string) => string) => {
    const raw = lines[f.line - 1];
    if (raw !== undefined) lines[f.line - 1] = edit(raw);
  };
  if (choice === 'hold') {
    set(target, (raw) => setField(raw, 'status', 'held'));
    return lines.join('\n');
  }
  const pair = reviewPairs([page]).find((p) => p.old.id === id || p.new.id === id);
  if (!pair) {
    // a single record (e.g. held): keeping it makes it active again
    set(target, (raw) => setField(setField(raw, 'status', null), 'vs', null));
    return lines.join('\n');
  }
  const byId = (rid: string) => facts.find((f) => f.blockId === rid);
  const keep = (rid: string) => {
    const f = byId(rid);
    if (f) set(f, (raw) => setField(setField(raw, 'status', null), 'vs', null));
  };
  const supersede = (rid: string) => {
    const f = byId(rid);
    if (f) set(f, (raw) => setField(setField(raw, 'status', 'superseded'), 'superseded', today));
  };
  if (choice === 'keep-both') {
    keep(pair.old.id);
    keep(pair.new.id);
  } else if (choice === 'keep-new') {
    keep(pair.new.id);
    supersede(pair.old.id);
  } else {
    keep(pair.old.id);
    supersede(pair.new.id);
  }
  return lines.join('\n');
}

/** What a person's review choice did to each record of the pair, for their histories. */
export function reviewEvents(page: WikiPage, id: string, choice: ReviewChoice): Omit<RecordEvent, 'at'>[] {
  const source = '/memory review';
  const one = (rid: string, detail: string): Omit<RecordEvent, 'at'> => ({ action: 'reviewed', page: page.path, id: rid, source, detail });
  const pair = reviewPairs([page]).find((p) => p.old.id === id || p.new.id === id);
  if (choice === 'hold') return [one(id, 'held: kept out of answers until decided')];
  if (!pair) return [one(id, `${choice}: active again`)];
  const { old, new: fresh } = pair;
  if (choice === 'keep-both') return [one(old.id, `keep both (with ^${fresh.id})`), one(fresh.id, `keep both (with ^${old.id})`)];
  const [kept, lost] = choice === 'keep-new' ? [fresh.id, old.id] : [old.id, fresh.id];
  return [one(kept, `${choice}: kept over ^${lost}`), one(lost, `${choice}: superseded by ^${kept}`)];
}
