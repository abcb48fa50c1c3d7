import { describe, expect, it } from 'vitest';
import { gateWrite, takeCandidate } from '../../src/core/writing/promotion.js';
import { sensitivityOfText, stricter } from '../../src/core/privacy/sensitivity.js';
import { isChitChat, PROMOTE_AT } from '../../src/core/writing/gate-factors.js';
import type { GraphWrite, LogEntry } from '../../src/core/ports/index.js';
import { toGraphWrite } from '../../src/core/writing/graph-distill.js';
import { applyToPage, type PagePlan } from '../../src/memory/graph/graph-write.js';
import { readPage } from '../../src/memory/graph/page.js';
import { recordsOf } from '../../src/memory/records/record.js';
import { MemoryCandidates } from '../support/memory-fakes.js';

const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}`;
const entry = (n: number, text: string, role: LogEntry['role'] = 'user', speaker = 'Ann'): LogEntry => ({
  time: `${day(n)}T10:00:00.000Z`,
  speaker,
  source: `https://discord.com/channels/1/2/${n}${text.length}`,
  text,
  role,
});
const write = (entity: string, text: string, e: LogEntry, type = 'identity'): GraphWrite => ({
  origin: 'distillation',
  links: [],
  entities: [{ name: entity, create: true, facts: [{ text, type, said: e.time.slice(0, 10), source: e.source }] }],
});
const ctx = (n: number, tracked: string[] = [], _known = false) => ({ now: new Date(`${day(n)}T12:00:00Z`), tracked });

