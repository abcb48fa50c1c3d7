import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Clock, Logger } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { tempDirs } from '../support/temp-dir.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };

function recordingLogger(lines: { level: string; obj: unknown; msg?: string }[]): Logger {
  const log = (level: string) => (obj: object | string, msg?: string) => void lines.push({ level, obj, ...(msg ? { msg } : {}) });
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), child: () => logger };
  return logger;
}

const newRoot = tempDirs('charlie-problems-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

const BAD_YAML = '---\nschema: 1\nid: abc\nname: broken\nkeys: [terminal:broken\nstyle: x\n---\n\nThe summary survives.\n';
const BAD_SCHEMA = '---\nschema: 1\nid: abc\nname: wrong\nkeys:\n  - terminal:wrong\nrespond: sometimes\n---\n\nSummary.\n';

async function everyOperation(store: FileProjectStore, slug: string) {
  const settle = (p: Promise<unknown>) =>
    p.then(
      (v) => ({ ok: true, v }),
      (e: unknown) => ({ ok: false, e }),
    );
  const snap = await store.readLayers(slug);
  return {
    snap,
    results: [
      await settle(store.getProject(slug)),
      await settle(store.writeLayers(slug, { summary: 'overwrite!', decisions: [], quotes: [] }, snap.versions)),
      await settle(store.updateProject(slug, { style: 'x' })),
      await settle(store.setDistillCursor(slug, { file: '2026-11-29.md', offset: 0 })),
      await settle(store.getDistillCursor(slug)),
      await settle(store.appendLog(slug, { time: '2026-11-29T18:00:00Z', speaker: 'a', source: 's', text: 't', role: 'user' })),
      await settle(store.listNotes(slug)),
    ],
  };
}

/** A store over the test root holding the project `origin`, whose `file` (under the root) is then overwritten with `text`. */
async function projectWithFile(origin: { name: string; key: string }, file: string, text: string): Promise<FileProjectStore> {
  const store = new FileProjectStore({ projectsDir: root, clock });
  await store.ensureProject(origin);
  await writeFile(join(root, file), text);
  return store;
}

describe('files that do not parse', () => {
  it('reports bad YAML with path and line, keeps working on defaults, and never rewrites the file', async () => {
    const lines: { level: string; obj: unknown; msg?: string }[] = [];
    const store = new FileProjectStore({ projectsDir: root, clock, logger: recordingLogger(lines), defaults: { distillEvery: 7 } });
    await mkdir(join(root, 'broken'));
    const path = join(root, 'broken/project.md');
    await writeFile(path, BAD_YAML);
    const got = await store.getProject('broken');
    expect(got?.config).toMatchObject({ slug: 'broken', distillEvery: 7, archive: true, respond: 'always' });
    expect(got?.problems).toHaveLength(1);
    expect(got?.problems[0]).toMatchObject({ path: 'broken/project.md', line: 6 });
    expect(got?.problems[0]!.message).toMatch(/not valid YAML/);
    const { snap, results } = await everyOperation(store, 'broken');
    expect(snap.layers.summary).toBe('The summary survives.');
    expect(results[1]).toMatchObject({ ok: true, v: { ok: false, reason: 'invalid', paths: ['broken/project.md'] } });
    expect(results[2]!.ok).toBe(false);
    expect(results[3]!.ok).toBe(false);
    expect(results[4]).toEqual({ ok: true, v: null });
    expect(await readFile(path, 'utf8')).toBe(BAD_YAML);
    expect(lines.some((l) => l.level === 'warn' && JSON.stringify(l.obj).includes('broken/project.md') && JSON.stringify(l.obj).includes('"line":6'))).toBe(true);
    // The origin's key still finds the broken project instead of creating a duplicate.
    expect((await store.ensureProject({ name: 'broken', key: 'terminal:broken' })).slug).toBe('broken');
    expect(await readFile(path, 'utf8')).toBe(BAD_YAML);
  });

  it('keeps using a broken project whose keys were lost when its folder matches the origin name', async () => {
    const broken = '---\nname: general\nstyle: [unclosed\n---\nsummary\n';
    const store = await projectWithFile({ name: 'General', key: 'terminal:general' }, 'general/project.md', broken);
    const again = await store.ensureProject({ name: 'General', key: 'terminal:general' });
    expect(again.slug).toBe('general');
    expect((await readdir(root)).sort()).toEqual(['general']);
    expect(await readFile(join(root, 'general/project.md'), 'utf8')).toBe(broken);
  });

  it('reports front matter failing the schema at the offending line', async () => {
    const store = new FileProjectStore({ projectsDir: root, clock });
    await mkdir(join(root, 'wrong'));
    const path = join(root, 'wrong/project.md');
    await writeFile(path, BAD_SCHEMA);
    const got = await store.getProject('wrong');
    expect(got?.problems[0]).toMatchObject({ path: 'wrong/project.md', line: 7 });
    expect(got?.problems[0]!.message).toMatch(/respond/);
    await everyOperation(store, 'wrong');
    expect(await readFile(path, 'utf8')).toBe(BAD_SCHEMA);
  });

  it('refuses the whole layer write when decisions.md holds prose it does not understand', async () => {
    const decisions = '# Decisions\n\n- **2026-11-29** — Keep it\n\nSome prose a person wrote here.\n';
    const store = await projectWithFile({ name: 'p', key: 'k' }, 'p/decisions.md', decisions);
    const project = await readFile(join(root, 'p/project.md'), 'utf8');
    const snap = await store.readLayers('p');
    expect(snap.layers.decisions).toEqual([{ date: '2026-11-29', text: 'Keep it', source: '' }]);
    expect(snap.problems).toEqual([expect.objectContaining({ path: 'p/decisions.md', line: 5 })]);
    const outcome = await store.writeLayers('p', { summary: 'new', decisions: [], quotes: [] }, snap.versions);
    expect(outcome).toMatchObject({ ok: false, reason: 'invalid', paths: ['p/decisions.md'] });
    expect(await readFile(join(root, 'p/decisions.md'), 'utf8')).toBe(decisions);
    expect(await readFile(join(root, 'p/project.md'), 'utf8')).toBe(project);
  });
});
