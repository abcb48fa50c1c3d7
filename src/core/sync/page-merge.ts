/**
 * A page merged record by record. The lines of the three versions are merged as a sequence in
 * which a record is one token named by its block id (so an edit of a record is not a move), and
 * prose lines are tokens named by their text. Where both devices changed the same stretch, both
 * sides' lines are kept (what one removed and the other left alone stays removed). A record both
 * edited: the same statement merges field by field; two different statements both stay, the
 * other device's under a new block id, and both go to review (`[status:: review] [vs:: ^…]`),
 * as do two records added on two devices that contradict each other. Pure.
 */
import { normalizeStatement } from '../names.js';
import { attributeOf } from '../records/review.js';
import type { MemoryGrammar, MergeReview, PageLines } from '../ports/sync.js';
import { diff3 } from './diff3.js';
import { mergeFrontMatter } from './front-matter-merge.js';

export interface PageMerge {
  text: string;
  review: MergeReview[];
  notes: string[];
}

interface Ctx {
  path: string;
  g: MemoryGrammar;
  review: MergeReview[];
  notes: string[];
  ids: Set<string>;
}

const LATEST = new Set(['said', 'raised', 'asked', 'superseded', 'updated']);

function freshId(ctx: Ctx, id: string, line: string): string {
  let h = 0;
  for (const c of line) h = (h * 31 + (c.codePointAt(0) ?? 0)) >>> 0;
  let n = 0;
  let next = `${id}-${(h % 46656).toString(36)}`;
  while (ctx.ids.has(next)) next = `${id}-${(h % 46656).toString(36)}${String(++n)}`;
  ctx.ids.add(next);
  return next;
}

function pairInReview(ctx: Ctx, a: string, b: string, why: MergeReview['why']): [string, string] {
  const ra = ctx.g.record(a);
  const rb = ctx.g.record(b);
  if (!ra || !rb) return [a, b];
  ctx.review.push({ path: ctx.path, ids: [ra.id, rb.id], why });
  const mark = (line: string, vs: string) => ctx.g.setField(ctx.g.setField(line, 'status', 'review'), 'vs', `^${vs}`);
  return [mark(a, rb.id), mark(b, ra.id)];
}

/** Same statement on both sides: the inline fields merged key by key (dates take the later). */
function mergeFields(ctx: Ctx, base: string | undefined, ours: string, theirs: string): string {
  const fields = (line: string | undefined) => new Map((line ? (ctx.g.record(line)?.fields ?? []) : []).map((f) => [f.key.toLowerCase(), f.value]));
  const b = fields(base);
  const o = fields(ours);
  const t = fields(theirs);
  let line = ours;
  for (const key of new Set([...o.keys(), ...t.keys()])) {
    const [bv, ov, tv] = [b.get(key), o.get(key), t.get(key)];
    if (ov === tv || tv === bv) continue;
    if (ov === bv) line = ctx.g.setField(line, key, tv ?? null);
    else if (LATEST.has(key) && ov !== undefined && tv !== undefined) line = ctx.g.setField(line, key, ov >= tv ? ov : tv);
    else ctx.notes.push(`${ctx.path}: both devices changed [${key}::] of ^${ctx.g.record(ours)?.id ?? '?'}; this device's value was kept`);
  }
  return line;
}

/** One record's line(s) from its three versions (`base` undefined: new on both). */
function resolveRecord(ctx: Ctx, base: string | undefined, ours: string, theirs: string): string[] {
  if (ours === theirs || theirs === base) return [ours];
  if (ours === base) return [theirs];
  const o = ctx.g.record(ours);
  const t = ctx.g.record(theirs);
  if (!o || !t || normalizeStatement(o.text) === normalizeStatement(t.text)) return [mergeFields(ctx, base, ours, theirs)];
  return pairInReview(ctx, ours, ctx.g.withId(theirs, freshId(ctx, t.id, theirs)), 'same record edited on two devices');
}

