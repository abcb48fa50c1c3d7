/**
 * The reflection guard, in plain code: a rewrite of a page is refused (and the page left as it
 * was) when it would
 *   - drop more than a quarter of the page's records (one record may always go: a merge of two
 *     duplicates on a small page),
 *   - lose a source (every `[source:: …]` of the page before must still be on it after),
 *   - merge a record into one that states a different fact, or change what a record it keeps
 *     states (core/reflection/fact-difference.ts: "3 cats" is never "2 cats", "likes" never
 *     "dislikes", "alice owes bob" never "bob owes alice"),
 *   - touch a record a person wrote or changed (`manual`) or one that is `held`
 *     (its line must be on the page after, byte for byte),
 * or when the rewritten page no longer reads. Whatever proposed the rewrite — plain code or the
 * memory model — the guard sees only the text before and after.
 */
import { sourceOf, type InlineField } from '../markdown/lines.js';
import { readPage, type WikiPage } from '../graph/page.js';
import { recordsOf } from '../records/record.js';
import { factDifference } from '../../core/reflection/fact-difference.js';

/** A rewrite may drop at most this share of a page's records. */
export const MAX_DROPPED_SHARE = 0.25;

export type GuardVerdict = { ok: true } | { ok: false; reason: string };

function sources(page: WikiPage): Set<string> {
  const of = (fields: InlineField[]) => fields.filter((f) => f.key === 'source').map((f) => sourceOf(f.value));
  return new Set([...page.facts, ...page.unsourced].flatMap((f) => of(f.fields)).concat(page.links.flatMap((l) => of(l.fields))));
}

/** `page` relative to notes/. */
export function guardRewrite(page: string, before: string, after: string): GuardVerdict {
  const old = readPage(before, page, page);
  if (!old.ok) return { ok: false, reason: `the page does not read (${old.problem.message})` };
  const neu = readPage(after, page, page);
  if (!neu.ok) return { ok: false, reason: `the rewritten page would not read (${neu.problem.message})` };
  const was = recordsOf(old.page);
  const now = recordsOf(neu.page);
  const key = (r: { id: string; statement: string }) => r.id || `text:${r.statement}`;
  const kept = new Set(now.map(key));
  const dropped = was.filter((r) => !kept.has(key(r)));
  // one record may always go (folded into another by a merge): a page of two duplicates could never be merged otherwise
  if (dropped.length > 1 && dropped.length / was.length > MAX_DROPPED_SHARE) {
    return { ok: false, reason: `it would drop ${dropped.length} of ${was.length} records (more than ${MAX_DROPPED_SHARE * 100} %)` };
  }
  // a merge folds a record into one that states the same fact, read with the page's subject for a statement without one
  const context = { subject: neu.page.title };
  const nowById = new Map(now.filter((r) => r.id).map((r) => [r.id, r]));
  const keeperOf = new Map(
    [...neu.page.facts, ...neu.page.unsourced].flatMap((f) => f.fields.filter((x) => x.key === 'merged').map((x) => [x.value.replace(/^\^/, ''), nowById.get(f.blockId ?? '')] as const)),
  );
  for (const r of dropped) {
    const keeper = r.id ? keeperOf.get(r.id) : undefined;
    const differs = keeper && factDifference(r.statement, keeper.statement, context);
    if (differs) return { ok: false, reason: `it would merge ${r.id} into ${keeper.id} though they differ (${differs})` };
  }
  for (const r of was) {
    const same = r.id ? nowById.get(r.id) : undefined;
    const differs = same && same.statement !== r.statement && factDifference(r.statement, same.statement, context);
    if (differs) return { ok: false, reason: `it would change record ${r.id} (${differs})` };
  }
  const after_ = sources(neu.page);
  const lost = [...sources(old.page)].filter((s) => !after_.has(s));
  if (lost.length) return { ok: false, reason: `it would lose ${lost.length} source(s), e.g. ${lost[0] ?? ''}` };
  const beforeLines = before.split(/\r?\n/);
  const afterLines = new Set(after.split(/\r?\n/));
  for (const r of was) {
    if (!r.handEdited && r.status !== 'held') continue;
    if (!afterLines.has(beforeLines[r.line - 1] ?? ''))
      return { ok: false, reason: `it would change ${r.status === 'held' ? 'a held' : 'a hand-edited'} record (${r.id || r.statement.slice(0, 40)})` };
  }
  return { ok: true };
}
