import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeFile, syncs } from '../../src/core/sync/merge-file.js';
import { syncGrammar as g } from '../../src/memory/graph/sync-grammar.js';
import { GENERATED_FILES } from '../../src/memory/graph/generated.js';
import { renderFact } from '../../src/memory/markdown/lines.js';
import { formatLogEntry, logFileHeading, parseLog } from '../../src/memory/archive-format.js';
import { reviewPairs } from '../../src/memory/records/review.js';
import { readPage } from '../../src/memory/graph/page.js';

function parsePage(path: string, content: string) {
  const r = readPage(content, path, path);
  if (!r.ok) throw new Error(r.problem.message);
  return r.page;
}

const PAGE = 'People/Sarah-Chen.md';
const fact = (text: string, said = '2026-06-20') => renderFact(PAGE, { text, said, source: 'manual' });
const page = (facts: string[], summary = 'Leads the design team.') =>
  ['---', 'schema: 2', 'title: Sarah Chen', 'aliases: [Sarah]', 'updated: 2026-06-20', '---', '', summary, '', '## Facts', ...facts, ''].join('\n');
const text = (m: ReturnType<typeof mergeFile>) => (m.kind === 'text' ? m.text : '');

describe('what syncs', () => {
  it('every generated file, the inbox and reflection history stay on the device; pages and the archive sync', () => {
    for (const f of GENERATED_FILES) expect(syncs(`home/${f}`, GENERATED_FILES)).toBe(false);
    for (const p of ['home/inbox/a.md', 'home/.history/People/A.md', 'home/notes/a.png']) expect(syncs(p, GENERATED_FILES)).toBe(false);
    for (const p of ['home/project.md', 'home/notes/People/A.md', 'home/log/2026-11-29.md', 'home/decisions.md', 'home/forgotten.md']) expect(syncs(p, GENERATED_FILES)).toBe(true);
  });
});

describe('page merge', () => {
  const a = fact('Prefers async updates over calls.');
  const b = fact('Drinks tea, not coffee.');
  const base = page([a]);

  it('records added on both devices are both kept, once each', () => {
    const m = mergeFile(`home/notes/${PAGE}`, base, page([a, b]), page([a, fact('Has a dog called Rex.')]), g);
    expect(text(m)).toContain(b);
    expect(text(m)).toContain('Has a dog called Rex.');
    expect(
      text(m)
        .split('\n')
        .filter((l) => l === a),
    ).toHaveLength(1);
  });

  it('the same record edited differently on two devices: both stay, in review as a pair, nothing lost', () => {
    const ours = page([a.replace('async updates', 'written updates')]);
    const theirs = page([a.replace('async updates', 'video calls')]);
    const m = mergeFile(`home/notes/${PAGE}`, base, ours, theirs, g);
    expect(m.kind === 'text' && m.review).toHaveLength(1);
    const merged = text(m);
    expect(merged).toContain('written updates');
    expect(merged).toContain('video calls');
    const pairs = reviewPairs([parsePage(PAGE, merged)]);
    expect(pairs).toHaveLength(1);
  });

  it('contradicting records added on two devices go to review', () => {
    const m = mergeFile(`home/notes/${PAGE}`, base, page([a, fact('Works at Acme.')]), page([a, fact('Works at Globex.')]), g);
    const pairs = reviewPairs([parsePage(PAGE, text(m))]);
    expect(pairs.map((p) => [p.old.statement, p.new.statement].sort())).toEqual([['Works at Acme.', 'Works at Globex.']]);
  });

  it('an edit on one device and a removal on the other keeps the edit; an untouched record removed stays removed', () => {
    const edited = a.replace('async', 'asynchronous');
    expect(text(mergeFile(`h/notes/${PAGE}`, base, page([edited]), page([]), g))).toContain(edited);
    expect(text(mergeFile(`h/notes/${PAGE}`, page([a, b]), page([a]), page([a, b, fact('New.')]), g))).not.toContain(b);
  });

  it('front matter: updated takes the later day, lists the union', () => {
    const ours = page([a, b]).replace('updated: 2026-06-20', 'updated: 2026-06-22').replace('[Sarah]', '[Sarah, S.]');
    const theirs = page([a, fact('x y z.')])
      .replace('updated: 2026-06-20', 'updated: 2026-06-25')
      .replace('[Sarah]', '[Sarah, Sally]');
    const merged = text(mergeFile(`h/notes/${PAGE}`, base, ours, theirs, g));
    expect(merged).toContain('updated: 2026-06-25');
    expect(merged).toContain('aliases: [Sarah, S., Sally]');
    expect(merged.match(/^updated:/gm)).toHaveLength(1);
  });

  it('a file deleted on one device and changed on the other is kept', () => {
    expect(mergeFile('h/notes/a.md', base, null, page([a, b]), g).kind).toBe('text');
    expect(mergeFile('h/notes/a.md', base, null, base, g).kind).toBe('deleted');
  });

  it('property: every record either device added is in the merge, each id once, and merging is idempotent', () => {
    const statements = fc.uniqueArray(fc.stringMatching(/^[A-Z][a-z]{2,8} [a-z]{2,8}\.$/), { minLength: 0, maxLength: 6 });
    fc.assert(
      fc.property(statements, statements, statements, (common, mine, yours) => {
        const bf = common.map((s) => fact(s));
        const of = [...bf, ...mine.map((s) => fact(`${s} mine`))];
        const tf = [...bf, ...yours.map((s) => fact(`${s} yours`))];
        const m = mergeFile(`h/notes/${PAGE}`, page(bf), page(of), page(tf), g);
        const merged = text(m);
        const ids = merged.split('\n').flatMap((l) => g.record(l)?.id ?? []);
        expect(new Set(ids).size).toBe(ids.length);
        for (const s of [...common, ...mine.map((x) => `${x} mine`), ...yours.map((x) => `${x} yours`)]) expect(merged).toContain(s);
        expect(text(mergeFile(`h/notes/${PAGE}`, page(of), merged, merged, g))).toBe(merged);
      }),
    );
  });
});

