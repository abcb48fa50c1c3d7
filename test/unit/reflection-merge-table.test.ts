/**
 * The merge table (test/fixtures/reflection/merge-table.json): pairs of statements on one
 * person's page that state different facts (antonyms, role swaps, names, units, comparatives,
 * tenses, numbers, dates, negations) and must never merge, and true duplicates (rephrasings,
 * case, punctuation, an identity said either way round, justified synonyms) that must. Each
 * pair is judged in both modes:
 *   - plain code: reflection's own duplicate finder, no model;
 *   - a scripted memory model that proposes every pair as a merge: its proposal is validated,
 *     planned, applied to a real page and judged by the page guard, which has the last word.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../../src/core/ports/index.js';
import { planChanges, proposeWithModel, type ReflectionPage } from '../../src/core/reflection/reflect.js';
import { sameFact } from '../../src/core/reflection/fact-difference.js';
import { renderFact } from '../../src/memory/markdown/lines.js';
import { readPage } from '../../src/memory/graph/page.js';
import { applyChange } from '../../src/memory/reflect/apply-change.js';
import { guardRewrite } from '../../src/memory/reflect/guard.js';
import { ScriptedChatModel } from '../support/fakes.js';
import { reflectionRecord } from '../support/memory-fakes.js';

const pair = z.object({ a: z.string(), b: z.string(), kind: z.string() });
const TABLE = z
  .object({ subject: z.string(), different: z.array(pair), same: z.array(pair) })
  .parse(JSON.parse(readFileSync(new URL('../fixtures/reflection/merge-table.json', import.meta.url), 'utf8')));
const PAGE = `People/${TABLE.subject}.md`;

function page(a: string, b: string): ReflectionPage {
  const rec = (id: string, statement: string) => reflectionRecord(id, PAGE, statement, { category: 'identity' });
  return { path: PAGE, title: TABLE.subject, records: [rec('r-a', a), rec('r-b', b)] };
}

/** Whether plain code, with no model, merges the pair. */
function plainMerges(a: string, b: string): boolean {
  return planChanges([page(a, b)], { duplicates: [], rules: [], contradictions: [] }).some((c) => c.merges.length > 0);
}

/** The page as Markdown, with real block ids, and the merge of its second record into its first applied and judged by the guard. */
function guardAllows(a: string, b: string): boolean {
  const lines = [a, b].map((text, i) => renderFact(PAGE, { text, type: 'identity', said: `2026-06-0${String(i + 1)}`, source: `https://discord.com/channels/1/2/${String(i + 1)}` }));
  const content = `---\ntitle: ${TABLE.subject}\n---\n\n## Facts\n${lines.join('\n')}\n`;
  const read = readPage(content, PAGE, PAGE);
  if (!read.ok) throw new Error(`the page does not read: ${a} / ${b}`);
  const [keep = '', drop = ''] = read.page.facts.map((f) => f.blockId ?? '');
  const applied = applyChange(PAGE, content, read.page, { page: PAGE, merges: [{ keep, drop: [drop] }], rules: [], expire: [], settle: [], review: [] }, '2026-06-10', () => undefined);
  return applied.counts.merged === 1 && guardRewrite(PAGE, content, applied.content).ok;
}

/** Whether a model that proposes the pair as a merge gets it through: validated, planned, then past the guard. */
async function modelMerges(a: string, b: string): Promise<boolean> {
  const model = new ScriptedChatModel(() => ({ text: JSON.stringify({ duplicates: [{ ids: ['r-a', 'r-b'] }], rules: [], contradictions: [] }) }));
  const pages = [page(a, b)];
  const proposals = await proposeWithModel(model, pages, silentLogger);
  const planned = planChanges(pages, proposals).some((c) => c.merges.length > 0);
  return planned && guardAllows(a, b);
}

describe('the merge table', () => {
  it('has at least 100 different-fact pairs and 50 true duplicates, none twice', () => {
    expect(TABLE.different.length).toBeGreaterThanOrEqual(100);
    expect(TABLE.same.length).toBeGreaterThanOrEqual(50);
    const keys = [...TABLE.different, ...TABLE.same].map((p) => `${p.a}|${p.b}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('plain code: no wrong merge, every true duplicate merged', () => {
    const wrong = TABLE.different.filter((p) => plainMerges(p.a, p.b) || plainMerges(p.b, p.a));
    const missed = TABLE.same.filter((p) => !(plainMerges(p.a, p.b) && plainMerges(p.b, p.a)));
    console.info(
      `plain code: ${String(wrong.length)} wrong merges of ${String(TABLE.different.length)}; ${String(TABLE.same.length - missed.length)} of ${String(TABLE.same.length)} duplicates merged`,
    );
    expect(wrong.map((p) => `${p.kind}: ${p.a} / ${p.b}`)).toEqual([]);
    expect(missed.map((p) => `${p.kind}: ${p.a} / ${p.b}`)).toEqual([]);
  });

  it('a model proposing every pair as a merge: no wrong merge gets through, every true duplicate merged', async () => {
    const wrong = [];
    const missed = [];
    for (const p of TABLE.different) if ((await modelMerges(p.a, p.b)) || (await modelMerges(p.b, p.a))) wrong.push(p);
    for (const p of TABLE.same) if (!((await modelMerges(p.a, p.b)) && (await modelMerges(p.b, p.a)))) missed.push(p);
    console.info(
      `model proposing every merge: ${String(wrong.length)} wrong merges of ${String(TABLE.different.length)}; ${String(TABLE.same.length - missed.length)} of ${String(TABLE.same.length)} duplicates merged`,
    );
    expect(wrong.map((p) => `${p.kind}: ${p.a} / ${p.b}`)).toEqual([]);
    expect(missed.map((p) => `${p.kind}: ${p.a} / ${p.b}`)).toEqual([]);
  });

  it('the guard alone (whatever proposed the rewrite) refuses every different pair', () => {
    const wrong = TABLE.different.filter((p) => guardAllows(p.a, p.b) || guardAllows(p.b, p.a));
    console.info(`the guard alone: ${String(wrong.length)} wrong merges of ${String(TABLE.different.length)}`);
    expect(wrong.map((p) => `${p.kind}: ${p.a} / ${p.b}`)).toEqual([]);
  });

  it('generated from the table: every statement is one fact with itself re-punctuated, and no different pair merges once both are lower-cased', () => {
    const context = { subject: TABLE.subject };
    const statements = [...TABLE.different, ...TABLE.same].flatMap((p) => [p.a, p.b]);
    const punctuated = (text: string) => `${text.replace(/[.!]+$/, '')}!`;
    expect(statements.filter((text) => !sameFact(text, punctuated(text), context))).toEqual([]);
    const lower = TABLE.different.filter((p) => sameFact(p.a.toLowerCase(), p.b.toLowerCase(), context) || sameFact(p.a, p.b.toLowerCase(), context));
    expect(lower.map((p) => `${p.kind}: ${p.a} / ${p.b}`)).toEqual([]);
  });
});
