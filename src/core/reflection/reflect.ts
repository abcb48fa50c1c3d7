/**
 * Reflection, the memory lane's curating job (plain functions over ports): it reads the records
 * of the recently touched pages and plans, per page,
 *   - merges of duplicate records (plain code finds the obvious ones, the memory model may
 *     propose more): the record written first stays, with every source of the others and the
 *     newest `said` of them all (a duplicate is a restatement, and decay counts from the last
 *     time a fact was said);
 *   - rules the memory model distils from recurring records, each citing ≥ 2 existing records;
 *   - expiry of past commitments and settling of old episodes (plain code, from decay);
 *   - contradictions the model notices, proposed into review (never resolved here).
 * The model's JSON is validated item by item; invalid items are logged and dropped. The pages
 * port applies a plan behind the guard (src/memory/reflect/guard.ts) and keeps the previous
 * version of every page it changes.
 */
import { z } from 'zod';
import { validItems } from '../writing/reply-items.js';
import type { JsonSchema, LocalChatModel, Logger, Sensitivity } from '../ports/index.js';
import { parseToolArguments } from '../turn/tool-args.js';
import { factDifference, sameFact } from './fact-difference.js';
import { bareId, isBlockRecordId } from '../records/line-syntax.js';

export interface ReflectionRecord {
  id: string;
  /** Relative to notes/. */
  page: string;
  statement: string;
  /** identity, preference, commitment, episode, relationship, rule, or '' when unknown. */
  category: string;
  said: string;
  due: string;
  happened: string;
  status: 'active' | 'review' | 'held' | 'superseded';
  /** From decay, as read now. */
  state: 'fresh' | 'fading' | 'old' | 'expired';
  /** A person wrote or changed it: reflection leaves it alone. */
  manual: boolean;
  /** An earlier reflection already marked it expired or settled. */
  marked: boolean;
  sensitivity: Sensitivity;
}

export interface ReflectionPage {
  path: string;
  title: string;
  records: ReflectionRecord[];
}

/** What reflection wants done to one page; the pages port applies it behind the guard. */
export interface PageChange {
  page: string;
  /** `keep` stays (with the sources of `drop` and the newest `said`); the records in `drop` leave the page. */
  merges: { keep: string; drop: string[] }[];
  rules: { text: string; from: string[] }[];
  expire: string[];
  settle: string[];
  review: { a: string; b: string; why: string }[];
}

export const REFLECT_JSON_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    duplicates: { type: 'array', maxItems: 20, items: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } } }, required: ['ids'] } },
    rules: {
      type: 'array',
      maxItems: 10,
      items: { type: 'object', properties: { text: { type: 'string', maxLength: 300 }, from: { type: 'array', items: { type: 'string' } } }, required: ['text', 'from'] },
    },
    contradictions: {
      type: 'array',
      maxItems: 10,
      items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' }, why: { type: 'string' } }, required: ['a', 'b'] },
    },
  },
  required: ['duplicates', 'rules', 'contradictions'],
};

const id = z.string().trim().transform(bareId).pipe(z.string().refine(isBlockRecordId));
const duplicateItem = z.object({ ids: z.array(id).min(2).max(20) });
const ruleItem = z.object({ text: z.string().trim().min(3).max(300), from: z.array(id).max(20) });
const contradictionItem = z.object({ a: id, b: id, why: z.string().max(300).optional().catch(undefined) });

function recordLine(r: ReflectionRecord): string {
  const dates = [r.said && `said ${r.said}`, r.due && `due ${r.due}`, r.happened && `happened ${r.happened}`].filter(Boolean).join(', ');
  return `${r.id} | ${r.page} | ${r.category || '?'} | ${dates} | ${r.statement}`;
}

export function reflectPrompt(pages: readonly ReflectionPage[]) {
  const lines = pages.flatMap((p) => p.records.filter((r) => r.id && r.status !== 'superseded').map(recordLine));
  return [
    {
      role: 'system' as const,
      content:
        'You curate a personal memory of typed records (id | page | category | dates | statement). Reply with JSON only: ' +
        '{"duplicates":[{"ids":["r-…","r-…"]}],"rules":[{"text":"…","from":["r-…","r-…"]}],"contradictions":[{"a":"r-…","b":"r-…","why":"…"}]}. ' +
        'duplicates: records on the same page that state the same fact. rules: a general rule that several records show (e.g. "Tickets prefixed TBC- are infrastructure work at TBC Corp"), ' +
        'citing at least two of the ids it comes from; only when the pattern recurs. contradictions: two records on the same page that cannot both be true. ' +
        'Use only ids from the list. Empty lists are fine.',
    },
    { role: 'user' as const, content: `Records:\n${lines.join('\n')}` },
  ];
}

export interface ModelProposals {
  duplicates: string[][];
  rules: { text: string; from: string[] }[];
  contradictions: { a: string; b: string; why: string }[];
  /** Items dropped, each with why (logged). */
  dropped: string[];
}

/**
 * The model's reply, validated item by item against the records it was shown: ids must exist,
 * a merge stays on one page and one category and never joins statements that state different
 * facts (reflection/fact-difference.ts: the proposal is untrusted, the comparer is final), a rule cites ≥ 2 existing records, a
 * contradiction pairs two open records of one page; none may involve a hand-edited or held record.
 */