describe('day file merge', () => {
  const entry = (hh: string, who: string, t: string) => formatLogEntry({ time: `2026-11-29T${hh}Z`, speaker: who, role: 'user', source: 'terminal:1', text: t });
  const day = (...entries: string[]) => logFileHeading('2026-11-29.md') + entries.join('');

  it('is the union of both devices in time order, each entry once', () => {
    const base = day(entry('08:00:00', 'Ann', 'morning'));
    const ours = day(entry('08:00:00', 'Ann', 'morning'), entry('09:00:00', 'Ann', 'laptop, nine'), entry('11:00:00', 'Ann', 'laptop, eleven'));
    const theirs = day(entry('08:00:00', 'Ann', 'morning'), entry('10:00:00', 'Bob', 'server, ten'));
    const merged = text(mergeFile('h/log/2026-11-29.md', base, ours, theirs, g));
    expect(parseLog(merged, '2026-11-29').map((e) => e.text)).toEqual(['morning', 'laptop, nine', 'server, ten', 'laptop, eleven']);
    expect(text(mergeFile('h/log/2026-11-29.md', base, theirs, ours, g))).toBe(merged);
  });

  it('property: any two sets of appended entries merge to their sorted union', () => {
    const times = fc.uniqueArray(fc.integer({ min: 0, max: 86_399 }), { maxLength: 8 });
    const hms = (s: number) => new Date(s * 1000).toISOString().slice(11, 19);
    fc.assert(
      fc.property(times, times, (mine, yours) => {
        const o = day(...[...mine].sort((x, y) => x - y).map((s) => entry(hms(s), 'Ann', `a${String(s)}`)));
        const t = day(...[...yours].sort((x, y) => x - y).map((s) => entry(hms(s), 'Bob', `b${String(s)}`)));
        const got = parseLog(text(mergeFile('h/log/2026-11-29.md', day(), o, t, g)), '2026-11-29');
        expect(got).toHaveLength(mine.length + yours.length);
        expect(got.map((e) => e.time)).toEqual([...got.map((e) => e.time)].sort());
      }),
    );
  });
});