function union(ctx: Ctx, base: string[], ours: string[], theirs: string[], key: (l: string) => string): string[] {
  const b = new Map(base.map((l) => [key(l), l]));
  const oKeys = new Map(ours.map((l, i) => [key(l), i]));
  const tKeys = new Set(theirs.map(key));
  const out = ours.filter((l) => !(b.has(key(l)) && !tKeys.has(key(l)) && b.get(key(l)) === l));
  const arriving: string[] = [];
  for (const l of theirs) {
    const k = key(l);
    const at = oKeys.get(k);
    if (at !== undefined) {
      const mine = ours[at] ?? l;
      if (mine !== l) out.splice(out.indexOf(mine), 1, ...resolveRecord(ctx, b.get(k), mine, l));
    } else if (!(b.has(k) && b.get(k) === l)) arriving.push(l);
  }
  if (arriving.some((l) => l.trim() && !ctx.g.record(l)) && ours.some((l) => l.trim() && !ctx.g.record(l) && !b.has(key(l))))
    ctx.notes.push(`${ctx.path}: both devices changed the same text; both versions were kept, one after the other`);
  let at = out.length;
  while (at > 0 && !out[at - 1]?.trim()) at--;
  if (at < out.length) while (arriving.length && !arriving[arriving.length - 1]?.trim()) arriving.pop();
  out.splice(at, 0, ...arriving);
  return out;
}

/** Records added on both devices (each on one side only) that disagree about the same attribute: into review. */
function contradictions(ctx: Ctx, lines: string[], base: ReadonlySet<string>, ours: ReadonlySet<string>, theirs: ReadonlySet<string>): void {
  const added = (side: ReadonlySet<string>, other: ReadonlySet<string>) =>
    lines.flatMap((l, i) => {
      const r = ctx.g.record(l);
      return r && r.open && side.has(r.id) && !other.has(r.id) && !base.has(r.id) ? [{ i, r, attr: attributeOf(r.text, r.about) }] : [];
    });
  const mine = added(ours, theirs).filter((x) => x.attr);
  const paired = new Set<number>();
  for (const t of added(theirs, ours)) {
    const o = mine.find((x) => x.attr === t.attr && !paired.has(x.i) && normalizeStatement(x.r.text) !== normalizeStatement(t.r.text));
    if (!o || paired.has(t.i)) continue;
    paired.add(o.i).add(t.i);
    [lines[o.i], lines[t.i]] = pairInReview(ctx, lines[o.i] ?? '', lines[t.i] ?? '', 'contradicting records from two devices');
  }
}

/** The page merged from its common version (`base`, '' when both devices made it) and the two devices' versions. */
export function mergePage(path: string, base: string, ours: string, theirs: string, g: MemoryGrammar): PageMerge {
  const ctx: Ctx = { path, g, review: [], notes: [], ids: new Set() };
  if (ours === theirs || theirs === base) return { text: ours, review: [], notes: [] };
  if (ours === base) return { text: theirs, review: [], notes: [] };
  const [b, o, t] = [base, ours, theirs].map((text) => g.frontMatter(text)) as [PageLines, PageLines, PageLines];
  const idsOf = (lines: string[]) => new Set(lines.flatMap((l) => g.record(l)?.id ?? []));
  const [bi, oi, ti] = [idsOf(b.body), idsOf(o.body), idsOf(t.body)];
  for (const id of [...bi, ...oi, ...ti]) ctx.ids.add(id);
  const key = (l: string) => {
    const id = g.record(l)?.id;
    return id ? `\u0000${id}` : `\u0001${l}`;
  };
  const body: string[] = [];
  for (const c of diff3(b.body, o.body, t.body, key, (x, y) => x === y)) {
    if (c.kind === 'ok') body.push(...c.tokens);
    else if (c.kind === 'stable') body.push(...(g.record(c.ours) ? resolveRecord(ctx, c.base, c.ours, c.theirs) : [c.ours]));
    else body.push(...union(ctx, c.base, c.ours, c.theirs, key));
  }
  contradictions(ctx, body, bi, oi, ti);
  const fm = o.fm ?? t.fm;
  const head = fm ? ['---', ...(o.fm && t.fm ? mergeFrontMatter(path, b.fm ?? [], o.fm, t.fm, ctx.notes) : fm), '---'] : [];
  return { text: [...head, ...body].join('\n'), review: ctx.review, notes: ctx.notes };
}
