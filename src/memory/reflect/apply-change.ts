/**
 * A reflection change as text edits of one page (lines.ts's field edits, so everything else on a
 * line stays as written):
 *
 *   merged    the kept record (written first) gains `[source:: …]` (and `[via:: …]`) of each
 *             merged one, a `[merged:: r-…]` per merged id and the newest `said` of them all
 *             (a duplicate restates the fact: decay restarts from the last time it was said);
 *             the merged lines leave the page
 *   rule      a new `## Facts` line `[type:: rule]` whose sources are the records it came from,
 *             as block links `[source:: [[People/Sarah-Chen#^r-abc]]]`, `[via:: reflection]`
 *   expired   `[expired:: YYYY-MM-DD]` on a commitment past its due date
 *   settled   `[settled:: YYYY-MM-DD]` on an episode older than decay's OLD_AFTER_DAYS
 *   proposed  both records `[status:: review]` with `[vs:: ^r-…]` (review.md lists the pair)
 *
 * Each change comes with its records' history lines for `_log.md` (records/history.ts).
 */
import type { PageChange } from '../../core/reflection/reflect.js';
import { mergeEvent, ruleEvent, type RecordEvent } from '../records/history.js';
import { normalizeStatement } from '../../core/names.js';
import { addField, field, parseFactLine, renderFact, setField, sourceOf, type FactLine } from '../markdown/lines.js';
import { addToSection, editLines } from '../graph/page-edit.js';
import type { WikiPage } from '../graph/page.js';
import { provenanceOf } from '../../core/records/record.js';

/** A rule's confidence: the model saw a pattern, nobody said it. */
export const RULE_CONFIDENCE = 0.7;

export interface AppliedChange {
  content: string;
  /** The records' history lines for `_log.md` (records/history.ts). */
  log: Omit<RecordEvent, 'at'>[];
  counts: { merged: number; rules: number; expired: number; settled: number; proposed: number };
}

/** Where a cited record lives and how sensitive it is (any page of the project). */
export type RecordLookup = (id: string) => { page: string; sensitivity: string } | undefined;

const STRICTNESS = ['public', 'personal', 'sensitive'];

