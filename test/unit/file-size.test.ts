/**
 * Rules of the shape of src that drifted as soon as no test kept them (issue 37):
 * - no file in src over 400 lines; the only way past is a reason in a comment at the top of the
 *   file (`size: <why>` in its first comment), which a reviewer then reads;
 * - docs/architecture.md names every folder of src (and bin/), so a newcomer finds each one there.
 * Each rule is tested on a counter-example first.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 400;

function walk(dir: string): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      dirs.push(p);
      const inner = walk(p);
      files.push(...inner.files);
      dirs.push(...inner.dirs);
    } else if (/\.tsx?$/.test(name)) files.push(p);
  }
  return { files, dirs };
}

/** A file's lines, or 0 when its first comment gives a reason to be longer (`size: …`). */
function overLimit(text: string): number {
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const opening = /^\s*(\/\*[\s\S]*?\*\/|(?:\/\/[^\n]*\n)+)/.exec(text)?.[1] ?? '';
  return lines > MAX_LINES && !/\bsize:\s*\S/.test(opening) ? lines : 0;
}

/** The folders a doc names: `src/x/`, `src/x/y` or `bin/` as written; a file's path (`src/x/y.ts`) names no folder. */
function namedFolders(doc: string): Set<string> {
  return new Set([...doc.matchAll(/\b(bin|src(?:\/[\w-]+)+)(?:\/(?![\w.-])|(?![\w./-]))/g)].map((m) => m[1]!));
}

describe('the shape of src', () => {
  it('the size rule counts lines and takes a reason only from the opening comment', () => {
    const long = (head: string) => `${head}${'const x = 1;\n'.repeat(MAX_LINES + 1)}`;
    expect(overLimit(long(''))).toBe(MAX_LINES + 1);
    expect(overLimit(long('/**\n * The parser.\n * size: one state machine; split, its states would be passed around.\n */\n'))).toBe(0);
    expect(overLimit(long('// size: generated tables\n'))).toBe(0);
    expect(overLimit(`${long('')}// size: too late, not at the top\n`)).toBeGreaterThan(0);
    expect(overLimit('const x = 1;\n'.repeat(MAX_LINES))).toBe(0);
  });

  it(`no file in src is over ${MAX_LINES} lines without a reason at its top`, () => {
    const { files } = walk('src');
    expect(files.length).toBeGreaterThan(300);
    const over = files.map((f) => ({ f, n: overLimit(readFileSync(f, 'utf8')) })).filter((x) => x.n > 0);
    expect(over.map((x) => `${x.f}: ${x.n} lines`)).toEqual([]);
  });

  it('the doc check finds folders written with and without a slash', () => {
    const named = namedFolders('src/core/ holds it; `src/time/calendar` and bin/ too, not src, binary, src/main.ts or src/memory/graph/wiki.ts.');
    expect([...named].sort()).toEqual(['bin', 'src/core', 'src/time/calendar']);
  });

  it('docs/architecture.md names every folder of src (an icons/ folder of assets aside) and bin/, and none that is gone', () => {
    const doc = readFileSync('docs/architecture.md', 'utf8');
    const named = namedFolders(doc);
    const folders = walk('src')
      .dirs.map((d) => relative('.', d).split('\\').join('/'))
      // a folder of the browser client's assets is its parent's business
      .filter((d) => !/\/icons$/.test(d));
    const missing = [...folders, 'bin'].filter((d) => !named.has(d) && !named.has(`${d}/`));
    expect(missing).toEqual([]);
    // and it names none that is gone (a line that says "planned" may name a folder still to come)
    const current = namedFolders(
      doc
        .split('\n')
        .filter((l) => !/\bplanned\b/.test(l))
        .join('\n'),
    );
    const gone = [...current].filter((d) => d.startsWith('src/') && !folders.includes(d));
    expect(gone).toEqual([]);
  });
});
