/**
 * The synchronous atomic writer (src/files/atomic-write.ts), which replaced four hand-rolled
 * temp-and-rename writers: it writes whole, leaves no temp file, sets the mode asked for, and a
 * failed write leaves the old file as it was.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryUnavailableError } from '../../src/core/errors.js';
import { writeFileAtomicSync } from '../../src/files/atomic-write.js';
import { tempDirs } from '../support/temp-dir.js';

const newDir = tempDirs('charlie-atomic-sync-');

describe('writeFileAtomicSync', () => {
  it('replaces a file whole, with no temp file left and the mode asked for', () => {
    const dir = newDir();
    const file = join(dir, 'state.json');
    writeFileSync(file, 'old');
    const text = `${'é'.repeat(100_000)}\n`;
    writeFileAtomicSync(file, text, { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual(['state.json']);
    writeFileAtomicSync(join(dir, 'secret'), 'x', { mode: 0o600 });
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
  });

  it('a write that cannot happen throws a MemoryUnavailableError and leaves the old file and no temp file', () => {
    const dir = newDir();
    const target = join(dir, 'is-a-folder');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    expect(() => writeFileAtomicSync(target, 'new')).toThrow(MemoryUnavailableError);
    expect(readdirSync(dir)).toEqual(['is-a-folder']);
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
    expect(() => writeFileAtomicSync(join(dir, 'missing', 'x.json'), 'new')).toThrow(/Couldn't save/);
    expect(readdirSync(dir)).toEqual(['is-a-folder']);
  });
});
