import { mkdtemp, readFile, readdir, rm, writeFile, symlink, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnsafeNameError } from '../../src/core/errors.js';
import type { Clock } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };
let root: string;
let store: FileProjectStore;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-store-'));
  store = new FileProjectStore({ projectsDir: join(root, 'projects'), clock });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const projectsDir = () => join(root, 'projects');
const read = (rel: string) => readFile(join(projectsDir(), rel), 'utf8');

describe('FileProjectStore projects', () => {
  it('creates a project from an origin and finds it again by key, also from a new instance', async () => {
    const a = await store.ensureProject({ name: 'Auth Rewrite', key: 'discord:1:2', discord: { guildId: '1', channelId: '2' } });
    expect(a.slug).toBe('auth-rewrite');
    expect(a.keys).toEqual(['discord:1:2']);
    expect(a.discord).toEqual({ guildId: '1', channelIds: ['2'] });
    expect(a.distillEvery).toBe(5);
    const text = await read('auth-rewrite/project.md');
    expect(text).toMatch(/^---\nschema: 1\nid: [0-9a-f-]{36}\nname: Auth Rewrite\n/);
    const again = await new FileProjectStore({ projectsDir: projectsDir(), clock }).ensureProject({ name: 'renamed-channel', key: 'discord:1:2' });
    expect(again.slug).toBe('auth-rewrite');
    expect(await readdir(projectsDir())).toEqual(['auth-rewrite']);
  });

  it('keeps the slug stable when the channel is renamed', async () => {
    await store.ensureProject({ name: 'general', key: 'terminal:general' });
    const renamed = await store.ensureProject({ name: 'Something Else', key: 'terminal:general' });
    expect(renamed.slug).toBe('general');
  });

  it('appends -2, -3 when another key already uses the slug', async () => {
    const a = await store.ensureProject({ name: 'General', key: 'k1' });
    const b = await store.ensureProject({ name: 'general', key: 'k2' });
    const c = await store.ensureProject({ name: 'GENERAL!', key: 'k3' });
    expect([a.slug, b.slug, c.slug]).toEqual(['general', 'general-2', 'general-3']);
    expect((await store.ensureProject({ name: 'x', key: 'k2' })).slug).toBe('general-2');
  });

  it('creates one project when ensureProject races with itself', async () => {
    const all = await Promise.all([1, 2, 3, 4].map(() => store.ensureProject({ name: 'race', key: 'same' })));
    expect(new Set(all.map((c) => c.slug))).toEqual(new Set(['race']));
    expect(await readdir(projectsDir())).toEqual(['race']);
  });

  it('turns hostile names into slugs inside projectsDir', async () => {
    const names = ['../../etc', '/etc/passwd', 'a\u0000b', 'x'.repeat(10_000), '..', '.', '🦄🦄', 'C:\\Windows', 'Café Crème'];
    const slugs: string[] = [];
    for (const [i, name] of names.entries()) slugs.push((await store.ensureProject({ name, key: `k${i}` })).slug);
    expect(slugs).toEqual(['etc', 'etc-passwd', 'a-b', 'x'.repeat(64), 'project', 'project-2', 'project-3', 'c-windows', 'cafe-creme']);
    const inside = resolve(projectsDir()) + sep;
    for (const slug of slugs) expect(resolve(projectsDir(), slug).startsWith(inside)).toBe(true);
    expect((await readdir(root)).sort()).toEqual(['projects']);
  });

  it('rejects hostile slugs given to every operation', async () => {
    for (const slug of ['../x', '/etc', 'a/b', '..', 'a\u0000b', '']) {
      await expect(store.getProject(slug)).rejects.toBeInstanceOf(UnsafeNameError);
      await expect(store.readLayers(slug)).rejects.toBeInstanceOf(UnsafeNameError);
      await expect(store.appendLog(slug, { time: '2026-11-29T00:00:00Z', speaker: 'a', source: 's', text: 't', role: 'user' })).rejects.toBeInstanceOf(UnsafeNameError);
    }
  });

  it('updates settings keeping the body, unknown fields and comments', async () => {
    await store.ensureProject({ name: 'p', key: 'k' });
    const path = join(projectsDir(), 'p/project.md');
    const original = await readFile(path, 'utf8');
    await writeFile(path, original.replace('style: ""', 'style: "" # how to answer\nowner: me') + '\nThe summary.\n');
    const updated = await store.updateProject('p', { style: 'terse', respond: 'mention', distillEvery: 9, archive: false });
    expect(updated).toMatchObject({ style: 'terse', respond: 'mention', distillEvery: 9, archive: false });
    const text = await readFile(path, 'utf8');
    expect(text).toContain('owner: me');
    expect(text).toContain('# how to answer');
    expect(text.endsWith('\nThe summary.\n')).toBe(true);
    await expect(store.updateProject('p', { distillEvery: 0 })).rejects.toThrow();
  });

  it('rejects a project folder that is a symlink leading outside', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'project.md'), '---\nschema: 1\nid: x\nname: x\n---\n');
    await mkdir(projectsDir(), { recursive: true });
    await symlink(outside, join(projectsDir(), 'evil'));
    await expect(store.getProject('evil')).rejects.toBeInstanceOf(UnsafeNameError);
  });
});

