/**
 * Reflection must never corrupt a fact: a table of near-miss pairs (they differ in a number, a
 * date, a name or a negation) that must not merge — by the plain-code finder, by a model
 * proposal, or past the guard — and of true duplicates that must. Plus property tests over
 * generated statements.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReflection, planChanges, type ReflectionRecord } from '../../src/core/reflection/reflect.js';
import { renderFact } from '../../src/memory/markdown/lines.js';
import { factDifference, sameFact } from '../../src/core/reflection/fact-difference.js';
import { readPage } from '../../src/memory/graph/page.js';
import { applyChange } from '../../src/memory/reflect/apply-change.js';
import { guardRewrite } from '../../src/memory/reflect/guard.js';
import { reflectionRecord } from '../support/memory-fakes.js';

const NEAR_MISSES: [string, string][] = [
  ['Has 3 cats.', 'Has 2 cats.'],
  ['Daughter is 9 years old.', 'Daughter is 7 years old.'],
  ['Is allergic to peanuts.', 'Is not allergic to peanuts.'],
  ['Is allergic to peanuts.', "Isn't allergic to peanuts."],
  ['Has three cats.', 'Has two cats.'],
  ['Has 3 cats.', 'Has two cats.'],
  ['Eats meat.', 'Never eats meat.'],
  ['Eats meat.', 'No longer eats meat.'],
  ['Drinks coffee.', 'Drinks coffee no more than once a day.'],
  ['Works at Acme.', 'Works at Globex.'],
  ['Lives in Lisbon.', 'Lives in Porto.'],
  ['Is married to Tom.', 'Is married to Tim.'],
  ['Anna works at the design studio in Lisbon on the waterfront.', 'Maria works at the design studio in Lisbon on the waterfront.'],
  ['Has a meeting on Friday.', 'Has a meeting on Monday.'],
  ['Moved to Berlin in May.', 'Moved to Berlin in June.'],
  ['Was born on 2019-04-12.', 'Was born on 2019-04-21.'],
  ['Birthday is 12 March.', 'Birthday is 21 March.'],
  ['Gym at 7:30 on weekdays.', 'Gym at 6:30 on weekdays.'],
  ['Runs 5 km every morning.', 'Runs 10 km every morning.'],
  ['Rent is 1,200 a month.', 'Rent is 1,500 a month.'],
  ['Is 1st in the queue.', 'Is 2nd in the queue.'],
  ['Plays tennis on Tuesdays.', 'Plays tennis on Thursdays.'],
  ['Visits mum at Christmas.', 'Visits mum at Easter.'],
  ['Likes tea.', 'Likes coffee.'],
  ['Is allergic to peanuts and tree nuts since childhood days.', 'Is allergic to shellfish and tree nuts since childhood days.'],
  ['Has 2 kids.', 'Has 2 kids and 1 dog.'],
  ['Speaks French.', 'Speaks French and German.'],
  ['The flight leaves tomorrow.', 'The flight leaves today.'],
  ['Can drive.', 'Cannot drive.'],
  ['Son Leo is 4.', 'Son Leo is 5.'],
];

const DUPLICATES: [string, string][] = [
  ['Has 3 cats.', 'Has three cats.'],
  ['Has 3 cats.', 'has 3 cats'],
  ['Leads the design team at Acme.', 'Sarah leads the design team at Acme.'],
  ['Is a vegetarian.', 'Is vegetarian.'],
  ['Loves hiking in the mountains.', 'Loves hiking in mountains.'],
  ['Daughter is 9 years old.', 'Daughter is 9 years old'],
  ['Is not allergic to peanuts.', 'Is not allergic to peanuts!'],
  ['Has a meeting on Friday.', 'Has a meeting on Fridays.'],
  ['Moved to Berlin in May 2024.', 'In May 2024 she moved to Berlin.'],
  ['Likes cats.', 'Likes cat.'],
  ["Sarah's favourite colour is green.", 'Favourite colour is green.'],
  ['Plays the guitar.', 'Plays guitar.'],
];

/** The page is Sarah's: a statement without a subject is about her. */
const sameStatement = (a: string, b: string) => sameFact(a, b, { subject: 'Sarah' });
const rec = (id: string, statement: string): ReflectionRecord => reflectionRecord(id, 'People/Sarah.md', statement, { category: 'identity' });

const PAGE = 'People/Sarah.md';
function pageOf(a: string, b: string) {
  const lines = [a, b].map((text, i) => renderFact(PAGE, { text, type: 'identity', said: `2026-06-0${String(i + 1)}`, source: `https://discord.com/channels/1/2/${String(i + 1)}` }));
  const content = `---\ntitle: Sarah\n---\n\n## Facts\n${lines.join('\n')}\n`;
  const read = readPage(content, PAGE, PAGE);
  if (!read.ok) throw new Error('page does not read');
  const ids = read.page.facts.map((f) => f.blockId ?? '');
  return { content, page: read.page, ids };
}

