/**
 * project.md is parsed once per text: a turn reads it several times. A hand edit (new text) is
 * parsed again, and a patch parses a copy of its own, so the cached document is never edited.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-project-cache-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('project.md read again', () => {
  it('sees a hand edit, and a patch after cached reads changes only what it patched', async () => {
    const store = new FileProjectStore({ projectsDir: join(root, 'projects'), clock });
    const { slug } = await store.ensureProject({ name: 'Home', key: 'terminal:home' });
    const file = join(root, 'projects', slug, 'project.md');
    expect((await store.getProject(slug))!.config.style).toBe('');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^style: .*$/m, 'style: "brief"'));
    expect((await store.getProject(slug))!.config.style).toBe('brief');
    expect((await store.getProject(slug))!.config.style).toBe('brief');
    await store.updateProject(slug, { distillEvery: 7 });
    const after = (await store.getProject(slug))!.config;
    expect(after.distillEvery).toBe(7);
    expect(after.style).toBe('brief');
    await store.updateProject(slug, { style: 'chatty' });
    expect((await store.getProject(slug))!.config).toMatchObject({ style: 'chatty', distillEvery: 7 });
  });
});