describe('the promotion gate, over a scripted week', () => {
  it('never promotes chit-chat or Charlie’s own replies; promotes "remember that" at once; a passing mention only when seen twice', async () => {
    const store = new MemoryCandidates();
    const written: GraphWrite[] = [];
    const run = async (n: number, w: GraphWrite, es: LogEntry[], tracked: string[] = [], known = false) => {
      const out = await gateWrite(w, es, ctx(n, tracked, known), store);
      written.push(out.write);
      return out;
    };
    // day 1: a greeting the model mistook for a fact
    const hi = entry(1, 'hey, good morning!');
    expect((await run(1, write('Ann', 'Says good morning.', hi), [hi])).report.rejected).toHaveLength(1);
    // day 2: Charlie's own reply
    const mine = entry(2, 'Sure — Ann likes tea.', 'assistant', 'Charlie');
    expect((await run(2, write('Ann', 'Likes tea.', mine, 'preference'), [mine])).report.rejected[0]?.why).toMatch(/own reply/);
    // a message Charlie answered: the reply is archived with the message's own source
    const asked = entry(2, 'Ann started at Globex as a designer this week.');
    const answered = await gateWrite(
      write('Ann', 'Works at Globex as a designer.', asked),
      [asked, { ...asked, speaker: 'Charlie', role: 'assistant', text: 'Congratulations to Ann!' }],
      ctx(2, ['Ann']),
      new MemoryCandidates(),
    );
    expect(answered.report.promoted.map((p) => p.text)).toEqual(['Works at Globex as a designer.']);
    // day 3: remember that …
    const rem = entry(3, 'Remember that Sarah is allergic to peanuts.');
    const r3 = await run(3, write('Sarah', 'Is allergic to peanuts.', rem, 'identity'), [rem], [], true);
    expect(r3.report.promoted).toEqual([{ entity: 'Sarah', text: 'Is allergic to peanuts.', why: 'asked to remember' }]);
    // day 4: a passing mention of someone untracked, already half-known
    const passing = entry(4, 'ugh, traffic again, anyway Bob said something about moving to Porto I think');
    const r4 = await run(4, write('Bob', 'Is moving to Porto.', passing), [passing], [], true);
    expect(r4.report.promoted).toEqual([]);
    expect(r4.report.waiting).toHaveLength(1);
    expect(r4.write.entities[0]?.facts).toEqual([]);
    expect(r4.write.entities[0]?.create).toBe(false);
    expect(store.items.map((c) => [c.entity, c.message])).toEqual([['Bob', passing.text]]);
    // day 6: in passing again, in another conversation → promoted, and it leaves the waiting list
    const again = entry(6, 'Bob and Porto came up again, I think he is moving');
    const r6 = await run(6, write('Bob', 'Is moving to Porto.', again), [again], [], true);
    expect(r6.report.promoted).toEqual([{ entity: 'Bob', text: 'Is moving to Porto.', why: 'seen again' }]);
    expect(store.items).toEqual([]);
    // day 7: thanks
    const thanks = entry(7, 'thanks!! 🙏');
    expect((await run(7, write('Ann', 'Is thankful.', thanks), [thanks])).report.promoted).toEqual([]);
    // every promoted record carries category, provenance (the exact message), confidence, sensitivity
    const facts = written.flatMap((w) => w.entities.flatMap((e) => e.facts));
    expect(facts.map((f) => f.text)).toEqual(['Is allergic to peanuts.', 'Is moving to Porto.']);
    const plan: PagePlan = { path: 'People/Sarah.md', isNew: true, title: 'Sarah', category: 'People', aliases: [], description: '', staleness: 3, facts, links: [] };
    const page = applyToPage(null, plan, day(7), () => null);
    if (!page) throw new Error('no page');
    const read = readPage(page.content, plan.path, plan.path);
    if (!read.ok) throw new Error('unreadable');
    expect(
      recordsOf(read.page).map((r) => ({ category: r.category, kind: r.provenance.kind, source: r.provenance.source, confidence: r.confidence, sensitivity: r.sensitivity, sk: r.sensitiveKind })),
    ).toEqual([
      { category: 'identity', kind: 'chat', source: rem.source, confidence: 1, sensitivity: 'sensitive', sk: 'phi' },
      { category: 'identity', kind: 'chat', source: again.source, confidence: 0.79, sensitivity: 'personal', sk: undefined },
    ]);
  });

  it('promotes a direct statement about a tracked person on the first telling, and lets an untracked one wait', async () => {
    const e = entry(5, 'She started at Globex on Monday.');
    const tracked = await gateWrite(write('Sarah', 'Started at Globex.', e), [e], ctx(5, ['Sarah Chen', 'Sarah'], true), new MemoryCandidates());
    expect(tracked.report.promoted).toHaveLength(1);
    const store = new MemoryCandidates();
    const untracked = await gateWrite(write('Sarah', 'Started at Globex.', e), [e], ctx(5, [], true), store);
    expect(untracked.report.waiting[0]?.score).toBeLessThan(PROMOTE_AT);
    expect(untracked.report.waiting[0]?.parts).toMatchObject({ identity: 0.2, salience: 1 });
    // promoted by hand from the waiting list
    const key = store.items[0]?.key ?? '';
    expect((await takeCandidate(store, key))?.fact.text).toBe('Started at Globex.');
    expect(store.items).toEqual([]);
  });

  it('forgets waiting candidates after they expire', async () => {
    const store = new MemoryCandidates();
    const e = entry(1, 'Bob mentioned Porto maybe');
    await gateWrite(write('Bob', 'Is moving to Porto.', e), [e], ctx(1, [], true), store);
    expect(store.items).toHaveLength(1);
    const later = entry(28, 'Bob and Porto again, maybe');
    const r = await gateWrite(write('Bob', 'Is moving to Porto.', later), [later], ctx(28, [], true), store);
    expect(r.report.promoted).toEqual([]);
    expect(store.items).toHaveLength(1);
  });

  it('knows chit-chat and the obvious sensitivities', () => {
    expect(['hi', 'Thanks!', 'ok cool', 'lol', 'good night 😀'].every(isChitChat)).toBe(true);
    expect(isChitChat('hi, my sister is visiting')).toBe(false);
    expect(sensitivityOfText('My bank PIN is 4412')).toBe('sensitive/credential');
    expect(sensitivityOfText('She takes medication for migraines')).toBe('sensitive/phi');
    expect(sensitivityOfText('His salary is $120k')).toBe('sensitive/financial');
    expect(sensitivityOfText('Likes long walks')).toBeUndefined();
  });

  it('takes the stricter of the rules and the memory model, and keeps the model’s dates and attribute', async () => {
    expect(stricter('sensitive/phi', 'personal')).toBe('sensitive/phi');
    expect(stricter(undefined, 'sensitive/financial')).toBe('sensitive/financial');
    expect(stricter('sensitive', 'sensitive/credential')).toBe('sensitive/credential');
    expect(stricter('public', undefined)).toBe('public');
    const e = entry(3, 'Sam will pay back the loan by Friday, and he ran a marathon in April');
    const { write: w } = toGraphWrite(
      {
        entities: [],
        facts: [
          { entity: 'Sam', text: 'Will pay back the loan.', message: 1, type: 'commitment', due: '2026-11-06', about: 'debt', sensitivity: 'personal' },
          { entity: 'Sam', text: 'Ran a marathon.', message: 1, type: 'episode', happened: 'April', sensitivity: 'sensitive/phi' },
        ],
        links: [],
      },
      [e],
      [],
      'distillation',
    );
    const facts = w.entities[0]?.facts ?? [];
    // the message says "loan" (money, by rule): every record made from it carries that, over the model's "personal"
    expect(facts.map((f) => [f.due, f.happened, f.about, f.sensitivity])).toEqual([
      ['2026-11-06', undefined, 'debt', 'sensitive/financial'],
      [undefined, undefined, undefined, 'sensitive/phi'],
    ]);
    const gated = await gateWrite(w, [e], ctx(3, ['Sam'], false), new MemoryCandidates());
    // "loan" is money by rule: stricter than the model's personal
    expect(gated.write.entities[0]?.facts.map((f) => f.sensitivity)).toEqual(['sensitive/financial', 'sensitive/phi']);
  });
});
