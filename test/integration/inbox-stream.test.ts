/**
 * Big CSV sources: streamed a batch at a time with a checkpoint per batch (a crash resumes
 * without sending a row twice, but for the batch in flight), a bank export summed per month and
 * payee before the memory lane sees it, and one huge file never holding up another project's inbox.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/core/records/candidates.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { Inbox, type InboxResult } from '../../src/memory/ingest/inbox.js';
import { IngestService } from '../../src/memory/ingest/ingest-service.js';
import type { SourceItem } from '../../src/memory/ingest/parsers.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { fact, newEntity } from '../support/distill-reply.js';

let root: string;
let wiki: Wiki;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-stream-'));
  wiki = new Wiki({ projectsDir: root, clock: new FixedClock(new Date('2026-06-02T10:00:00Z')), logger: silentLogger });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(project: string, name: string, text: string) {
  await mkdir(join(root, project, 'inbox'), { recursive: true });
  await writeFile(join(root, project, 'inbox', name), text);
}

/** An ingest service over the test root with no recall, at a fixed clock; `more` adds options. */
function ingestService(memoryModel: ScriptedChatModel, more: Partial<ConstructorParameters<typeof IngestService>[0]>): IngestService {
  return new IngestService({
    projectsDir: root,
    graph: wiki,
    recall: { recall: () => Promise.resolve([]) },
    memoryModel,
    clock: new FixedClock(new Date('2026-06-02T10:00:00Z')),
    logger: silentLogger,
    ...more,
  });
}

const generic = (rows: number) => `id,name,note\n${Array.from({ length: rows }, (_, i) => `${String(i + 1)},"Item ${String(i + 1)}","a note, with a comma"`).join('\n')}\n`;

describe('a large CSV file', () => {
  it('is read a bounded slice per scan and resumes after a crash from its last checkpoint', async () => {
    await put('big', 'rows.csv', generic(2000));
    const sent: string[] = [];
    let calls = 0;
    const crashAt = 7;
    const crashing = async (_p: string, _s: string, items: SourceItem[]) => {
      calls++;
      sent.push(...items.map((i) => i.ref));
      // the memory lane wrote this batch, then the process died before the checkpoint
      if (calls === crashAt) throw new Error('killed');
      return { facts: items.length };
    };
    const first = new Inbox({ projectsDir: root, log: wiki, logger: silentLogger, streamBytes: 1, batch: 30 });
    const r1 = await first.scan('big', crashing, 5);
    expect(r1.map((r) => [r.outcome, r.items])).toEqual([['partial', 150]]);
    expect(await readFile(join(root, 'big', 'inbox', '.progress.json'), 'utf8')).toContain('"done":150');
    const r2 = await first.scan('big', crashing, 5);
    expect(r2[0]?.outcome).toBe('failed');

    // a new process: it goes on from the checkpoint (the crashed batch is sent again, nothing else)
    const restarted = new Inbox({ projectsDir: root, log: wiki, logger: silentLogger, streamBytes: 1, batch: 30 });
    const results: InboxResult[] = [];
    for (let round = 0; round < 200; round++) {
      const r = await restarted.scan('big', crashing, 5);
      results.push(...r);
      if (r[0]?.outcome !== 'partial') break;
    }
    expect(results.at(-1)?.outcome).toBe('ingested');
    const counts = new Map<string, number>();
    for (const ref of sent) counts.set(ref, (counts.get(ref) ?? 0) + 1);
    expect(counts.size).toBe(2000);
    expect(counts.get('L2')).toBe(1);
    expect(counts.get('L2001')).toBe(1);
    const twice = [...counts.entries()].filter(([, n]) => n > 1).map(([ref]) => ref);
    expect(twice).toHaveLength(30);
    expect(twice[0]).toBe('L182'); // the 7th batch: rows 181–210 (lines 182–211)
    // done: the checkpoint is gone, the source is recorded, and the next scan sends nothing
    await expect(readFile(join(root, 'big', 'inbox', '.progress.json'), 'utf8')).rejects.toThrow();
    expect(await wiki.readLog('big')).toMatch(/ingested inbox\/rows\.csv — sha256 [0-9a-f]{64}, 2000 items/);
    expect((await restarted.scan('big', crashing, 5))[0]?.outcome).toBe('unchanged');
  });
});

describe('a bank export', () => {
  it('is summed into one item per month and payee before the memory lane sees it', async () => {
    const payees = ['Card payment, Pret A Manger 4421', 'Continente', 'EDP Energia', 'Uber *TRIP', 'Rent'];
    const expected = new Map<string, { n: number; total: number }>();
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 5000; i++) {
      const month = `2026-0${String(3 + (i % 3))}`;
      const payee = payees[i % payees.length] ?? '';
      const amount = -((i % 17) + 1.25);
      lines.push(`${month}-${String(1 + (i % 28)).padStart(2, '0')},"${payee}",${amount.toFixed(2)}`);
      const key = `${month} ${payee}`;
      const e = expected.get(key) ?? { n: 0, total: 0 };
      expected.set(key, { n: e.n + 1, total: e.total + amount });
    }
    await put('home', 'bank.csv', `${lines.join('\n')}\n`);
    const seen: SourceItem[] = [];
    const inbox = new Inbox({ projectsDir: root, log: wiki, logger: silentLogger });
    const results: InboxResult[] = [];
    for (let round = 0; round < 10; round++) {
      const r = await inbox.scan('home', async (_p, _s, items) => {
        seen.push(...items);
        return { facts: 0 };
      });
      results.push(...r);
      if (r[0]?.outcome !== 'partial') break;
    }
    expect(results.at(-1)?.outcome).toBe('ingested');
    expect(seen).toHaveLength(15);
    const pret = seen.find((s) => s.text.includes('2026-04: Card payment, Pret A Manger 4421'));
    const want = expected.get('2026-04 Card payment, Pret A Manger 4421');
    expect(pret?.text).toContain(`${String(want?.n)} payments, total ${(want?.total ?? 0).toFixed(2)}`);
    expect(await wiki.readLog('home')).toContain('5000 rows summed into 15 monthly item(s) per payee');
  });
});

