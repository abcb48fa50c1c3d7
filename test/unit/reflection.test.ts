/** The guard, the log line format, the schedule and the validation of the model's reply, in plain code. */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReflection, planChanges } from '../../src/core/reflection/reflect.js';
import { reflectionDue, reportText } from '../../src/core/reflection/reflection.js';
import { sameFact } from '../../src/core/reflection/fact-difference.js';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { addField, renderFact } from '../../src/memory/markdown/lines.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { isIndexedPage } from '../../src/memory/index/page-files.js';
import { formatLogLine } from '../../src/memory/notes/note-index.js';
import { mergeEvent, parseRecordEvents, recordLogLine, ruleEvent } from '../../src/memory/records/history.js';
import { guardRewrite } from '../../src/memory/reflect/guard.js';
import { PageHistory, pageName } from '../../src/memory/reflect/history.js';
import { reflectionRecord } from '../support/memory-fakes.js';

const PAGE = 'People/Sarah.md';
const fact = (text: string, n: number, extra: Record<string, string> = {}) =>
  renderFact(PAGE, { text, type: 'preference', said: '2026-06-0' + String(n), source: `https://discord.com/channels/1/2/${n}`, ...extra });
const page = (...facts: string[]) => `---\ntitle: Sarah\n---\n\n## Facts\n${facts.join('\n')}\n`;

describe('the reflection guard', () => {
  const four = [fact('Likes tea.', 1), fact('Likes trains.', 2), fact('Likes jazz.', 3), fact('Likes rain.', 4)];

  it('lets a rewrite drop a quarter of the records (or one), not more', () => {
    expect(guardRewrite(PAGE, page(...four), page(four[0] ?? '', four[1] ?? '', addField(four[2] ?? '', 'source', '[msg](https://discord.com/channels/1/2/4)')))).toEqual({ ok: true });
    // a page of two: one may be folded into the other (half the page, but a single record)
    expect(guardRewrite(PAGE, page(four[0] ?? '', four[1] ?? ''), page(addField(four[0] ?? '', 'source', '[msg](https://discord.com/channels/1/2/2)')))).toEqual({ ok: true });
    const verdict = guardRewrite(
      PAGE,
      page(...four),
      page(four[0] ?? '', addField(addField(four[1] ?? '', 'source', '[msg](https://discord.com/channels/1/2/3)'), 'source', '[msg](https://discord.com/channels/1/2/4)')),
    );
    expect(verdict).toEqual({ ok: false, reason: 'it would drop 2 of 4 records (more than 25 %)' });
  });

  it('refuses to lose a source', () => {
    const verdict = guardRewrite(PAGE, page(...four), page(four[0] ?? '', four[1] ?? '', four[2] ?? ''));
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toContain('lose 1 source(s), e.g. https://discord.com/channels/1/2/4');
  });

  it('refuses to touch a hand-edited or a held record, and accepts leaving them as they are', () => {
    const manual = fact('Likes coffee.', 5).replace('Likes coffee.', 'Likes strong coffee.');
    const held = fact('Likes cats.', 6, { status: 'held' });
    const before = page(...four, manual, held);
    expect(guardRewrite(PAGE, before, before.replace('Likes strong coffee.', 'Likes very strong coffee.')).ok).toBe(false);
    expect(guardRewrite(PAGE, before, before.replace('[status:: held]', '[status:: review]'))).toMatchObject({ ok: false, reason: expect.stringContaining('a held record') as string });
    const first = four[0] ?? '';
    expect(guardRewrite(PAGE, before, before.replace(first, first.replace(' ^r-', ' [settled:: 2026-07-01] ^r-')))).toEqual({ ok: true });
  });

  it('refuses a rewrite that no longer reads', () => {
    expect(guardRewrite(PAGE, page(...four), `---\ntitle: [unclosed\n---\n${four.join('\n')}\n`).ok).toBe(false);
  });
});

describe('_log.md lines', () => {
  it('are one format: page lines and the record lines reflection writes, read back with their ids', () => {
    const at = new Date('2026-11-30T14:00:00Z');
    expect(formatLogLine({ time: at.toISOString(), action: 'created', path: 'People/Bob.md', source: 'distillation' })).toBe(
      '- 2026-11-30T14:00:00.000Z created People/Bob.md (source: distillation)\n',
    );
    const merge = recordLogLine(mergeEvent({ page: 'People/Sarah.md', id: 'r-abc123' }, { page: 'People/Sarah.md', id: 'r-def456' }));
    const rule = recordLogLine(ruleEvent({ page: 'Work/TBC.md', id: 'r-777777' }, [{ id: 'r-111111' }, { id: 'r-222222' }]));
    const text = [merge, rule].map((l) => formatLogLine({ time: at.toISOString(), ...l })).join('');
    expect(text).toBe(
      '- 2026-11-30T14:00:00.000Z merged People/Sarah.md#^r-abc123 (source: reflection) — absorbed People/Sarah.md#^r-def456\n' +
        '- 2026-11-30T14:00:00.000Z distilled Work/TBC.md#^r-777777 (source: reflection) — a rule distilled from ^r-111111 + ^r-222222\n',
    );
    expect(parseRecordEvents(text).map((e) => [e.action, e.id])).toEqual([
      ['merged', 'r-abc123'],
      ['distilled', 'r-777777'],
    ]);
  });
});