export function applyChange(path: string, content: string, page: WikiPage, change: PageChange, today: string, lookup: RecordLookup): AppliedChange {
  const lines = content.split('\n');
  const facts = [...page.facts, ...page.unsourced];
  const byId = new Map(facts.filter((f) => f.blockId).map((f) => [f.blockId ?? '', f]));
  const edits = new Map<number, string | null>();
  const current = (f: FactLine) => edits.get(f.line) ?? lines[f.line - 1] ?? '';
  const edit = (f: FactLine, fn: (raw: string) => string) => edits.set(f.line, fn(current(f)));
  const out: AppliedChange = { content, log: [], counts: { merged: 0, rules: 0, expired: 0, settled: 0, proposed: 0 } };

  for (const m of change.merges) {
    const keep = byId.get(m.keep);
    const drop = m.drop.map((id) => byId.get(id)).filter((f): f is FactLine => f !== undefined && edits.get(f.line) !== null);
    if (!keep || drop.length === 0) continue;
    const values = (f: FactLine, key: string) => f.fields.filter((x) => x.key === key).map((x) => x.value);
    const have = new Set(values(keep, 'source').map(sourceOf));
    const vias = new Set(values(keep, 'via').map((v) => v.toLowerCase()));
    let confidence = Number(field(keep.fields, 'confidence') ?? 1);
    let said = field(keep.fields, 'said') ?? '';
    for (const d of drop) {
      edit(keep, (raw) => {
        let line = raw;
        for (const s of values(d, 'source')) {
          if (have.has(sourceOf(s))) continue;
          have.add(sourceOf(s));
          line = addField(line, 'source', s);
        }
        for (const v of values(d, 'via')) {
          if (vias.has(v.toLowerCase())) continue;
          // the kept record's own way in comes first (the first `via` is the record's provenance)
          if (vias.size === 0) {
            const own = provenanceOf(field(keep.fields, 'source') ?? '');
            vias.add(own);
            if (own !== v.toLowerCase()) line = addField(line, 'via', own);
          }
          vias.add(v.toLowerCase());
          line = addField(line, 'via', v);
        }
        return addField(line, 'merged', d.blockId ?? '');
      });
      const dSaid = field(d.fields, 'said') ?? '';
      if (dSaid && (!said || dSaid > said)) said = dSaid;
      const c = Number(field(d.fields, 'confidence') ?? 1);
      if (Number.isFinite(c) && c > confidence) confidence = c;
      edits.set(d.line, null);
    }
    if (field(keep.fields, 'confidence') !== undefined && Number.isFinite(confidence)) edit(keep, (raw) => setField(raw, 'confidence', String(Math.min(1, confidence))));
    if (said && said !== field(keep.fields, 'said')) edit(keep, (raw) => setField(raw, 'said', said));
    out.counts.merged += drop.length;
    for (const d of drop) out.log.push(mergeEvent({ page: path, id: m.keep }, { page: path, id: d.blockId ?? '' }));
  }

  const mark = (ids: readonly string[], key: 'expired' | 'settled', date: 'due' | 'happened') => {
    for (const id of ids) {
      const f = byId.get(id);
      if (!f || edits.get(f.line) === null) continue;
      edit(f, (raw) => setField(raw, key, today));
      out.counts[key]++;
      const when = field(f.fields, date);
      out.log.push({ action: key, page: path, id, source: 'reflection', detail: when ? `(${date} ${when})` : `(said ${field(f.fields, 'said') ?? '?'})` });
    }
  };
  mark(change.expire, 'expired', 'due');
  mark(change.settle, 'settled', 'happened');

  for (const c of change.review) {
    const a = byId.get(c.a);
    const b = byId.get(c.b);
    if (!a || !b || edits.get(a.line) === null || edits.get(b.line) === null) continue;
    edit(a, (raw) => setField(setField(raw, 'status', 'review'), 'vs', `^${c.b}`));
    edit(b, (raw) => setField(setField(raw, 'status', 'review'), 'vs', `^${c.a}`));
    out.counts.proposed++;
    const why = `proposed by reflection${c.why ? `: ${c.why}` : ''}`;
    out.log.push(
      { action: 'review', page: path, id: c.a, source: 'reflection', detail: `disagrees with ^${c.b} (${why})` },
      { action: 'review', page: path, id: c.b, source: 'reflection', detail: `disagrees with ^${c.a} (${why})` },
    );
  }

  const known = new Set(facts.map((f) => normalizeStatement(f.text)));
  const ruleLines: string[] = [];
  for (const r of change.rules) {
    const cited = r.from.flatMap((id) => {
      const at = lookup(id);
      return at ? [{ id, ...at }] : [];
    });
    if (cited.length < 2 || known.has(normalizeStatement(r.text))) continue;
    known.add(normalizeStatement(r.text));
    const strictest = cited.map((c) => c.sensitivity).reduce((a, b) => (STRICTNESS.indexOf(b) > STRICTNESS.indexOf(a) ? b : a), 'public');
    const link = (c: { id: string; page: string }) => `[[${c.page.replace(/\.md$/i, '')}#^${c.id}]]`;
    const [first, ...rest] = cited;
    if (!first) continue;
    let line = renderFact(path, {
      text: r.text,
      type: 'rule',
      confidence: RULE_CONFIDENCE,
      ...(strictest !== page.sensitivity ? { sensitivity: strictest } : {}),
      said: today,
      source: link(first),
    });
    for (const c of rest) line = addField(line, 'source', link(c));
    line = addField(line, 'via', 'reflection');
    ruleLines.push(line);
    out.counts.rules++;
    out.log.push(ruleEvent({ page: path, id: parseFactLine(line, 0)?.blockId ?? '' }, cited));
  }
  out.content = addToSection(editLines(content, edits), 'Facts', ruleLines, 'Related');
  if (ruleLines.length === 0 && edits.size === 0) out.content = content;
  return out;
}
