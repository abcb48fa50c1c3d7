/**
 * Inbox progress: while a big CSV streams, its checkpoint says how far it is (rows and bytes done
 * of the total, batches, the rate and time left measured on this run's clock), and the front doors
 * show it — `/memory ingest` in the terminal and the web app's GET …/ingest.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestStatusText, type IngestProgress } from '../../src/core/writing/ingest-status.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { Inbox } from '../../src/memory/ingest/inbox.js';
import type { SourceItem } from '../../src/memory/ingest/parsers.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { FixedClock } from '../support/fakes.js';
import { pipeTerminal } from '../support/terminal.js';
import { demoFiles } from '../support/web-demo-data.js';
import { startWebFixture, TOKEN } from '../support/web-fixture.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-progress-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const rows = (n: number) => `id,name\n${Array.from({ length: n }, (_, i) => `${String(i + 1)},"Item ${String(i + 1)}"`).join('\n')}\n`;

describe('a streaming file’s progress', () => {
  it('counts rows, bytes and batches from its checkpoint and measures rate and time left on the clock', async () => {
    const clock = new FixedClock(new Date('2026-06-02T10:00:00Z'));
    const wiki = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    await mkdir(join(root, 'big', 'inbox'), { recursive: true });
    await writeFile(join(root, 'big', 'inbox', 'rows.csv'), rows(600));
    const size = (await stat(join(root, 'big', 'inbox', 'rows.csv'))).size;
    // each batch takes the memory model 2 s
    const slow = async (_p: string, _s: string, items: SourceItem[]) => {
      clock.advance(2000);
      return { facts: items.length };
    };
    const inbox = new Inbox({ projectsDir: root, log: wiki, logger: silentLogger, streamBytes: 1, batch: 30, now: () => clock.now().getTime() });
    expect(await inbox.status('big')).toEqual([]);

    await inbox.scan('big', slow, 4);
    const [p] = await inbox.status('big');
    expect(p).toMatchObject({ source: 'inbox/rows.csv', mode: 'rows', done: 120, batches: 4, bytesTotal: size, updated: '2026-06-02T10:00:08.000Z' });
    expect(p!.bytesDone).toBeGreaterThan(0);
    expect(p!.bytesDone).toBeLessThan(size);
    // 120 rows in 8 s
    expect(p!.rate).toBeCloseTo(15, 5);
    // the bytes left at the bytes-per-second seen so far
    expect(p!.etaSeconds).toBeCloseTo(((size - p!.bytesDone) / p!.bytesDone) * 8, 5);
    expect(ingestStatusText([p!])).toMatch(/^Reading 1 inbox file:\n• inbox\/rows\.csv — 120 rows · 0\.0 of 0\.0 MB \(\d+%\) · 4 batches · 15 rows\/s · about \d+ s left$/);

    // a restarted Charlie knows how far it is, but not yet how fast it goes
    const restarted = new Inbox({ projectsDir: root, log: wiki, logger: silentLogger, streamBytes: 1, batch: 30, now: () => clock.now().getTime() });
    const [again] = await restarted.status('big');
    expect(again).toMatchObject({ done: 120, batches: 4 });
    expect(again!.rate).toBeUndefined();
    clock.advance(3_600_000);
    await restarted.scan('big', slow, 2);
    const [resumed] = await restarted.status('big');
    // the hour Charlie was down is not in the rate: 60 rows in 4 s
    expect(resumed).toMatchObject({ done: 180, batches: 6 });
    expect(resumed!.rate).toBeCloseTo(15, 5);

    // once the file is read, nothing is part-way
    while ((await restarted.scan('big', slow, 20))[0]?.outcome === 'partial');
    expect(await restarted.status('big')).toEqual([]);
    expect(ingestStatusText([])).toBe('No inbox file is being read right now.');
  });

  it('a bank export counts its monthly items of their total', async () => {
    const clock = new FixedClock(new Date('2026-06-02T10:00:00Z'));
    const wiki = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    await mkdir(join(root, 'bank', 'inbox'), { recursive: true });
    const lines = Array.from({ length: 12 * 5 }, (_, i) => `2026-${String((i % 12) + 1).padStart(2, '0')}-03,-${String(i + 1)}.00,Payee ${String.fromCharCode(65 + (i % 5))}`);
    await writeFile(join(root, 'bank', 'inbox', 'export.csv'), `Date,Amount,Payee\n${lines.join('\n')}\n`);
    const inbox = new Inbox({ projectsDir: root, log: wiki, logger: silentLogger, batch: 10, now: () => clock.now().getTime() });
    await inbox.scan(
      'bank',
      async (_p, _s, items) => {
        clock.advance(1000);
        return { facts: items.length };
      },
      2,
    );
    const [p] = await inbox.status('bank');
    expect(p).toMatchObject({ mode: 'summary', done: 20, total: 60, batches: 2, rate: 10, etaSeconds: 4 });
    expect(ingestStatusText([p!])).toContain('inbox/export.csv — 20 of 60 items (33%) · 2 batches · 10 items/s · about 4 s left');
  });
});

const sample: IngestProgress = { source: 'inbox/big.csv', mode: 'rows', done: 250_000, bytesDone: 12_500_000, bytesTotal: 50_000_000, batches: 8334, rate: 900, etaSeconds: 840 };

describe('/memory ingest in the terminal', () => {
  it('prints the project’s files part-way', async () => {
    const asked: string[] = [];
    const out = await pipeTerminal(new FakeAssistant(), '/memory ingest\n', {
      ingest: {
        status: async (project) => {
          asked.push(project);
          return [sample];
        },
      },
    });
    expect(asked).toEqual(['terminal:general']);
    expect(out).toContain('Reading 1 inbox file:\n• inbox/big.csv — 250,000 rows · 12.5 of 50.0 MB (25%) · 8,334 batches · 900 rows/s · about 14 min left');
  });
});

describe('GET /api/projects/:project/ingest', () => {
  it('sends the checkpointed progress of a project’s inbox through the real composition', async () => {
    const f = await startWebFixture({ files: demoFiles(), script: () => ({ text: 'ok' }) });
    try {
      const get = async (project: string) => {
        const res = await fetch(`${f.web.url}/api/projects/${project}/ingest`, { headers: { authorization: `Bearer ${TOKEN}` } });
        return { status: res.status, body: (await res.json()) as { files?: IngestProgress[] } };
      };
      expect((await get('trip')).body.files).toEqual([]);
      await mkdir(join(f.projectsDir, 'trip', 'inbox'), { recursive: true });
      const checkpoint = {
        'big.csv': { hash: 'h', size: 50_000, mtimeMs: 1, mode: 'rows', done: 900, offset: 20_000, line: 901, columns: ['id', 'name'], batches: 30, updatedMs: Date.parse('2026-06-02T10:00:00Z') },
      };
      await writeFile(join(f.projectsDir, 'trip', 'inbox', '.progress.json'), JSON.stringify(checkpoint));
      expect((await get('trip')).body.files).toEqual([{ source: 'inbox/big.csv', mode: 'rows', done: 900, bytesDone: 20_000, bytesTotal: 50_000, batches: 30, updated: '2026-06-02T10:00:00.000Z' }]);
      expect((await get('@me')).body.files).toEqual([]);
      expect((await get('nope')).status).toBe(404);
    } finally {
      await f.close();
    }
  }, 60_000);
});
