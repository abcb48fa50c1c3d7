/** "Sarah works at Acme", later "Sarah joined Globex": both in review, review.md lists them, keep new supersedes Acme. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, type GraphWrite } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FixedClock } from '../support/fakes.js';
import { retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';

let fx: RetrievalFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const said = (text: string, day: string, n: number): GraphWrite => ({
  origin: 'distillation',
  links: [],
  entities: [{ name: 'Sarah Chen', category: 'People/Professional', create: true, facts: [{ text, type: 'identity', said: day, source: `https://discord.com/channels/1/2/${n}` }] }],
});

describe('contradictions go into review', () => {
  it('marks both, lists the pair in review.md, and keep new leaves Acme superseded with a date and out of recall', async () => {
    fx = retrievalFixture();
    const clock = new FixedClock(new Date('2026-06-01T10:00:00Z'));
    const wiki = new Wiki({ projectsDir: fx.projectsDir, clock, logger: silentLogger });
    await wiki.write('p', said('Works at Acme.', '2026-06-01', 1));
    const path = join(fx.projectsDir, 'p', 'notes', 'People', 'Professional', 'Sarah-Chen.md');
    const reviewMd = join(fx.projectsDir, 'p', 'review.md');
    expect(await readFile(path, 'utf8')).not.toContain('[status::');
    await expect(readFile(reviewMd, 'utf8')).rejects.toThrow();

    clock.advance(30 * 86_400_000);
    await wiki.write('p', said('Joined Globex as head of design.', '2026-07-01', 2));
    const inReview = await readFile(path, 'utf8');
    const acme = inReview.split('\n').find((l) => l.includes('Acme')) ?? '';
    const globex = inReview.split('\n').find((l) => l.includes('Globex')) ?? '';
    const idOf = (l: string) => /\^(r-[0-9a-f]+)$/.exec(l)?.[1] ?? '';
    expect(acme).toContain('[status:: review]');
    expect(globex).toContain('[status:: review]');
    expect(acme).toContain(`[vs:: ^${idOf(globex)}]`);
    expect(globex).toContain(`[vs:: ^${idOf(acme)}]`);
    const pairs = await wiki.reviewList('p');
    expect(pairs.map((p) => [p.old.statement, p.new.statement])).toEqual([['Works at Acme.', 'Joined Globex as head of design.']]);
    const listed = await readFile(reviewMd, 'utf8');
    expect(listed).toContain(`[[notes/People/Professional/Sarah-Chen#^${idOf(acme)}|Works at Acme.]]`);
    expect(listed).toContain(`#^${idOf(globex)}|Joined Globex as head of design.]]`);

    const recall = fx.open(undefined, undefined, clock);
    const before = await recall.recall.recall('where does Sarah work Acme', { project: 'p', limit: 5 });
    expect(before.some((h) => h.text.includes('Works at Acme.'))).toBe(true);
    expect(before.find((h) => h.text.includes('Acme'))?.why).toContain('review');

    clock.advance(86_400_000);
    expect(await wiki.review('p', idOf(globex), 'keep-new')).toBe(true);
    const resolved = await readFile(path, 'utf8');
    const acmeAfter = resolved.split('\n').find((l) => l.includes('Acme')) ?? '';
    const globexAfter = resolved.split('\n').find((l) => l.includes('Globex')) ?? '';
    expect(acmeAfter).toContain('[status:: superseded]');
    expect(acmeAfter).toContain('[superseded:: 2026-07-02]');
    expect(globexAfter).not.toContain('[status::');
    expect(globexAfter).not.toContain('[vs::');
    expect(await wiki.reviewList('p')).toEqual([]);
    expect(await readFile(reviewMd, 'utf8')).toContain('Nothing is in review.');
    const after = await recall.recall.recall('where does Sarah work Acme', { project: 'p', limit: 5 });
    expect(after.some((h) => h.text.includes('Works at Acme.'))).toBe(false);
    expect(after.some((h) => h.text.includes('Globex'))).toBe(true);

    // hold: out of recall while the person decides
    expect(await wiki.review('p', idOf(globex), 'hold')).toBe(true);
    const held = await recall.recall.recall('Sarah Globex head of design', { project: 'p', limit: 5 });
    expect(held.some((h) => h.text.includes('Globex'))).toBe(false);
    expect(await wiki.review('p', 'r-nothere', 'keep-new')).toBe(false);
  });

  it('a fact about another attribute, or a restatement, is no contradiction', async () => {
    fx = retrievalFixture();
    const clock = new FixedClock(new Date('2026-06-01T10:00:00Z'));
    const wiki = new Wiki({ projectsDir: fx.projectsDir, clock, logger: silentLogger });
    await wiki.write('p', said('Works at Acme.', '2026-06-01', 1));
    await wiki.write('p', said('Lives in Lisbon.', '2026-06-02', 2));
    await wiki.write('p', said('Works at Acme.', '2026-06-03', 3));
    const text = await readFile(join(fx.projectsDir, 'p', 'notes', 'People', 'Professional', 'Sarah-Chen.md'), 'utf8');
    expect(text).not.toContain('[status::');
    expect(await wiki.reviewList('p')).toEqual([]);
  });
});