describe('when reflection runs', () => {
  const settings = { quietMinutes: 30, intervalHours: 24 };
  const at = (iso: string) => new Date(iso);
  it('after a write and a quiet spell, at most every interval', () => {
    const now = at('2026-11-30T12:00:00Z');
    expect(reflectionDue({ lastWrite: null, lastReflection: null }, now, settings)).toBe(false);
    expect(reflectionDue({ lastWrite: at('2026-11-30T11:45:00Z'), lastReflection: null }, now, settings)).toBe(false);
    expect(reflectionDue({ lastWrite: at('2026-11-30T11:20:00Z'), lastReflection: null }, now, settings)).toBe(true);
    expect(reflectionDue({ lastWrite: at('2026-11-30T11:20:00Z'), lastReflection: at('2026-11-30T08:00:00Z') }, now, settings)).toBe(false);
    expect(reflectionDue({ lastWrite: at('2026-11-30T11:20:00Z'), lastReflection: at('2026-11-29T11:00:00Z') }, now, settings)).toBe(true);
    expect(reflectionDue({ lastWrite: at('2026-11-29T10:00:00Z'), lastReflection: at('2026-11-29T11:00:00Z') }, now, settings)).toBe(false);
  });

  it('reports what it did in one line', () => {
    expect(reportText({ project: 'p', pages: 3, merged: 2, rules: 1, expired: 1, settled: 0, proposed: 1, rejected: 1, dropped: 0, rejections: ['People/Bob.md: it would drop 2 of 4 records'] })).toBe(
      'Reflection over 3 pages: merged 2, distilled 1 rule, expired 1, settled 0, proposed 1 for review, rejected 1 by the guard. Left unchanged: People/Bob.md: it would drop 2 of 4 records.',
    );
  });
});

describe("the memory model's proposals", () => {
  const rec = reflectionRecord;
  const records = new Map(
    [
      rec('r-a', 'A.md', 'Likes tea.'),
      // a rephrasing: "Loves tea." would be refused (likes ≠ loves), reflection-merge-table.test.ts
      rec('r-b', 'A.md', 'likes tea!'),
      rec('r-c', 'B.md', 'Likes tea.'),
      rec('r-m', 'A.md', 'Likes cake.', { manual: true }),
      rec('r-h', 'A.md', 'x', { status: 'held' }),
    ].map((r) => [r.id, r]),
  );

  it('keeps the valid items and drops the rest, each with why', () => {
    const out = parseReflection(
      JSON.stringify({
        duplicates: [{ ids: ['r-a', '^r-b'] }, { ids: ['r-a', 'r-c'] }, { ids: ['r-a', 'r-m'] }, { ids: 'r-a' }],
        rules: [
          { text: 'Sarah likes tea in any form.', from: ['r-a', 'r-c'] },
          { text: 'One source is not a pattern.', from: ['r-a', 'r-zzz'] },
        ],
        contradictions: [
          { a: 'r-a', b: 'r-b' },
          { a: 'r-a', b: 'r-h' },
        ],
      }),
      records,
    );
    expect(out.duplicates).toEqual([['r-a', 'r-b']]);
    expect(out.rules).toEqual([{ text: 'Sarah likes tea in any form.', from: ['r-a', 'r-c'] }]);
    expect(out.contradictions).toEqual([{ a: 'r-a', b: 'r-b', why: '' }]);
    expect(out.dropped).toHaveLength(5);
    expect(out.dropped.join('\n')).toContain('a rule must cite at least two existing records');
    expect(parseReflection('not json at all', records).dropped).toEqual(['reply: not JSON (15 characters)']);
  });

  it('finds plain duplicates itself and keeps the record written first', () => {
    expect(sameFact('Leads the design team at Acme.', 'Sarah leads the design team at Acme', { subject: 'Sarah' })).toBe(true);
    expect(sameFact('Leads the design team at Acme.', 'Sarah leads the design team at Acme')).toBe(false);
    expect(sameFact('Likes tea.', 'Likes coffee.')).toBe(false);
    const pages = [
      {
        path: 'A.md',
        title: 'Sarah',
        records: [rec('r-first', 'A.md', 'Sarah leads the design team at Acme.', { said: '2026-06-09' }), rec('r-next', 'A.md', 'Leads the design team at Acme.', { said: '2026-06-01' })],
      },
    ];
    expect(planChanges(pages, { duplicates: [], rules: [], contradictions: [] })).toEqual([
      { page: 'A.md', merges: [{ keep: 'r-first', drop: ['r-next'] }], rules: [], expire: [], settle: [], review: [] },
    ]);
  });
});

describe('kept versions', () => {
  it('take page names only inside the project, and are never indexed', async () => {
    expect(pageName('notes/People/Sarah')).toBe('People/Sarah.md');
    expect(pageName('../../etc/passwd')).toBeNull();
    expect(pageName('.history/x')).toBeNull();
    expect(isIndexedPage('.history/notes/People/Sarah.2026-11-30T14-00-00.000Z.md')).toBe(false);
    const root = mkdtempSync(join(tmpdir(), 'charlie-history-'));
    try {
      mkdirSync(join(root, 'p', 'notes'), { recursive: true });
      writeFileSync(join(root, 'p', 'notes', 'A.md'), 'now\n');
      const history = new PageHistory(root, new Wiki({ projectsDir: root, clock: systemClock, logger: silentLogger }));
      expect(await history.restore('p', '../../../outside', undefined, new Date())).toMatchObject({ ok: false });
      expect(await history.restore('p', 'A', '../../x', new Date())).toMatchObject({ ok: false, reason: expect.stringContaining('is not a version') as string });
      await expect(history.keep('../escape', 'A.md', 'x', new Date())).rejects.toThrow();
      await history.keep('p', 'A.md', 'before\n', new Date('2026-11-30T14:00:00Z'));
      await history.keep('p', 'A.md', 'before again\n', new Date('2026-11-30T14:00:00Z'));
      expect((await history.versions('p')).map((v) => v.version)).toEqual(['2026-11-30T14-00-00.000Z', '2026-11-30T14-00-00.001Z']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
