import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnsafeNameError } from '../../src/core/errors.js';
import { silentLogger, type Clock } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { MemoryFileError } from '../../src/memory/store/memory-errors.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { writePage, writePageReport } from '../support/pages.js';

let now = new Date('2026-11-29T18:20:11.000Z');
const clock: Clock = { now: () => now };
let root: string;
let store: FileProjectStore;
let wiki: Wiki;
const notes = (rel = '') => join(root, 'p/notes', rel);

beforeEach(async () => {
  now = new Date('2026-11-29T18:20:11.000Z');
  root = await mkdtemp(join(tmpdir(), 'charlie-notes-'));
  wiki = new Wiki({ projectsDir: root, clock, logger: silentLogger });
  store = new FileProjectStore({ projectsDir: root, clock, pages: wiki.pages });
  await store.ensureProject({ name: 'p', key: 'k' });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('notes (read by the store, written by the knowledge graph)', () => {
  it('reads a legacy schema-1 page with dated entries, keeping hand edits', async () => {
    await mkdir(notes('People'), { recursive: true });
    const legacy =
      '---\nschema: 1\ntitle: Sarah Chen\naliases: []\ntags:\n  - team\ncategory: People\ncreated: 2026-11-29T18:20:11.000Z\nupdated: 2026-12-01T09:00:00.000Z\n' +
      'staleness: 2 # set by me\nconfidence: 0.8\nsensitivity: personal\nsources:\n  - https://discord.com/channels/1/2/3\nstatus: active\n---\n\n### 2026-11-29\n\nLeads the auth migration.\n\nHand-written line.\n';
    await writeFile(notes('People/Sarah-Chen.md'), legacy);
    const note = await store.readNote('p', 'People/Sarah-Chen');
    expect(note).toMatchObject({ title: 'Sarah Chen', tags: ['team'], updated: '2026-12-01T09:00:00.000Z', staleness: 2, confidence: 0.8, sensitivity: 'personal', category: 'People' });
    expect(note!.body).toBe('### 2026-11-29\n\nLeads the auth migration.\n\nHand-written line.\n');
    // the graph adds to it as a record, and leaves the legacy text and the comment alone
    await writePage(wiki, 'p', { title: 'sarah chen', facts: ['Prefers async reviews.'], source: 'voice:1' });
    const text = await readFile(notes('People/Sarah-Chen.md'), 'utf8');
    expect(text).toContain('staleness: 2 # set by me');
    expect(text).toContain('Leads the auth migration.\n\nHand-written line.');
    expect(text).toMatch(/^- Prefers async reviews\..*\[source:: voice:1\]/m);
  });

  it('keeps _index.md deterministic and appends to _log.md', async () => {
    await writePage(wiki, 'p', { title: 'Zed', category: 'Topics', facts: ['Zed is a topic.'], source: 's1' });
    await writePage(wiki, 'p', { title: 'Amy', category: 'People/Friends', facts: ['Amy climbs.'], source: 's2' });
    await writePage(wiki, 'p', { title: 'Loose', category: 'Misc', facts: ['Loose ends.'], source: 's3' });
    const index = await readFile(notes('_index.md'), 'utf8');
    expect(index).toContain('## People/Friends\n\n- [[People/Friends/Amy]] — Amy · updated 2026-11-29\n');
    expect(index.indexOf('## Misc')).toBeLessThan(index.indexOf('## People/Friends'));
    expect(index.indexOf('## People/Friends')).toBeLessThan(index.indexOf('## Topics'));
    const log = await readFile(notes('_log.md'), 'utf8');
    expect(log.match(/ created /g)).toHaveLength(3);
    expect(log).toContain('- 2026-11-29T18:20:11.000Z created People/Friends/Amy.md (source: test)');
    // Same notes → same index bytes, whatever happened in between.
    const temp = await writePage(wiki, 'p', { title: 'Temp', category: 'Misc', facts: ['Temporary.'], source: 's4' });
    expect(await readFile(notes('_index.md'), 'utf8')).not.toBe(index);
    expect(await wiki.pages.deletePage('p', temp, 'test')).toBe(true);
    expect(await wiki.pages.deletePage('p', temp, 'test')).toBe(false);
    expect(await readFile(notes('_index.md'), 'utf8')).toBe(index);
    expect((await store.listNotes('p')).map((n) => n.path)).toEqual(['Misc/Loose.md', 'People/Friends/Amy.md', 'Topics/Zed.md']);
  });

  it('rejects hostile note paths and keeps hostile titles and categories inside notes/', async () => {
    for (const bad of ['../project.md', '../../etc/passwd', '/etc/passwd', 'a\u0000b', 'a\\b', `${'n'.repeat(10_000)}.md`, '..']) {
      await expect(store.readNote('p', bad)).rejects.toBeInstanceOf(UnsafeNameError);
      await expect(wiki.pages.deletePage('p', bad, 'test')).rejects.toBeInstanceOf(UnsafeNameError);
    }
    await expect(store.readNote('p', '')).rejects.toBeInstanceOf(UnsafeNameError);
    const saved = await writePage(wiki, 'p', { title: '../../etc/passwd', category: '../..', facts: ['x marks it.'] });
    expect(saved).not.toMatch(/\.\./);
    expect((await readdir(root)).sort()).toEqual(['p']);
    expect((await store.listNotes('p')).map((n) => n.path)).toEqual([saved]);
    await expect(wiki.pages.deletePage('p', '_index.md', 'test')).rejects.toBeInstanceOf(UnsafeNameError);
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
    const refused = await writePageReport(wiki, 'p', { title: 'Bad', category: 'People', facts: ['Bad has more.'] });
    expect(refused.created.concat(refused.updated)).toEqual([]);
    expect(await readFile(notes('People/Bad.md'), 'utf8')).toBe(broken);
    // A plain page gains front matter when Charlie adds to it, keeping its text.
    expect(await writePage(wiki, 'p', { title: 'Plain', facts: ['Ferrets sleep a lot.'] })).toBe('Plain.md');
    const plain = await store.readNote('p', 'Plain.md');
    expect(plain!.body).toContain('Just some text about ferrets.');
    expect(plain!.body).toContain('Ferrets sleep a lot.');
  });

  it('greps case-insensitively for the phrase or all words, with line numbers', async () => {
    const jwt = await writePage(wiki, 'p', { title: 'JWT Refresh Tokens', category: 'Topics', facts: ['We rotate REFRESH tokens daily.', 'Access tokens last 15 minutes.'] });
    await writePage(wiki, 'p', { title: 'Other', category: 'Topics', facts: ['Tokens only.'] });
    const lines = (await readFile(notes(jwt), 'utf8')).split('\n');
    const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    const hits = await store.grepNotes('p', 'refresh tokens', 10);
    expect(hits).toEqual([
      { path: jwt, line: lineOf('title: JWT Refresh Tokens'), text: 'title: JWT Refresh Tokens', sensitivity: 'personal' },
      { path: jwt, line: lineOf('We rotate REFRESH'), text: lines[lineOf('We rotate REFRESH') - 1]!.trim(), sensitivity: 'personal' },
    ]);
    expect(hits[1]!.line).toBeGreaterThan(hits[0]!.line);
    // a hit carries its page's sensitivity, read from the raw front matter failing closed
    const vault = await writePage(wiki, 'p', { title: 'Vault', category: 'Topics', facts: ['The refresh tokens of the vault.'] });
    const file = join(root, 'p', 'notes', vault);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^sensitivity: \w+$/m, 'sensitivity: sensitive/phi'));
    expect((await store.grepNotes('p', 'vault', 10)).map((h) => h.sensitivity)).toEqual(expect.arrayContaining(['sensitive']));
    expect(await store.grepNotes('p', 'tokens', 1)).toHaveLength(1);
    expect(await store.grepNotes('p', '   ', 10)).toEqual([]);
  });
});
