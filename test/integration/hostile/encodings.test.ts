/**
 * Files saved as Latin-1 or UTF-16 (issue 13, item 4) were reported as "kept changing while
 * Charlie tried to update it" on every write: the hash of the text read (decoded as UTF-8, with
 * replacement characters) never matched the hash of the bytes on disk. Now the encoding is
 * detected and the file is reported with what is wrong, and never rewritten.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, type Clock } from '../../../src/core/ports/index.js';
import { Wiki } from '../../../src/memory/graph/wiki.js';
import { writePageReport } from '../../support/pages.js';
import { FileProjectStore } from '../../../src/memory/store/project-store.js';
import { tempDirs } from '../../support/temp-dir.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };
const newRoot = tempDirs('charlie-hostile-enc-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

const projectText = '---\nschema: 1\nid: cafe-id\nname: Café\nkeys:\n  - terminal:cafe\nstyle: ""\n---\n\nThe café summary.\n';
const utf16 = (text: string, bom = true) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);

describe('files that are not UTF-8', () => {
  it.each([
    ['Latin-1', Buffer.from(projectText, 'latin1'), /not valid UTF-8.*line 4.*Latin-1/],
    ['UTF-16 with a byte order mark', utf16(projectText), /UTF-16/],
    ['UTF-16 without a byte order mark', utf16(projectText, false), /UTF-16/],
  ])('project.md in %s is reported as such, never as "kept changing", and left untouched', async (_label, bytes, message) => {
    await mkdir(join(root, 'cafe'));
    await writeFile(join(root, 'cafe/project.md'), bytes);
    await mkdir(join(root, 'fine'));
    await writeFile(join(root, 'fine/project.md'), projectText.replace(/cafe/g, 'fine').replace('Café', 'Fine'));
    const store = new FileProjectStore({ projectsDir: root, clock });
    const got = await store.getProject('cafe');
    expect(got?.problems[0]).toMatchObject({ path: 'cafe/project.md', message: expect.stringMatching(message) });
    const err = await store.updateProject('cafe', { style: 'terse' }).catch((e: unknown) => e);
    expect(String(err)).toMatch(message);
    expect(String(err)).not.toMatch(/kept changing/);
    expect((await readFile(join(root, 'cafe/project.md'))).equals(bytes)).toBe(true);
    // The channel keeps its folder, and other projects are not affected.
    expect((await store.ensureProject({ key: 'terminal:cafe', name: 'Café' })).slug).toBe('cafe');
    await expect(store.updateProject('fine', { style: 'terse' })).resolves.toMatchObject({ style: 'terse' });
  });

  it('decisions.md in Latin-1: reading reports it, writing the layers refuses and says why', async () => {
    const store = new FileProjectStore({ projectsDir: root, clock });
    const { slug } = await store.ensureProject({ key: 'terminal:cafe', name: 'cafe' });
    const bytes = Buffer.from('# Decisions\n\n- **2026-11-29** — Meet at the café\n', 'latin1');
    await writeFile(join(root, slug, 'decisions.md'), bytes);
    const snap = await store.readLayers(slug);
    expect(snap.problems).toEqual([expect.objectContaining({ path: `${slug}/decisions.md`, line: 3, message: expect.stringMatching(/not valid UTF-8/) })]);
    const out = await store.writeLayers(slug, { summary: 's', decisions: [], quotes: [] }, snap.versions);
    expect(out).toMatchObject({ ok: false, reason: 'invalid', message: expect.stringMatching(/decisions\.md:3 .*UTF-8/) });
    expect((await readFile(join(root, slug, 'decisions.md'))).equals(bytes)).toBe(true);
  });

  it('a note in UTF-16: listed as a problem, saving to it says why, and search skips it', async () => {
    const store = new FileProjectStore({ projectsDir: root, clock });
    const { slug } = await store.ensureProject({ key: 'terminal:cafe', name: 'cafe' });
    await mkdir(join(root, slug, 'notes/People'), { recursive: true });
    await writeFile(join(root, slug, 'notes/People/Zoe.md'), utf16('---\ntitle: Zoe\n---\n\nLikes the café.\n'));
    await writeFile(join(root, slug, 'notes/People/Sam.md'), '---\ntitle: Sam\n---\n\nLikes the café too.\n');
    const { notes, problems } = await store.listNotesWithProblems(slug);
    expect(notes.map((n) => n.title)).toEqual(['Sam']);
    expect(problems).toEqual([expect.objectContaining({ path: `${slug}/notes/People/Zoe.md`, message: expect.stringMatching(/UTF-16/) })]);
    expect((await store.grepNotes(slug, 'café', 5)).map((h) => h.path)).toEqual(['People/Sam.md']);
    await expect(store.readNote(slug, 'People/Zoe.md')).rejects.toThrow(/UTF-16/);
    const wiki = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    const report = await writePageReport(wiki, slug, { title: 'Zoe', category: 'People', facts: ['Moved to Lyon.'] });
    expect(report.created.concat(report.updated)).toEqual([]);
    expect(report.refused).toEqual([{ item: 'People/Zoe.md', reason: expect.stringMatching(/UTF-16/) }]);
    await expect(store.readNote(slug, 'People/Zoe.md')).rejects.toThrow(/UTF-16/);
  });
});
