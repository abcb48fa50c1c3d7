/**
 * One scheduler (issue 38): periodic work is a job kind of the durable scheduler, so no module
 * keeps a repeating timer of its own. The source of src/ is parsed (comments and strings do not
 * count) and a `setInterval` — called, taken from `globalThis`, `node:timers` or
 * `node:timers/promises` — may appear only in src/time/ticker.ts, the scheduler's ticker (with
 * its per-connection `heartbeat`). src/main.ts has none. The browser client (src/web/client)
 * runs in the page, not in Charlie's process, and is not scanned. The scanner is tested on
 * counter-examples first.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const TICKER = 'src/time/ticker.ts';
const BROWSER = 'src/web/client/';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [relative('.', p).split('\\').join('/')] : [];
  });
}

/** Lines where the file uses setInterval (a call, a reference, an import of it). */
function intervals(path: string, text: string): number[] {
  if (!text.includes('setInterval')) return []; // (parsing only the files that name it keeps the test fast)
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === 'setInterval') lines.push(file.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === 'setInterval')
      lines.push(file.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...new Set(lines)];
}

describe('the scanner', () => {
  it('finds every way of starting a repeating timer, and ignores comments and strings', () => {
    const found = (code: string) => intervals('x.ts', code).length > 0;
    expect(found('const t = setInterval(() => {}, 1000);')).toBe(true);
    expect(found('globalThis.setInterval(tick, 60_000);')).toBe(true);
    expect(found("globalThis['setInterval'](tick, 60_000);")).toBe(true);
    expect(found("import { setInterval as every } from 'node:timers/promises';\nfor await (const _ of every(1000)) {}")).toBe(true);
    expect(found("import timers from 'node:timers';\ntimers.setInterval(f, 5);")).toBe(true);
    expect(found('// setInterval(tick, 1000) was here\nconst s = "setInterval";')).toBe(false);
    expect(found('setTimeout(loop, 100);')).toBe(false);
  });
});

describe('one scheduler', () => {
  const files = sources('src').filter((p) => !p.startsWith(BROWSER));

  it('scans the process’s sources, the ticker among them', () => {
    expect(files).toContain(TICKER);
    expect(files).toContain('src/main.ts');
    expect(intervals(TICKER, readFileSync(TICKER, 'utf8')).length).toBeGreaterThan(0);
  });

  it('src/main.ts starts no repeating timer', () => {
    expect(intervals('src/main.ts', readFileSync('src/main.ts', 'utf8'))).toEqual([]);
  });

  it('no module but the scheduler’s ticker starts a repeating timer', () => {
    const offenders = files.filter((p) => p !== TICKER).flatMap((p) => intervals(p, readFileSync(p, 'utf8')).map((line) => `${p}:${line}`));
    expect(offenders).toEqual([]);
  });
});
