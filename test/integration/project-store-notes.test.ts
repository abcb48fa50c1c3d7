import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnsafeNameError } from '../../src/core/errors.js';
import type { Clock } from '../../src/core/ports/index.js';
import { MemoryFileError } from '../../src/memory/store/memory-errors.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';

let now = new Date('2026-11-29T18:20:11.000Z');
const clock: Clock = { now: () => now };
let root: string;
let store: FileProjectStore;
const notes = (rel = '') => join(root, 'p/notes', rel);

beforeEach(async () => {
  now = new Date('2026-11-29T18:20:11.000Z');
  root = await mkdtemp(join(tmpdir(), 'charlie-notes-'));
  store = new FileProjectStore({ projectsDir: root, clock });
  await store.ensureProject({ name: 'p', key: 'k' });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('notes', () => {
  it('creates a note with full front matter, then appends dated entries', async () => {
    const first = await store.saveNote('p', { title: 'Sarah Chen', category: 'People', body: 'Leads the auth migration.', tags: ['team'], source: 'https://discord.com/channels/1/2/3' });
    expect(first).toEqual({ path: 'People/Sarah-Chen.md', created: true });
    const created = await readFile(notes('People/Sarah-Chen.md'), 'utf8');
    expect(created).toBe(
      '---\nschema: 1\ntitle: Sarah Chen\naliases: []\ntags:\n  - team\ncategory: People\ncreated: 2026-11-29T18:20:11.000Z\nupdated: 2026-11-29T18:20:11.000Z\n' +
        'staleness: 5\nconfidence: 0.8\nsensitivity: personal\nsources:\n  - https://discord.com/channels/1/2/3\nstatus: active\n---\n\n### 2026-11-29\n\nLeads the auth migration.\n',
    );
    // A hand edit (comment + extra text) made before the next save is kept.
    await writeFile(notes('People/Sarah-Chen.md'), created.replace('staleness: 5', 'staleness: 2 # set by me') + '\nHand-written line.\n');
    now = new Date('2026-12-01T09:00:00.000Z');
    const second = await store.saveNote('p', { title: 'sarah chen', body: 'Prefers async reviews.', tags: ['Team', 'reviews'], source: 'voice:1' });
    expect(second).toEqual({ path: 'People/Sarah-Chen.md', created: false });
    const note = await store.readNote('p', 'People/Sarah-Chen');
    expect(note).toMatchObject({ title: 'Sarah Chen', tags: ['team', 'reviews'], updated: '2026-12-01T09:00:00.000Z', staleness: 2, confidence: 0.8, sensitivity: 'personal', category: 'People' });
    expect(note!.body).toBe('### 2026-11-29\n\nLeads the auth migration.\n\nHand-written line.\n\n### 2026-12-01\n\nPrefers async reviews.\n');
    const text = await readFile(notes('People/Sarah-Chen.md'), 'utf8');
    expect(text).toContain('staleness: 2 # set by me');
    expect(text).toContain('  - voice:1');
  });

  it('keeps _index.md deterministic and appends to _log.md', async () => {
    await store.saveNote('p', { title: 'Zed', category: 'Topics', body: 'z', source: 's1' });
    await store.saveNote('p', { title: 'Amy', category: 'People', body: 'a', tags: ['x'], source: 's2' });
    await store.saveNote('p', { title: 'Loose', body: 'l', source: 's3' });
    const index = await readFile(notes('_index.md'), 'utf8');
    expect(index).toContain('## People\n\n- [[People/Amy]] — Amy · tags: x · updated 2026-11-29\n');
    expect(index.indexOf('## People')).toBeLessThan(index.indexOf('## Topics'));
    expect(index).toContain('## Uncategorized\n\n- [[Loose]] — Loose');
    const log = await readFile(notes('_log.md'), 'utf8');
    expect(log.match(/created/g)).toHaveLength(3);
    expect(log).toContain('- 2026-11-29T18:20:11.000Z created People/Amy.md (source: s2)');
    // Same notes → same index bytes, whatever happened in between.
    await store.saveNote('p', { title: 'Temp', body: 't', source: 's4' });
    expect(await store.deleteNote('p', 'Temp.md')).toBe(true);
    expect(await store.deleteNote('p', 'Temp.md')).toBe(false);
    expect(await readFile(notes('_index.md'), 'utf8')).toBe(index);
    expect((await store.listNotes('p')).map((n) => n.path)).toEqual(['Loose.md', 'People/Amy.md', 'Topics/Zed.md']);
  });

  it('rejects hostile note paths and sanitizes hostile titles and categories', async () => {
    for (const bad of ['../project.md', '../../etc/passwd', '/etc/passwd', 'a\u0000b', 'a\\b', `${'n'.repeat(10_000)}.md`, '..', '']) {
      await expect(store.readNote('p', bad)).rejects.toBeInstanceOf(UnsafeNameError);
      await expect(store.deleteNote('p', bad)).rejects.toBeInstanceOf(UnsafeNameError);
    }
    const saved = await store.saveNote('p', { title: '../../etc/passwd', category: '../..', body: 'x', source: 's' });
    expect(saved.path).toBe('Misc/etc-passwd.md');
    const emoji = await store.saveNote('p', { title: '🦄', body: 'x', source: 's' });
    expect(emoji.path).toBe('Untitled.md');
    expect((await readdir(root)).sort()).toEqual(['p']);
    await expect(store.deleteNote('p', '_index.md')).rejects.toBeInstanceOf(UnsafeNameError);
  });

  it('refuses to follow a symlink out of notes/', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret.md'), 'secret');
    await mkdir(notes(), { recursive: true });
    await symlink(outside, notes('Linked'));
    await expect(store.readNote('p', 'Linked/secret.md')).rejects.toBeInstanceOf(UnsafeNameError);
  });

  it('reports broken notes, skips them in lists and never rewrites them', async () => {
    await mkdir(notes('People'), { recursive: true });
    const broken = '---\ntitle: Bad\nconfidence: 7\n---\n\nbody\n';
    await writeFile(notes('People/Bad.md'), broken);
    await writeFile(notes('Plain.md'), 'Just some text about ferrets.\n');
    const { notes: list, problems } = await store.listNotesWithProblems('p');
    expect(list.map((n) => [n.path, n.title])).toEqual([['Plain.md', 'Plain']]);
    expect(problems).toEqual([expect.objectContaining({ path: 'p/notes/People/Bad.md', line: 3 })]);
    await expect(store.readNote('p', 'People/Bad.md')).rejects.toBeInstanceOf(MemoryFileError);
    await expect(store.saveNote('p', { title: 'Bad', category: 'People', body: 'more', source: 's' })).rejects.toBeInstanceOf(MemoryFileError);
    expect(await readFile(notes('People/Bad.md'), 'utf8')).toBe(broken);
    // A plain page gains front matter when Charlie adds to it, keeping its text.
    await store.saveNote('p', { title: 'Plain', body: 'Ferrets sleep a lot.', source: 's' });
    const plain = await store.readNote('p', 'Plain.md');
    expect(plain!.body).toContain('Just some text about ferrets.');
    expect(plain!.body).toContain('### 2026-11-29\n\nFerrets sleep a lot.');
  });

  it('greps case-insensitively for the phrase or all words, with line numbers', async () => {
    await store.saveNote('p', { title: 'JWT Refresh Tokens', category: 'Topics', body: 'We rotate REFRESH tokens daily.\nAccess tokens last 15 minutes.', source: 's' });
    await store.saveNote('p', { title: 'Other', body: 'tokens only', source: 's' });
    const hits = await store.grepNotes('p', 'refresh tokens', 10);
    expect(hits).toEqual([
      { path: 'Topics/JWT-Refresh-Tokens.md', line: 3, text: 'title: JWT Refresh Tokens', sensitivity: 'personal' },
      { path: 'Topics/JWT-Refresh-Tokens.md', line: 19, text: 'We rotate REFRESH tokens daily.', sensitivity: 'personal' },
    ]);
    // a hit carries its page's sensitivity, read from the raw front matter failing closed
    await store.saveNote('p', { title: 'Vault', body: 'the refresh tokens of the vault', source: 's' });
    const vault = (await store.listNotes('p')).find((n) => n.title === 'Vault')!;
    const file = join(root, 'p', 'notes', vault.path);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^sensitivity: \w+$/m, 'sensitivity: sensitive/phi'));
    expect((await store.grepNotes('p', 'vault', 10)).map((h) => h.sensitivity)).toEqual(expect.arrayContaining(['sensitive']));
    expect(await store.grepNotes('p', 'tokens', 1)).toHaveLength(1);
    expect(await store.grepNotes('p', '   ', 10)).toEqual([]);
  });
});
