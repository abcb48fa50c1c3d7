import { existsSync, mkdirSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LONG_MESSAGE } from '../../src/memory/index/chunker.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { CountingEmbedder, note, retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';

let fx: RetrievalFixture;
beforeEach(() => {
  fx = retrievalFixture();
  fx.write('alpha', 'notes/Topics/JWT-Refresh.md', note('JWT Refresh Tokens', 'We rotate refresh tokens every 24 hours and keep them in an httpOnly cookie.'));
  fx.write('alpha', 'notes/People/Sarah-Chen.md', note('Sarah Chen', 'Sarah leads the payments team and prefers async standups.', 'aliases: [Sarah]\n'));
  fx.write('alpha', 'notes/Places/Lisbon.md', note('Lisbon', 'The team offsite happens in Lisbon in March, near the river.'));
  fx.write('beta', 'notes/Secret.md', note('Beta Plans', 'The beta project stores its refresh tokens in Redis.'));
});
afterEach(async () => {
  await fx.cleanup();
});

const pages = (hits: { page: string }[]) => hits.map((h) => h.page);

describe('hybrid recall over LanceDB', () => {
  it('finds the right chunk with page, heading, lines and explained score', async () => {
    const s = fx.open();
    const hits = await s.recall.recall('how often do we rotate refresh tokens?', { project: 'alpha', limit: 3 });
    expect(hits[0]).toMatchObject({ page: 'notes/Topics/JWT-Refresh.md', heading: 'JWT Refresh Tokens', lineStart: 10, lineEnd: 10, staleness: 2 });
    expect(hits[0]!.text).toContain('rotate refresh tokens');
    expect(hits[0]!.parts.keyword).toBe(1);
    expect(hits[0]!.parts.vector).toBeGreaterThan(0);
    expect(hits[0]!.why).toContain('keyword');
    expect(hits[0]!.score).toBeGreaterThan(hits[1]?.score ?? 0);
  });

  it('searches only the asked project', async () => {
    const s = fx.open();
    const alpha = await s.recall.recall('refresh tokens redis', { project: 'alpha' });
    const beta = await s.recall.recall('refresh tokens redis', { project: 'beta' });
    expect(pages(alpha)).not.toContain('notes/Secret.md');
    expect(pages(beta)).toEqual(['notes/Secret.md']);
    expect(await s.recall.recall('anything', { project: '../alpha' })).toEqual([]);
  });

  it('never re-embeds an unchanged page, re-embeds only the changed chunk, removes deleted pages', async () => {
    const embedder = new CountingEmbedder();
    const s = fx.open(embedder);
    const first = await s.sync('alpha');
    expect(first.embedded).toBe(3);
    embedder.texts = [];
    const again = await s.sync('alpha');
    expect(again).toMatchObject({ changed: 0, embedded: 0 });
    expect(embedder.texts).toEqual([]);

    // touch without changing: hashed, not re-embedded
    fx.write('alpha', 'notes/Places/Lisbon.md', note('Lisbon', 'The team offsite happens in Lisbon in March, near the river.'));
    expect((await s.sync('alpha')).embedded).toBe(0);

    fx.write(
      'alpha',
      'notes/People/Sarah-Chen.md',
      note('Sarah Chen', 'Sarah leads the payments team and prefers async standups.\n\n## Hobbies\n\nSarah climbs at the bouldering gym on Thursdays.', 'aliases: [Sarah]\n'),
    );
    const edit = await s.sync('alpha');
    expect(edit).toMatchObject({ changed: 1, embedded: 1 });
    expect(embedder.texts).toHaveLength(1);
    expect(embedder.texts[0]).toContain('bouldering');

    unlinkSync(join(fx.projectsDir, 'alpha', 'notes/Places/Lisbon.md'));
    expect((await s.sync('alpha')).deleted).toBe(1);
    expect(pages(await s.recall.recall('offsite Lisbon March', { project: 'alpha' }))).not.toContain('notes/Places/Lisbon.md');
  });

  it('is never stale: a page written just before a turn is searchable in that turn', async () => {
    const s = fx.open();
    expect(pages(await s.recall.recall('kayak', { project: 'alpha' }))).toEqual([]);
    fx.write('alpha', 'notes/Topics/Kayak.md', note('Kayak', 'We bought a red kayak for the lake.'));
    expect(pages(await s.recall.recall('kayak', { project: 'alpha' }))[0]).toBe('notes/Topics/Kayak.md');
  });

  it('picks up hand edits through the file watcher while running', async () => {
    const embedder = new CountingEmbedder();
    const s = fx.open(embedder);
    await s.sync('alpha');
    // the watcher reports every change from its 'ready' on: wait for that, not for a fixed time
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    const stop = s.watch(undefined, (trusted) => trusted && ready());
    await isReady;
    embedder.texts = [];
    fx.write('alpha', 'notes/Topics/Garden.md', note('Garden', 'Tomatoes need watering every morning.'));
    const deadline = Date.now() + 10_000;
    while (!embedder.texts.some((t) => t.includes('Tomatoes')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(embedder.texts.some((t) => t.includes('Tomatoes'))).toBe(true);
    await stop();
  });

  it('rebuilds to the same results after data/ is deleted', async () => {
    const queries = ['refresh tokens cookie', 'who leads payments', 'offsite in march'];
    const s = fx.open();
    // incremental history: edits and a deletion before comparing
    await s.sync('alpha');
    fx.write('alpha', 'notes/Topics/Temp.md', note('Temp', 'A temporary page about cookies.'));
    await s.sync('alpha');
    unlinkSync(join(fx.projectsDir, 'alpha', 'notes/Topics/Temp.md'));
    const before = await Promise.all(queries.map((q) => s.recall.recall(q, { project: 'alpha' })));
    await s.close();
    rmSync(join(fx.dataDir, 'index'), { recursive: true, force: true });
    const fresh = fx.open();
    await fresh.reindexAll();
    const after = await Promise.all(queries.map((q) => fresh.recall.recall(q, { project: 'alpha' })));
    const view = (hs: typeof before) => hs.map((h) => h.map((x) => [x.page, x.lineStart, x.parts.vector.toFixed(6), x.parts.keyword.toFixed(6)]));
    expect(view(after)).toEqual(view(before));
  });

  it('re-embeds everything when the embedder changes, never mixing vectors', async () => {
    const a = new CountingEmbedder(new HashingEmbedder({ dimensions: 256 }));
    const s1 = fx.open(a);
    await s1.sync('alpha');
    await s1.close();
    const b = new CountingEmbedder(new HashingEmbedder({ dimensions: 128 }));
    const s2 = fx.open(b);
    const hits = await s2.recall.recall('refresh tokens', { project: 'alpha' });
    expect(b.texts).toHaveLength(3);
    expect(hits[0]!.page).toBe('notes/Topics/JWT-Refresh.md');
    const tables = readdirSync(join(fx.dataDir, 'index')).filter((n) => n.startsWith('alpha__') && n.endsWith('.lance'));
    expect(tables).toHaveLength(1);
  });

  it('rebuilds a corrupt index instead of failing', async () => {
    const s = fx.open();
    await s.sync('alpha');
    await s.close();
    const indexDir = join(fx.dataDir, 'index');
    const table = readdirSync(indexDir).find((n) => n.startsWith('alpha__'))!;
    // clobber every data and manifest file of the table
    const clobber = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) clobber(p);
        else writeFileSync(p, 'not a lance file');
      }
    };
    clobber(join(indexDir, table));
    const again = fx.open();
    const hits = await again.recall.recall('refresh tokens cookie', { project: 'alpha' });
    expect(hits[0]!.page).toBe('notes/Topics/JWT-Refresh.md');
    expect(fx.warnings.join('\n')).toMatch(/rebuilding/);
    expect(existsSync(join(indexDir, table))).toBe(true);
  });

  it('rebuilds when data/index is not even a folder', async () => {
    rmSync(fx.dataDir, { recursive: true, force: true });
    mkdirSync(fx.dataDir, { recursive: true });
    writeFileSync(join(fx.dataDir, 'index'), 'garbage');
    const s = fx.open();
    const hits = await s.recall.recall('refresh tokens cookie', { project: 'alpha' });
    expect(hits[0]!.page).toBe('notes/Topics/JWT-Refresh.md');
    expect(fx.warnings.join('\n')).toMatch(/rebuilding/);
  });

  it('a search that finds nothing embeds nothing and rebuilds nothing', async () => {
    const embedder = new CountingEmbedder();
    const s = fx.open(embedder);
    await s.sync('alpha');
    embedder.texts = [];
    expect(await s.recall.recall('xylophone quantum zebra', { project: 'alpha' })).toEqual([]);
    expect(await s.recall.recall('xylophone', { project: 'nowhere' })).toEqual([]);
    expect(embedder.texts).toEqual([]);
  });

  it('answers by keyword when the embedder is down, and catches up when it is back', async () => {
    const inner = new HashingEmbedder();
    let down = false;
    const flaky = {
      id: inner.id,
      dimensions: inner.dimensions,
      semantic: false,
      locality: 'local' as const,
      embed: (texts: string[]) => (down ? Promise.reject(new Error('embedding server gone')) : inner.embed(texts)),
    };
    const s = fx.open(flaky);
    await s.sync('alpha');
    down = true;
    fx.write('alpha', 'notes/Topics/Kayak.md', note('Kayak', 'We bought a red kayak for the lake.'));
    const hits = await s.recall.recall('refresh tokens', { project: 'alpha' });
    expect(hits[0]!.page).toBe('notes/Topics/JWT-Refresh.md');
    expect(hits[0]!.parts.vector).toBe(0);
    expect(fx.warnings.join('\n')).toMatch(/keyword only/);
    down = false;
    expect(pages(await s.recall.recall('red kayak', { project: 'alpha' }))[0]).toBe('notes/Topics/Kayak.md');
  });

  it('an appended message embeds only itself and the neighbours whose context changed', async () => {
    const entry = (i: number) => `\n### 10:00:${String(i).padStart(2, '0')} · P${i % 2} · [↗](<terminal:${i}>)\n\nmessage number ${i} about topic ${i}\n`;
    let log = '# 2026-11-29\n';
    for (let i = 0; i < 30; i++) log += entry(i);
    fx.write('alpha', 'log/2026-11-29.md', log);
    const embedder = new CountingEmbedder();
    const s = fx.open(embedder);
    expect((await s.sync('alpha')).embedded).toBe(33);
    embedder.texts = [];
    fx.write('alpha', 'log/2026-11-29.md', log + entry(30));
    const after = await s.sync('alpha');
    // the new message, and the two before it (their context now includes it)
    expect(after.embedded).toBe(3);
    expect(embedder.texts.some((t) => t.includes('message number 30'))).toBe(true);
  });

  it('losing the page manifest costs a re-read, not a re-embedding', async () => {
    const embedder = new CountingEmbedder();
    const s1 = fx.open(embedder);
    await s1.sync('alpha');
    await s1.close();
    const indexDir = join(fx.dataDir, 'index');
    for (const f of readdirSync(indexDir).filter((n) => n.endsWith('.pages.json'))) unlinkSync(join(indexDir, f));
    embedder.texts = [];
    const s2 = fx.open(embedder);
    const stats = await s2.sync('alpha');
    expect(stats).toMatchObject({ changed: 3, embedded: 0 });
    const hits = await s2.recall.recall('refresh tokens', { project: 'alpha' });
    expect(hits.filter((h) => h.page === 'notes/Topics/JWT-Refresh.md')).toHaveLength(1);
  });

  it('indexes the conversation archive by message with line ranges', async () => {
    fx.write(
      'alpha',
      'log/2026-11-29.md',
      '# 2026-11-29\n\n### 10:00:00 · Alice · [↗](<terminal:1>)\n\nShall we move the standup to 9?\n\n### 10:00:05 · Bob · [↗](<terminal:2>)\n\nYes, nine works for me.\n',
    );
    const s = fx.open();
    const hits = await s.recall.recall('should we move the standup', { project: 'alpha' });
    const log = hits.find((h) => h.page === 'log/2026-11-29.md')!;
    expect(log).toMatchObject({ lineStart: 3, lineEnd: 5, text: 'Shall we move the standup to 9?' });
    expect(log.heading).toContain('Alice');
  });

  it('a long structured reply is found by its section, and takes one place among the hits', async () => {
    const filler = (topic: string) => Array.from({ length: 24 }, (_, i) => `The ${topic} step ${i} covers the kettle descaling routine in detail.`).join(' ');
    const reply = [
      '## Kettle',
      '',
      filler('first'),
      '',
      '## More kettle',
      '',
      filler('second'),
      '',
      '## Even more kettle',
      '',
      filler('third'),
      '',
      '## Garden',
      '',
      'Water the tomatoes every morning.',
    ].join('\n');
    expect(reply.length).toBeGreaterThan(LONG_MESSAGE);
    const msg = (time: string, who: string, text: string, n: number) => `### ${time} · ${who} · [↗](<terminal:${n}>)\n\n${text}\n\n`;
    fx.write(
      'alpha',
      'log/2026-11-29.md',
      '# 2026-11-29\n\n' +
        msg('10:00:00', 'Alice', 'How do I keep the kettle clean?', 1) +
        msg('10:00:05', 'Charlie', reply, 2) +
        msg('10:01:00', 'Alice', 'The kettle descaling with vinegar worked.', 3) +
        msg('10:02:00', 'Bob', 'I descale my kettle monthly.', 4),
    );
    const s = fx.open();
    const hits = await s.recall.recall('kettle descaling routine', { project: 'alpha', limit: 4 });
    const logHits = hits.filter((h) => h.page === 'log/2026-11-29.md');
    const fromReply = logHits.filter((h) => h.message === 7);
    // the reply's sections would fill the top hits; it takes one place and the other messages are found
    expect(fromReply).toHaveLength(1);
    expect(fromReply[0]!.heading).toMatch(/Charlie › (More |Even more )?[Kk]ettle/);
    expect(logHits.map((h) => h.text)).toEqual(expect.arrayContaining([expect.stringContaining('vinegar'), expect.stringContaining('monthly')]));
    // a question about one section finds that section, lines inside the message
    const garden = await s.recall.recall('how often to water the tomatoes', { project: 'alpha', limit: 1 });
    expect(garden[0]).toMatchObject({ message: 7, heading: expect.stringContaining('Garden') as unknown });
    expect(garden[0]!.lineStart).toBeGreaterThan(7);
  });
});
