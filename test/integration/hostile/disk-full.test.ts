/**
 * A disk that fills up (issue 13, item 4) left an acknowledged message archived cut off, with no
 * error. The store writes through a file edge (a parameter), so these tests script a full disk:
 * a handle that writes part of the bytes and then fails with ENOSPC, or stops writing.
 */
import { open, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryUnavailableError } from '../../../src/core/errors.js';
import type { Clock } from '../../../src/core/ports/index.js';
import { parseLog } from '../../../src/memory/archive-format.js';
import type { OpenFile, WritableFile } from '../../../src/files/atomic-write.js';
import { FileProjectStore } from '../../../src/memory/store/project-store.js';
import { makeAssistant } from '../../support/assistant-fixture.js';
import { ScriptedChatModel } from '../../support/fakes.js';
import { tempDirs } from '../../support/temp-dir.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };
const newRoot = tempDirs('charlie-hostile-disk-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

/** A disk with `free` bytes left: writes beyond it write what fits, then fail (ENOSPC) or write 0 bytes. */
function fullDisk(state: { free: number; mode: 'enospc' | 'short' }): OpenFile {
  return async (path, flags, mode) => {
    const real = await open(path, flags, mode);
    const handle: WritableFile = {
      async write(buffer, offset, length, position) {
        if (state.free <= 0) {
          if (state.mode === 'short') return { bytesWritten: 0 };
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        }
        const n = Math.min(length, state.free);
        state.free -= n;
        return real.write(buffer, offset, n, position);
      },
      stat: () => real.stat(),
      truncate: (len) => real.truncate(len),
      sync: () => real.sync(),
      datasync: () => real.datasync(),
      close: () => real.close(),
    };
    return handle;
  };
}

async function logText(slug: string): Promise<string> {
  const files = await readdir(join(root, slug, 'log'));
  return readFile(join(root, slug, 'log', files[0] ?? 'missing'), 'utf8');
}

describe('a full disk', () => {
  it.each(['enospc', 'short'] as const)('an archive append that cannot finish (%s) is an error, and leaves no cut-off entry', async (mode) => {
    const state = { free: Number.POSITIVE_INFINITY, mode };
    const store = new FileProjectStore({ projectsDir: root, clock, openFile: fullDisk(state) });
    const { slug } = await store.ensureProject({ key: 'terminal:disk', name: 'disk' });
    await store.appendLog(slug, { time: '2026-11-29T18:00:00Z', speaker: 'Ann', source: 's:1', text: 'first, saved', role: 'user' });
    const before = await logText(slug);
    state.free = 20;
    const err = await store.appendLog(slug, { time: '2026-11-29T18:01:00Z', speaker: 'Ann', source: 's:2', text: 'second, '.repeat(50), role: 'user' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemoryUnavailableError);
    expect(String(err)).toMatch(/disk is full/);
    expect(String(err)).toContain(join(root, slug, 'log/2026-11-29.md'));
    expect(await logText(slug)).toBe(before);
    expect(parseLog(await logText(slug), '2026-11-29').map((e) => e.text)).toEqual(['first, saved']);
  });

  it('an atomic write that fails leaves the old file and no temp file behind', async () => {
    const state = { free: Number.POSITIVE_INFINITY, mode: 'enospc' as const };
    const store = new FileProjectStore({ projectsDir: root, clock, openFile: fullDisk(state) });
    const { slug } = await store.ensureProject({ key: 'terminal:disk', name: 'disk' });
    const snap = await store.readLayers(slug);
    const before = await readFile(join(root, slug, 'project.md'), 'utf8');
    state.free = 10;
    const err = await store.writeLayers(slug, { summary: 'A new summary. '.repeat(20), decisions: [], quotes: [] }, snap.versions).catch((e: unknown) => e);
    expect(String(err)).toMatch(/disk is full/);
    expect(await readFile(join(root, slug, 'project.md'), 'utf8')).toBe(before);
    expect((await readdir(join(root, slug))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('the person is told: a message that cannot be archived is answered with what happened', async () => {
    const state = { free: Number.POSITIVE_INFINITY, mode: 'enospc' as const };
    const store = new FileProjectStore({ projectsDir: root, clock, openFile: fullDisk(state) });
    const model = new ScriptedChatModel(() => ({ text: 'Noted!' }));
    const { assistant } = makeAssistant({ model, memoryModel: null, store });
    const place = { kind: 'project' as const, origin: { key: 'terminal:disk', name: 'disk' } };
    await assistant.settings.showMemory(place);
    state.free = 5;
    const out = await assistant.conversation.handle({ place, speaker: 'Ann', text: 'Remember the milk', source: 's:1' });
    expect(out.reason).toBe('error');
    expect(out.reply).toMatch(/couldn't save .*disk is full/i);
    expect(model.requests).toHaveLength(0);
  });

  it('a reply that cannot be archived is still given, with a visible notice', async () => {
    const state = { free: Number.POSITIVE_INFINITY, mode: 'enospc' as const };
    const store = new FileProjectStore({ projectsDir: root, clock, openFile: fullDisk(state) });
    const model = new ScriptedChatModel(() => {
      state.free = 0;
      return { text: 'Noted!' };
    });
    const { assistant } = makeAssistant({ model, memoryModel: null, store });
    const place = { kind: 'project' as const, origin: { key: 'terminal:disk', name: 'disk' } };
    const out = await assistant.conversation.handle({ place, speaker: 'Ann', text: 'Remember the milk', source: 's:1' });
    expect(out.reply).toBe('Noted!');
    expect(out.notices).toEqual([expect.stringMatching(/not saved.*disk is full/i)]);
  });
});
