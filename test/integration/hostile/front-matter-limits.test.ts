/**
 * Hostile front matter (issue 13, item 4): an alias bomb, a huge block or deep nesting in one
 * project's files is reported like any broken file (path:line) and never takes down the others.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/ports/index.js';
import { chunkPage } from '../../../src/memory/index/chunker.js';
import { FileProjectStore } from '../../../src/memory/store/project-store.js';
import { tempDirs } from '../../support/temp-dir.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };
const newRoot = tempDirs('charlie-hostile-fm-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

const project = (name: string, extra: string) => `---\nschema: 1\nid: ${name}-id\nname: ${name}\nkeys:\n  - terminal:${name}\n${extra}---\n\nSummary of ${name}.\n`;
const aliasBomb = `anchor: &a [1, 2, 3]\nbomb:\n${Array.from({ length: 150 }, () => '  - *a').join('\n')}\n`;
const deep = `deep: ${'['.repeat(200)}${']'.repeat(200)}\n`;
const huge = `padding: "${'x'.repeat(300_000)}"\n`;

async function writeProject(slug: string, text: string) {
  await mkdir(join(root, slug), { recursive: true });
  await writeFile(join(root, slug, 'project.md'), text);
}

describe('front matter with limits', () => {
  it.each([
    // The 21st alias is on line 29; the deep value on line 7; a too-large block at its opening fence.
    ['an alias bomb', aliasBomb, /alias/i, 29],
    ['nesting 200 levels deep', deep, /nest/i, 7],
    ['300 KB of front matter', huge, /KB/, 1],
  ])('%s in one project.md is reported with path and line, and other projects keep working', async (_label, extra, message, line) => {
    await writeProject('bomb', project('bomb', extra));
    await writeProject('fine', project('fine', ''));
    const store = new FileProjectStore({ projectsDir: root, clock });
    // A new channel, and an existing healthy one, still open.
    const fresh = await store.ensureProject({ key: 'terminal:new', name: 'new' });
    expect(fresh.slug).toBe('new');
    const fine = await store.ensureProject({ key: 'terminal:fine', name: 'fine' });
    expect(fine.slug).toBe('fine');
    expect((await store.readLayers('fine')).layers.summary).toBe('Summary of fine.');
    // The hostile one is reported like any broken file, and its own channel still works on defaults.
    const got = await store.getProject('bomb');
    expect(got?.problems).toHaveLength(1);
    expect(got?.problems[0]?.path).toBe('bomb/project.md');
    expect(got?.problems[0]?.line).toBe(line);
    expect(got?.problems[0]?.message).toMatch(message);
    const own = await store.ensureProject({ key: 'terminal:bomb', name: 'bomb' });
    expect(own.slug).toBe('bomb');
  });

  it('an alias bomb in a note is reported and the other notes are listed', async () => {
    await writeProject('fine', project('fine', ''));
    await mkdir(join(root, 'fine/notes/People'), { recursive: true });
    await writeFile(join(root, 'fine/notes/People/Bomb.md'), `---\ntitle: Bomb\n${aliasBomb}---\n\nbody\n`);
    await writeFile(join(root, 'fine/notes/People/Sarah.md'), `---\ntitle: Sarah\n---\n\nLeads design.\n`);
    const store = new FileProjectStore({ projectsDir: root, clock });
    const { notes, problems } = await store.listNotesWithProblems('fine');
    expect(notes.map((n) => n.title)).toEqual(['Sarah']);
    expect(problems).toEqual([expect.objectContaining({ path: 'fine/notes/People/Bomb.md', message: expect.stringMatching(/alias/i) })]);
    await expect(store.readNote('fine', 'People/Bomb.md')).rejects.toThrow(/Bomb\.md:\d+: .*alias/i);
  });

  it('the indexer reads the body of a page whose front matter is an alias bomb, without expanding it', () => {
    const chunks = chunkPage('notes/Bomb.md', `---\ntitle: Bomb\n${aliasBomb}---\n\nThe body is still searchable.\n`);
    expect(chunks.map((c) => c.text).join('\n')).toContain('The body is still searchable.');
  });
});
