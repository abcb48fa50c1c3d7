/**
 * The hand-edit check reads `_log.md` as it grows (src/memory/graph/log-state.ts): after any
 * sequence of appends, half-written lines and rewrites, it holds what a whole read would give.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogState } from '../../src/memory/graph/log-state.js';
import { formatLogLine } from '../../src/memory/notes/note-index.js';
import { parseRecordEvents, parseRenames } from '../../src/memory/records/history.js';
import { loggedEdits } from '../../src/memory/records/provenance.js';
import { mulberry32 } from '../../scripts/bench-util.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function randomLine(rand: () => number, i: number): string {
  const time = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const page = `People/P${Math.floor(rand() * 8)}.md`;
  const r = rand();
  if (r < 0.4) return formatLogLine({ time, action: 'edited', path: `${page}#^r-${Math.floor(rand() * 50)}`, source: 'hand edit', detail: `statement now r-${i}` });
  if (r < 0.6) return formatLogLine({ time, action: 'renamed', path: `${page} → People/Q${Math.floor(rand() * 8)}.md`, source: 'hand edit' });
  if (r < 0.8) return formatLogLine({ time, action: 'added', path: `${page}#^r-${i}`, source: 'terminal:1', detail: 'ok' });
  return formatLogLine({ time, action: 'updated', path: page, source: 'terminal' });
}

describe('the log read as it grows', () => {
  it.each([1, 2, 3])('holds what a whole read gives after appends, partial lines and rewrites (seed %i)', async (seed) => {
    const rand = mulberry32(seed);
    const dir = mkdtempSync(join(tmpdir(), 'charlie-log-'));
    dirs.push(dir);
    const file = join(dir, '_log.md');
    const state = new LogState(file);
    let text = '';
    let pending = '';
    expect((await state.read()).logged.size).toBe(0); // no log yet
    for (let step = 0; step < 80; step++) {
      const r = rand();
      if (r < 0.7) {
        const lines = Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, k) => randomLine(rand, step * 10 + k)).join('');
        // sometimes the last line is half written when the check looks
        const cut = pending === '' && rand() < 0.3 ? Math.floor(rand() * lines.length) : lines.length;
        appendFileSync(file, pending + lines.slice(0, cut));
        text += pending + lines.slice(0, cut);
        pending = lines.slice(cut);
      } else if (r < 0.8) {
        // a person rewrites the log (same size or shorter): read whole again
        const lines = text.split('\n');
        text = lines.filter(() => rand() < 0.7).join('\n');
        pending = '';
        writeFileSync(file, text);
      }
      const whole = text.slice(0, text.lastIndexOf('\n') + 1);
      const got = await state.read();
      expect([...got.logged].sort()).toEqual([...loggedEdits(parseRecordEvents(whole))].sort());
      expect(got.renamed).toEqual(parseRenames(whole));
    }
  });
});
