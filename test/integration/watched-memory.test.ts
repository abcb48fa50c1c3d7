/**
 * While the projects/ watcher runs, the caches in front of the pages trust it: a search or a
 * page map reads only what it named, never the whole project; and the watcher reports a burst
 * of changes as one batch that says which files changed.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { watchProjects, type ProjectChanges } from '../../src/memory/index/watcher.js';
import { FixedClock } from '../support/fakes.js';
import { CountingEmbedder, note, retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';
import { HELD_BYTES } from '../../src/memory/index/held-changes.js';

const pagesOf = (hits: { page: string }[]) => hits.map((h) => h.page);

describe('the index while watched', () => {
  let fx: RetrievalFixture;
  beforeEach(() => {
    fx = retrievalFixture();
    fx.write('alpha', 'notes/Topics/Lisbon.md', note('Lisbon', 'The offsite happens in Lisbon in March.'));
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('a search checks no page the watcher did not name; the named ones are indexed', async () => {
    const s = fx.open();
    // the rescan flag stands for the watcher's first batch after it is ready
    await s.sync('alpha');
    const index = s;
    index.watching(true);
    await index.changed('alpha', [], true);
    fx.write('alpha', 'notes/Topics/Kayak.md', note('Kayak', 'We bought a red kayak for the lake.'));
    // not named yet: the search does not list the folder to find it
    expect(pagesOf(await s.recall.recall('red kayak lake', { project: 'alpha' }))).not.toContain('notes/Topics/Kayak.md');
    await index.changed('alpha', ['notes/Topics/Kayak.md']);
    expect(pagesOf(await s.recall.recall('red kayak lake', { project: 'alpha' }))[0]).toBe('notes/Topics/Kayak.md');
    // without the watcher, every search lists the project again
    index.watching(false);
    fx.write('alpha', 'notes/Topics/Canoe.md', note('Canoe', 'A green canoe for the river.'));
    expect(pagesOf(await s.recall.recall('green canoe river', { project: 'alpha' }))[0]).toBe('notes/Topics/Canoe.md');
  });

  it('a page deleted by hand leaves the index when the watcher names it', async () => {
    const s = fx.open();
    const index = s;
    index.watching(true);
    await index.changed('alpha', [], true);
    expect(pagesOf(await s.recall.recall('offsite Lisbon March', { project: 'alpha' }))).toContain('notes/Topics/Lisbon.md');
    await rm(join(fx.projectsDir, 'alpha', 'notes/Topics/Lisbon.md'));
    await index.changed('alpha', ['notes/Topics/Lisbon.md']);
    expect(pagesOf(await s.recall.recall('offsite Lisbon March', { project: 'alpha' }))).not.toContain('notes/Topics/Lisbon.md');
  });
});

describe('a project not searched yet', () => {
  let fx: RetrievalFixture;
  beforeEach(() => {
    fx = retrievalFixture();
    fx.write('alpha', 'project.md', '---\nname: Alpha\n---\n');
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it("is not opened for the watcher's small changes (LanceDB stays unloaded); its first search finds them", async () => {
    const embedder = new CountingEmbedder();
    const s = fx.open(embedder);
    s.watching(true);
    fx.write('alpha', 'project.md', '---\nname: Alpha\n---\n\nThe family plans a trip to Lisbon.\n');
    fx.write('alpha', 'log/2026-12-07.md', '# 2026-12-07\n\n### 09:00:00 · Sam · [↗](<terminal:1>)\n\nThe boiler makes a knocking noise.\n');
    expect(await s.changed('alpha', ['project.md'])).toMatchObject({ changed: 0 });
    expect(await s.changed('alpha', ['log/2026-12-07.md'], true)).toMatchObject({ changed: 0 });
    expect(existsSync(join(fx.dataDir, 'index'))).toBe(false);
    expect(embedder.texts).toEqual([]);
    // the first search lists the whole project: the held pages are indexed before it answers
    expect(pagesOf(await s.recall.recall('boiler knocking noise', { project: 'alpha' }))[0]).toBe('log/2026-12-07.md');
    expect(pagesOf(await s.recall.recall('trip to Lisbon', { project: 'alpha' }))[0]).toBe('project.md');
    // once open, a change is indexed as the watcher reports it
    fx.write('alpha', 'notes/Topics/Kayak.md', note('Kayak', 'We bought a red kayak for the lake.'));
    expect(await s.changed('alpha', ['notes/Topics/Kayak.md'])).toMatchObject({ changed: 1 });
  });

  it('is opened and indexed at once when the changes it holds pass the bound, so a first search never waits for a large backlog', async () => {
    const embedder = new CountingEmbedder();
    const s = fx.open(embedder);
    s.watching(true);
    const line = 'The garden needs watering every morning before the heat.\n';
    fx.write('alpha', 'notes/Topics/Garden.md', note('Garden', line.repeat(Math.floor(HELD_BYTES / line.length / 2))));
    expect(await s.changed('alpha', ['notes/Topics/Garden.md'])).toMatchObject({ changed: 0 });
    fx.write('alpha', 'notes/Topics/Orchard.md', note('Orchard', line.repeat(Math.floor(HELD_BYTES / line.length / 2) + 50)));
    // the whole project is listed: project.md, the held page and this one
    expect(await s.changed('alpha', ['notes/Topics/Orchard.md'])).toMatchObject({ changed: 3 });
    expect(embedder.texts.some((t) => t.includes('garden'))).toBe(true);
  });
});

describe('the page cache while watched', () => {
  let root: string;
  let wiki: Wiki;
  const write = (rel: string, title: string, body = '') => {
    const full = join(root, 'p', 'notes', rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, `---\nschema: 2\ntitle: ${title}\n---\n\n${body}`);
  };
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'charlie-watched-'));
    write('People/Sarah-Chen.md', 'Sarah Chen', '## Facts\n- Likes tea. [type:: preference] ^r-aaaaaa\n');
    write('People/Tom-Li.md', 'Tom Li', '## Facts\n- Likes coffee. [type:: preference] ^r-bbbbbb\n');
    wiki = new Wiki({ projectsDir: root, clock: new FixedClock(new Date('2026-06-20T10:00:00Z')), logger: silentLogger });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('a load re-reads only the pages the watcher named; own writes already read back are no change', async () => {
    wiki.watching(true);
    expect((await wiki.load('p')).pages.size).toBe(2);
    write('Places/Lisbon.md', 'Lisbon');
    expect((await wiki.load('p')).pages.has('Places/Lisbon.md')).toBe(false);
    expect(wiki.filesChanged('p', ['notes/Places/Lisbon.md', 'log/2026-06-20.md'])).toBe(true);
    expect((await wiki.load('p')).pages.has('Places/Lisbon.md')).toBe(true);
    // read back already: the watcher's event for it asks for no reconcile
    expect(wiki.filesChanged('p', ['notes/Places/Lisbon.md'])).toBe(false);
    // an archive append or the generated index is never a page change
    expect(wiki.filesChanged('p', ['log/2026-06-20.md', 'notes/_index.md', 'notes/_log.md'])).toBe(false);
    const write2 = await wiki.write('p', {
      origin: 'remember',
      entities: [{ name: 'Sarah Chen', create: false, facts: [{ text: 'Moved to Porto.', said: '2026-06-20', source: 'terminal:1' }] }],
      links: [],
    });
    expect(write2.updated).toEqual(['People/Sarah-Chen.md']);
    expect(wiki.filesChanged('p', ['notes/People/Sarah-Chen.md', 'notes/_index.md', 'notes/_log.md'])).toBe(false);
    // a rescan lists the folder again
    write('Places/Porto.md', 'Porto');
    expect(wiki.filesChanged('p', [], true)).toBe(true);
    expect((await wiki.load('p')).pages.has('Places/Porto.md')).toBe(true);
  });

  it('a page read again keeps the resolver unless its names changed', async () => {
    const first = await wiki.load('p');
    write('People/Tom-Li.md', 'Tom Li', '## Facts\n- Likes green tea now. [type:: preference] ^r-cccccc\n');
    wiki.pageWritten('p', 'People/Tom-Li.md');
    const second = await wiki.load('p');
    expect(second.resolver).toBe(first.resolver);
    const statements = (s: typeof first) => [...s.pages.get('People/Tom-Li.md')!.facts, ...s.pages.get('People/Tom-Li.md')!.unsourced].map((f) => f.text);
    expect(statements(second)).toEqual(['Likes green tea now.']);
    expect(statements(first)).toEqual(['Likes coffee.']);
    write('People/Tom-Li.md', 'Thomas Li');
    wiki.pageWritten('p', 'People/Tom-Li.md');
    const third = await wiki.load('p');
    expect(third.resolver).not.toBe(first.resolver);
    expect(third.resolver.resolve('Thomas Li')).toBe('People/Tom-Li.md');
  });

  it('the link map is kept per snapshot and follows a new link', async () => {
    const first = await wiki.linkMap('p');
    expect(await wiki.linkMap('p')).toBe(first);
    expect(first.get('notes/People/Tom-Li.md')).toBeUndefined();
    write('People/Tom-Li.md', 'Tom Li', '## Related\n- [[People/Sarah-Chen]] (sister)\n');
    wiki.pageWritten('p', 'People/Tom-Li.md');
    expect((await wiki.linkMap('p')).get('notes/People/Tom-Li.md')).toEqual(['notes/People/Sarah-Chen.md']);
  });

  it('records of a few pages read only those pages', async () => {
    const all = await wiki.records('p', new Date('2026-06-20T10:00:00Z'));
    const some = await wiki.records('p', new Date('2026-06-20T10:00:00Z'), ['People/Tom-Li.md', 'People/Nobody.md']);
    expect(new Set(all.map((r) => r.page))).toEqual(new Set(['People/Sarah-Chen.md', 'People/Tom-Li.md']));
    expect(some.map((r) => r.statement)).toEqual(['Likes coffee.']);
  });
});

describe('the projects/ watcher', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'charlie-watcher-'));
    mkdirSync(join(root, 'p', 'log'), { recursive: true });
    mkdirSync(join(root, 'p', 'notes'), { recursive: true });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reports a burst of changes as one batch naming the files, and never two batches of a project at once', async () => {
    const batches: ProjectChanges[] = [];
    let running = 0;
    let overlapped = false;
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let ready: () => void = () => {};
    const isReady = new Promise<void>((r) => (ready = r));
    const stop = watchProjects(
      root,
      async (c) => {
        running++;
        if (running > 1) overlapped = true;
        batches.push(c);
        if (batches.length === 1) await gate;
        running--;
      },
      silentLogger,
      { debounceMs: 50, onTrust: (on) => on && ready() },
    );
    try {
      await isReady;
      for (let i = 0; i < 5; i++) writeFileSync(join(root, 'p', 'log', '2026-06-20.md'), `# 2026-06-20\n${'x'.repeat(i)}\n`);
      writeFileSync(join(root, 'p', 'notes', 'A.md'), 'a');
      const until = async (ok: () => boolean) => {
        for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
      };
      await until(() => batches.length >= 1);
      expect(new Set(batches[0]!.paths)).toEqual(new Set(['log/2026-06-20.md', 'notes/A.md']));
      // changes while the first batch runs wait for it, then come as one more batch
      writeFileSync(join(root, 'p', 'notes', 'B.md'), 'b');
      writeFileSync(join(root, 'p', 'notes', 'C.md'), 'c');
      await new Promise((r) => setTimeout(r, 600));
      expect(batches).toHaveLength(1);
      release();
      await until(() => batches.length >= 2);
      // B and C come together; a late event of the first burst (the kernel's, under load: seen in CI)
      // may name one of its files again, which costs a re-read of an unchanged file and nothing else
      const second = new Set(batches[1]!.paths);
      expect([...second].filter((p) => !batches[0]!.paths.includes(p)).sort()).toEqual(['notes/B.md', 'notes/C.md']);
      expect(batches[1]!.project).toBe('p');
      expect(overlapped).toBe(false);
    } finally {
      release();
      await stop();
    }
  });
});