describe('one huge inbox file', () => {
  it('never holds up another project’s inbox', async () => {
    await put('big', 'rows.csv', generic(3000));
    await put('small', 'note.md', 'Ann prefers tea.\n');
    const calls: string[] = [];
    const model = new ScriptedChatModel((req) => {
      const content = String(req.messages[0]?.content ?? '');
      calls.push(/The source is (\S+)\./.exec(content)?.[1] ?? '?');
      return { text: '{"entities":[],"facts":[],"links":[]}' };
    });
    const service = ingestService(model, { stream: { bytes: 1000, batch: 30 } });
    await service.scanAll();
    const big = calls.filter((c) => c === 'inbox/rows.csv').length;
    expect(big).toBe(100);
    const small = calls.indexOf('inbox/note.md');
    expect(small).toBeGreaterThanOrEqual(0);
    // the small file was read while the big one was still streaming: long before its last batch
    expect(small).toBeLessThan(calls.lastIndexOf('inbox/rows.csv') - 50);
  });
});

describe('ingestion is fair', () => {
  it('a small file of the same project and one of another project get their model call within two batches of a large CSV', async () => {
    await put('big', 'a-rows.csv', generic(3000)); // sorted first: 100 batches
    await put('big', 'z-note.md', 'Sam moved to Leeds.\n');
    await put('other', 'note.md', 'Ann prefers tea.\n');
    const calls: { source: string; at: number }[] = [];
    const started = Date.now();
    const model = new ScriptedChatModel((req) => {
      const content = String(req.messages[0]?.content ?? '');
      calls.push({ source: /The source is (\S+)\./.exec(content)?.[1] ?? '?', at: Date.now() - started });
      return { text: '{"entities":[],"facts":[],"links":[]}' };
    });
    const service = ingestService(model, { stream: { bytes: 1000, batch: 30 } });
    // both projects' scans run side by side, as on start (scanAll)
    await Promise.all([service.scan('big'), service.scan('other')]);
    const sources = calls.map((c) => c.source);
    expect(sources.filter((c) => c === 'inbox/a-rows.csv')).toHaveLength(100);
    const before = (source: string) => sources.slice(0, sources.indexOf(source)).filter((c) => c === 'inbox/a-rows.csv').length;
    expect(sources).toContain('inbox/z-note.md');
    expect(sources).toContain('inbox/note.md');
    expect(before('inbox/z-note.md')).toBeLessThanOrEqual(2); // was 20: the whole first round of the big file
    expect(before('inbox/note.md')).toBeLessThanOrEqual(2);
  });
});

describe('a memory model that stops answering', () => {
  it('ends an inbox batch at its deadline, names the model, and leaves the file for the next scan', async () => {
    await put('p', 'note.md', 'Sam moved to Leeds.\n');
    const model = new ScriptedChatModel([{ hang: true }, { text: '{"entities":[],"facts":[],"links":[]}' }]);
    const service = ingestService(model, { batchDeadlineMs: 200 });
    const [first] = await service.scan('p');
    expect(first).toMatchObject({ outcome: 'failed' });
    expect(first?.message).toMatch(/model server.*200 ms.*DISTILL_DEADLINE_MS/);
    const [second] = await service.scan('p');
    expect(second).toMatchObject({ outcome: 'ingested', items: 1 });
  });
});

describe('ingested items', () => {
  it('go through the same promotion gate: a receipt waits, a lasting fact is written', async () => {
    await put('home', 'notes.md', 'Receipt for your purchase at IKEA: 2 lamps, 1 rug.\nDr Ahmed is the dentist Mia sees at Riverside Dental.\n');
    const model = new ScriptedChatModel(() => ({
      text: JSON.stringify({
        entities: [newEntity('IKEA', 'Places'), newEntity('Dr Ahmed', 'People')],
        facts: [fact('IKEA', 'Sold Ann 2 lamps and a rug.', 1, 'episode'), fact('Dr Ahmed', 'Is the dentist Mia sees at Riverside Dental.', 2, 'identity')],
        links: [],
      }),
    }));
    const waiting: Candidate[] = [];
    const store = { list: () => Promise.resolve([...waiting]), replace: (c: Candidate[]) => Promise.resolve(void waiting.splice(0, waiting.length, ...c)) };
    const service = ingestService(model, { candidates: () => store });
    expect((await service.scan('home')).map((r) => r.outcome)).toEqual(['ingested']);
    expect(waiting.map((c) => [c.entity, c.fact.text])).toEqual([['IKEA', 'Sold Ann 2 lamps and a rug.']]);
    const pages = await readdir(join(root, 'home', 'notes'), { recursive: true });
    expect(pages.some((p) => p.endsWith('Dr-Ahmed.md'))).toBe(true);
    expect(pages.some((p) => p.includes('IKEA'))).toBe(false);
  });
});
