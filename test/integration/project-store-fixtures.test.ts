/**
 * Every example project in test/fixtures/projects is read or rejected as documented in
 * projects/README.md. The fixtures are copied to a temp dir first: they stay read-only.
 */
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/projects');
const clock: Clock = { now: () => new Date('2026-12-01T00:00:00.000Z') };
let root: string;
let store: FileProjectStore;

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) {
      const p = join(e.parentPath, e.name);
      out[relative(dir, p)] = await readFile(p, 'utf8');
    }
  }
  return out;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-fixtures-'));
  await cp(FIXTURES, root, { recursive: true });
  store = new FileProjectStore({ projectsDir: root, clock });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('fixture projects', () => {
  it('auth-rewrite: a complete, valid project', async () => {
    const got = await store.getProject('auth-rewrite');
    expect(got?.problems).toEqual([]);
    expect(got?.config).toMatchObject({
      name: 'auth-rewrite',
      style: 'Short answers, British spelling.',
      respond: 'mention',
      discord: { guildId: '111111111111111111', channelIds: ['222222222222222222'] },
    });
    const layers = await store.readLayers('auth-rewrite');
    expect(layers.problems).toEqual([]);
    expect(layers.layers.summary).toMatch(/^The team is replacing session cookies/);
    expect(layers.layers.decisions.map((d) => d.date)).toEqual(['2026-11-21', '2026-11-29']);
    expect(layers.layers.quotes[0]).toMatchObject({ speaker: 'Sarah Chen', text: "If it isn't revocable, it isn't done." });
    const cursor = await store.getDistillCursor('auth-rewrite');
    expect(cursor).toMatchObject({ file: '2026-11-29.md', offset: 179 });
    expect((await store.readLogSince('auth-rewrite', cursor)).entries.map((e) => e.role)).toEqual(['assistant']);
    const notes = await store.listNotesWithProblems('auth-rewrite');
    expect(notes.notes.map((n) => n.path)).toEqual(['People/Sarah-Chen.md', 'Plain-Page.md', 'Topics/JWT-Refresh-Tokens.md']);
    expect(notes.problems).toEqual([expect.objectContaining({ path: 'auth-rewrite/notes/Broken/Bad-Front-Matter.md', line: 3 })]);
    expect((await store.ensureProject({ name: 'renamed', key: 'discord:111111111111111111:222222222222222222' })).slug).toBe('auth-rewrite');
  });

  it('hand-edited: variations are understood, unquoted snowflakes keep every digit', async () => {
    const got = await store.getProject('hand-edited');
    expect(got?.problems).toEqual([]);
    expect(got?.config.discord).toEqual({ guildId: '111111111111111111', channelIds: ['222222222222222223'] });
    const { layers, problems } = await store.readLayers('hand-edited');
    expect(problems).toEqual([]);
    expect(layers.summary).toBe('Summary written by hand, no blank line after the front matter.');
    expect(layers.decisions).toEqual([
      { date: '2026-11-01', text: 'Move to Postgres', source: '' },
      { date: '2026-11-02', text: 'Drop MySQL (licensing, see thread)', source: '' },
      { date: '', text: 'An undated decision with no source', source: '' },
    ]);
    expect(layers.quotes).toEqual([
      { text: 'Smart quotes are fine.', speaker: 'Dan', date: '', source: '' },
      { text: 'A quote nobody attributed.', speaker: '', date: '', source: '' },
    ]);
  });

  it.each([
    ['bad-yaml', 6, /not valid YAML/],
    ['bad-schema', 2, /schema/],
    ['no-front-matter', 1, /no front matter/],
  ])('%s: project.md is reported at line %i and never rewritten', async (slug, line, message) => {
    const before = await snapshot(join(root, slug));
    const got = await store.getProject(slug);
    expect(got?.problems).toEqual([expect.objectContaining({ path: `${slug}/project.md`, line, message: expect.stringMatching(message) })]);
    const snap = await store.readLayers(slug);
    expect(await store.writeLayers(slug, { summary: 'x', decisions: [], quotes: [] }, snap.versions)).toMatchObject({ ok: false, reason: 'invalid' });
    await expect(store.updateProject(slug, { style: 'x' })).rejects.toThrow(/will not overwrite/);
    await expect(store.setDistillCursor(slug, { file: '2026-11-29.md', offset: 0 })).rejects.toThrow();
    expect(await snapshot(join(root, slug))).toEqual(before);
  });

  it('prose-in-decisions: the paragraph is reported and the layers are not rewritten', async () => {
    const before = await snapshot(join(root, 'prose-in-decisions'));
    const snap = await store.readLayers('prose-in-decisions');
    expect(snap.problems).toEqual([expect.objectContaining({ path: 'prose-in-decisions/decisions.md', line: 5 })]);
    expect(await store.writeLayers('prose-in-decisions', snap.layers, snap.versions)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(await snapshot(join(root, 'prose-in-decisions'))).toEqual(before);
  });

  it('covers every fixture folder', async () => {
    expect((await readdir(FIXTURES)).filter((f) => !f.includes('.')).sort()).toEqual(['auth-rewrite', 'bad-schema', 'bad-yaml', 'hand-edited', 'no-front-matter', 'prose-in-decisions']);
  });
});