/** A merge of the second record into the first, applied as reflection would, then judged by the guard. */
function guardedMerge(a: string, b: string) {
  const { content, page, ids } = pageOf(a, b);
  const [keep = '', drop = ''] = ids;
  const change = { page: PAGE, merges: [{ keep, drop: [drop] }], rules: [], expire: [], settle: [], review: [] };
  const applied = applyChange(PAGE, content, page, change, '2026-06-10', () => undefined);
  expect(applied.counts.merged).toBe(1);
  return guardRewrite(PAGE, content, applied.content);
}

describe('reflection never merges facts that differ', () => {
  it.each(NEAR_MISSES)('"%s" and "%s" stay apart', (a, b) => {
    expect(sameStatement(a, b)).toBe(false);
    expect(sameStatement(b, a)).toBe(false);
    // the plain-code finder plans nothing
    expect(planChanges([{ path: PAGE, title: 'Sarah', records: [rec('r-a', a), rec('r-b', b)] }], { duplicates: [], rules: [], contradictions: [] })).toEqual([]);
  });

  it('prints 0 wrong merges over the near-miss table, and every true duplicate merges', () => {
    const wrong = NEAR_MISSES.filter(([a, b]) => sameStatement(a, b) || sameStatement(b, a));
    const missed = DUPLICATES.filter(([a, b]) => !(sameStatement(a, b) && sameStatement(b, a)));
    console.info(
      `near-miss pairs: ${String(NEAR_MISSES.length)}, wrong merges: ${String(wrong.length)}; true duplicates: ${String(DUPLICATES.length)}, merged: ${String(DUPLICATES.length - missed.length)}`,
    );
    expect(wrong).toEqual([]);
    expect(missed).toEqual([]);
  });

  it.each(NEAR_MISSES.filter(([a, b]) => factDifference(a, b) !== null))('a model proposing "%s" = "%s" is dropped, and the guard refuses the merge', (a, b) => {
    const records = new Map([rec('r-a', a), rec('r-b', b)].map((r) => [r.id, r]));
    const out = parseReflection(JSON.stringify({ duplicates: [{ ids: ['r-a', 'r-b'] }], rules: [], contradictions: [] }), records);
    expect(out.duplicates).toEqual([]);
    expect(out.dropped[0]).toMatch(/differ in/);
    expect(guardedMerge(a, b)).toMatchObject({ ok: false, reason: expect.stringMatching(/though they differ/) as string });
  });

  it.each(DUPLICATES)('"%s" and "%s" merge, and the guard lets the merge through', (a, b) => {
    const plan = planChanges([{ path: PAGE, title: 'Sarah', records: [rec('r-a', a), rec('r-b', b)] }], { duplicates: [], rules: [], contradictions: [] });
    expect(plan[0]?.merges).toEqual([{ keep: 'r-a', drop: ['r-b'] }]);
    expect(guardedMerge(a, b)).toEqual({ ok: true });
  });

  it('the guard refuses a rewrite that changes a kept record’s number', () => {
    const { content } = pageOf('Has 3 cats.', 'Likes tea.');
    expect(guardRewrite(PAGE, content, content.replace('Has 3 cats.', 'Has 2 cats.'))).toMatchObject({ ok: false, reason: expect.stringContaining('numbers 3 vs 2') as string });
  });
});

const WORDS = ['cats', 'dogs', 'kids', 'books', 'bikes', 'plants', 'years', 'km', 'days'];
const VERBS = ['Has', 'Owns', 'Keeps', 'Walks', 'Reads', 'Wants'];
const NAMES = ['Acme', 'Globex', 'Lisbon', 'Porto', 'Tom', 'Ann', 'Zed', 'Maria'];

describe('properties', () => {
  it('two statements that differ only in a number never merge', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VERBS), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(...WORDS), (verb, x, y, noun) => {
        fc.pre(x !== y);
        return !sameStatement(`${verb} ${String(x)} ${noun}.`, `${verb} ${String(y)} ${noun}.`);
      }),
    );
  });

  it('two statements that differ only in a name, or in a "not", never merge', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VERBS), fc.constantFrom(...NAMES), fc.constantFrom(...NAMES), fc.constantFrom(...WORDS), (verb, x, y, noun) => {
        fc.pre(x !== y);
        const a = `${verb} ${noun} with ${x}.`;
        return !sameStatement(a, `${verb} ${noun} with ${y}.`) && !sameStatement(a, `Does not ${verb.toLowerCase()} ${noun} with ${x}.`);
      }),
    );
  });

  it('two dates that differ never merge, and a statement always merges with itself re-cased and re-punctuated', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true }),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true }),
        (d1, d2) => {
          const a = d1.toISOString().slice(0, 10);
          const b = d2.toISOString().slice(0, 10);
          fc.pre(a !== b);
          return !sameStatement(`Moved to Porto on ${a}.`, `Moved to Porto on ${b}.`) && sameStatement(`Moved to Porto on ${a}.`, `moved to Porto on ${a}!`);
        },
      ),
    );
  });
});