describe('FileProjectStore layers', () => {
  const layers = {
    summary: 'We are rewriting auth.\n\nSecond paragraph.',
    decisions: [
      { date: '2026-11-29', text: 'Use JWT refresh tokens', source: 'https://discord.com/channels/1/2/3' },
      { date: '2026-11-30', text: 'Rotate keys monthly (ops)', source: 'manual' },
    ],
    quotes: [
      { date: '2026-11-29', speaker: 'Alice', text: 'We ship on Friday.\nNo excuses.', source: 'https://discord.com/channels/1/2/4' },
      { date: '2026-11-29', speaker: 'Bob', text: '"Quoted" already', source: 'voice:123' },
    ],
  };

  it('round-trips the three layers and keeps the front matter byte-exact', async () => {
    await store.ensureProject({ name: 'p', key: 'k' });
    const before = await read('p/project.md');
    const snap = await store.readLayers('p');
    expect(snap.layers).toEqual({ summary: '', decisions: [], quotes: [] });
    expect(await store.writeLayers('p', layers, snap.versions)).toEqual({ ok: true });
    const after = await read('p/project.md');
    expect(after.startsWith(before)).toBe(true);
    expect(after).toBe(`${before}We are rewriting auth.\n\nSecond paragraph.\n`);
    expect(await read('p/decisions.md')).toContain('- **2026-11-29** — Use JWT refresh tokens ([source](https://discord.com/channels/1/2/3))');
    expect(await read('p/quotes.md')).toContain('> "We ship on Friday.\n> No excuses."\n> — Alice, 2026-11-29 ([source](https://discord.com/channels/1/2/4))');
    const again = await new FileProjectStore({ projectsDir: projectsDir(), clock }).readLayers('p');
    expect(again.layers).toEqual(layers);
    expect(again.problems).toEqual([]);
  });

  it('refuses with conflict and writes nothing when a file was edited by hand since reading', async () => {
    await store.ensureProject({ name: 'p', key: 'k' });
    const snap = await store.readLayers('p');
    await store.writeLayers('p', layers, snap.versions);
    const fresh = await store.readLayers('p');
    const handEdited = (await read('p/quotes.md')) + '\n> "added by hand"\n';
    await writeFile(join(projectsDir(), 'p/quotes.md'), handEdited);
    const before = { project: await read('p/project.md'), decisions: await read('p/decisions.md') };
    const outcome = await store.writeLayers('p', { summary: 'new', decisions: [], quotes: [] }, fresh.versions);
    expect(outcome).toMatchObject({ ok: false, reason: 'conflict', paths: ['p/quotes.md'] });
    expect(await read('p/project.md')).toBe(before.project);
    expect(await read('p/decisions.md')).toBe(before.decisions);
    expect(await read('p/quotes.md')).toBe(handEdited);
  });

  it('a summary hand edit is a conflict; a settings change in between is not', async () => {
    await store.ensureProject({ name: 'p', key: 'k' });
    const snap = await store.readLayers('p');
    await store.updateProject('p', { style: 'formal' });
    await store.setDistillCursor('p', { file: '2026-11-29.md', offset: 10 });
    expect(await store.writeLayers('p', { ...layers, summary: 'S1' }, snap.versions)).toEqual({ ok: true });
    const text = await read('p/project.md');
    expect(text).toContain('style: "formal"');
    expect(text).toContain('offset: 10');
    const snap2 = await store.readLayers('p');
    await writeFile(join(projectsDir(), 'p/project.md'), text.replace('S1', 'S1 edited by hand'));
    expect(await store.writeLayers('p', { ...layers, summary: 'S2' }, snap2.versions)).toMatchObject({ ok: false, reason: 'conflict', paths: ['p/project.md'] });
    expect(await read('p/project.md')).toContain('S1 edited by hand');
  });

  it('reads hand-edited decisions and quotes with variations', async () => {
    await store.ensureProject({ name: 'p', key: 'k' });
    await writeFile(
      join(projectsDir(), 'p/decisions.md'),
      '# Decisions\n\n* 2026-11-01 - Use Postgres\n- **2026-11-02**: Drop MySQL\n  because of licensing\n- Undated idea ([source](<https://x.test/a b>))\n',
    );
    await writeFile(join(projectsDir(), 'p/quotes.md'), '# Quotes\n\n> “Smart quotes”\n> – Carol\n\n> no attribution at all\n');
    const snap = await store.readLayers('p');
    expect(snap.problems).toEqual([]);
    expect(snap.layers.decisions).toEqual([
      { date: '2026-11-01', text: 'Use Postgres', source: '' },
      { date: '2026-11-02', text: 'Drop MySQL because of licensing', source: '' },
      { date: '', text: 'Undated idea', source: 'https://x.test/a b' },
    ]);
    expect(snap.layers.quotes).toEqual([
      { text: 'Smart quotes', speaker: 'Carol', date: '', source: '' },
      { text: 'no attribution at all', speaker: '', date: '', source: '' },
    ]);
  });
});