export function parseReflection(raw: string, records: ReadonlyMap<string, ReflectionRecord>, titles: ReadonlyMap<string, string> = new Map()): ModelProposals {
  const out: ModelProposals = { duplicates: [], rules: [], contradictions: [], dropped: [] };
  const parsed = parseToolArguments(raw);
  if (!parsed.ok) {
    out.dropped.push(`reply: not JSON (${raw.length} characters)`);
    return out;
  }
  const value = parsed.value as Record<string, unknown>;
  const open = (rid: string) => {
    const r = records.get(rid);
    return r && !r.manual && r.status === 'active' ? r : undefined;
  };
  validItems(value.duplicates, duplicateItem, 'duplicates', out.dropped).forEach((d, i) => {
    const ids = [...new Set(d.ids)];
    const rs = ids.map(open);
    const first = rs[0];
    if (ids.length < 2 || !first || rs.some((r) => !r || r.page !== first.page || r.category !== first.category)) {
      out.dropped.push(`duplicates[${i}]: needs ≥ 2 open records (not hand-edited or held) of one page and one category`);
      return;
    }
    const subject = titles.get(first.page);
    const differs = rs.map((r) => r && factDifference(first.statement, r.statement, subject ? { subject } : {})).find((d) => d);
    if (differs) out.dropped.push(`duplicates[${i}]: the records differ in ${differs}, so they are not one fact`);
    else out.duplicates.push(ids);
  });
  validItems(value.rules, ruleItem, 'rules', out.dropped).forEach((r, i) => {
    const from = [...new Set(r.from)].filter((rid) => records.has(rid));
    if (from.length < 2) out.dropped.push(`rules[${i}]: a rule must cite at least two existing records`);
    else out.rules.push({ text: r.text, from });
  });
  validItems(value.contradictions, contradictionItem, 'contradictions', out.dropped).forEach((c, i) => {
    const a = open(c.a);
    const b = open(c.b);
    if (!a || !b || a.id === b.id || a.page !== b.page) out.dropped.push(`contradictions[${i}]: needs two open records (not hand-edited or held) of one page`);
    else out.contradictions.push({ a: a.id, b: b.id, why: c.why ?? '' });
  });
  return out;
}

/** Groups of ids that belong together (pairs joined transitively), in first-seen order. */
function groups(pairs: readonly string[][]): string[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const root = find(p);
    parent.set(x, root);
    return root;
  };
  for (const g of pairs) for (const x of g.slice(1)) parent.set(find(x), find(g[0] ?? x));
  const out = new Map<string, string[]>();
  for (const x of pairs.flat()) {
    const root = find(x);
    const list = out.get(root) ?? [];
    if (!list.includes(x)) list.push(x);
    out.set(root, list);
  }
  return [...out.values()];
}

/** The changes for each page, from plain code and the model's validated proposals. */
export function planChanges(pages: readonly ReflectionPage[], proposals: Omit<ModelProposals, 'dropped'>): PageChange[] {
  const byId = new Map(pages.flatMap((p) => p.records.filter((r) => r.id).map((r) => [r.id, r] as const)));
  const order = new Map(pages.flatMap((p) => p.records.map((r, i) => [r.id, i] as const)));
  const plans = new Map<string, PageChange>(pages.map((p) => [p.path, { page: p.path, merges: [], rules: [], expire: [], settle: [], review: [] }]));
  const openRecord = (r: ReflectionRecord) => r.id !== '' && !r.manual && r.status === 'active';
  const pairs: string[][] = [...proposals.duplicates];
  for (const p of pages) {
    const open = p.records.filter(openRecord);
    open.forEach((a, i) => {
      for (const b of open.slice(i + 1)) if (a.category === b.category && sameFact(a.statement, b.statement, { subject: p.title })) pairs.push([a.id, b.id]);
    });
  }
  const merged = new Set<string>();
  for (const g of groups(pairs)) {
    const rs = g.map((x) => byId.get(x)).filter((r): r is ReflectionRecord => r !== undefined);
    // the record written first (first on the page) stays, with its id; it takes the newest `said`
    rs.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const [keep, ...drop] = rs;
    if (!keep || drop.length === 0) continue;
    plans.get(keep.page)?.merges.push({ keep: keep.id, drop: drop.map((r) => r.id) });
    for (const r of rs) merged.add(r.id);
  }
  for (const p of pages) {
    const plan = plans.get(p.path);
    if (!plan) continue;
    for (const r of p.records) {
      if (!openRecord(r) || r.marked || merged.has(r.id)) continue;
      if (r.category === 'commitment' && r.state === 'expired') plan.expire.push(r.id);
      if (r.category === 'episode' && r.state === 'old') plan.settle.push(r.id);
    }
  }
  for (const rule of proposals.rules) {
    const home = byId.get(rule.from[0] ?? '');
    if (home) plans.get(home.page)?.rules.push(rule);
  }
  for (const c of proposals.contradictions) {
    const a = byId.get(c.a);
    if (a && !merged.has(c.a) && !merged.has(c.b)) plans.get(a.page)?.review.push(c);
  }
  return [...plans.values()].filter((c) => c.merges.length + c.rules.length + c.expire.length + c.settle.length + c.review.length > 0);
}

/** Asks the memory model about the pages (one call) and returns what it proposes, validated. */
export async function proposeWithModel(model: LocalChatModel, pages: readonly ReflectionPage[], logger: Logger, signal?: AbortSignal): Promise<ModelProposals> {
  const records = new Map(pages.flatMap((p) => p.records.filter((r) => r.id).map((r) => [r.id, r] as const)));
  let text = '';
  for await (const chunk of model.stream({ messages: reflectPrompt(pages), json: true, jsonSchema: REFLECT_JSON_SCHEMA, temperature: 0.1, ...(signal ? { signal } : {}) })) {
    if (chunk.type === 'text') text += chunk.text;
  }
  logger.debug({ reply: text }, 'reflection reply');
  const proposals = parseReflection(text, records, new Map(pages.map((p) => [p.path, p.title])));
  if (proposals.dropped.length) logger.warn({ dropped: proposals.dropped.slice(0, 20), count: proposals.dropped.length }, 'dropped invalid items of a reflection reply');
  return proposals;
}
