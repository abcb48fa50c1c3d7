/**
 * Every field Charlie logs is placed by what it carries (eighth outside sweep: a project's name
 * reached the log at info before the memory lane labelled it). The source of src/ is parsed and
 * every logger call at info and above, and every child logger's bindings, is read: each field's
 * key must be in one of logging.ts's three sets — message or model text (shown at debug), a name a
 * person chose (a pseudonym above debug), or a value Charlie chooses. A new key in none of them
 * fails here, so whoever adds it decides which it is. The scanner is tested on counter-examples.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CHARLIE_KEYS, createLogger, MODEL_TEXT_KEYS, NAME_KEYS } from '../../src/logging.js';
import { RecordingSink } from '../support/recording-sink.js';

const BROWSER = 'src/web/client/';
const LEVELS = new Set(['info', 'warn', 'error', 'fatal', 'child']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [relative('.', p).split('\\').join('/')] : [];
  });
}

/** The keys of the object literal a logger call (its receiver's name says log) takes first, with their lines. */
function loggedKeys(path: string, text: string): { key: string; line: number }[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: { key: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && LEVELS.has(node.expression.name.text)) {
      const receiver = node.expression.expression.getText(file);
      const first = node.arguments[0];
      if (/log/i.test(receiver) && first && ts.isObjectLiteralExpression(first)) {
        for (const p of first.properties) {
          if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)))
            out.push({ key: p.name.text, line: file.getLineAndCharacterOfPosition(p.getStart()).line + 1 });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('the scanner', () => {
  it('reads the fields of logger calls at info and above and of child bindings, not of other calls', () => {
    const keys = (code: string) => loggedKeys('x.ts', code).map((k) => k.key);
    expect(keys("log.info({ slug, count: 2 }, 'made');")).toEqual(['slug', 'count']);
    expect(keys("this.deps.logger.warn({ 'target': t.label }, 'x');")).toEqual(['target']);
    expect(keys("logger.child({ component: 'store' });")).toEqual(['component']);
    expect(keys("log.debug({ text }, 'heard');")).toEqual([]);
    expect(keys("ui.info({ title }, 'x');")).toEqual([]);
  });
});

describe('log fields', () => {
  const files = sources('src').filter((p) => !p.startsWith(BROWSER));
  const fields = files.flatMap((path) => loggedKeys(path, readFileSync(path, 'utf8')).map((k) => ({ ...k, path })));

  it('finds the logger calls of src/', () => {
    expect(fields.length).toBeGreaterThan(100);
    expect(fields.some((f) => f.key === 'slug' && f.path === 'src/memory/store/project-store.ts')).toBe(true);
  });

  it('places every field by what it carries: text, a name a person chose, or a value Charlie chooses', () => {
    const unplaced = fields.filter((f) => !MODEL_TEXT_KEYS.has(f.key) && !NAME_KEYS.has(f.key) && !CHARLIE_KEYS.has(f.key)).map((f) => `${f.path}:${f.line} ${f.key}`);
    expect(unplaced).toEqual([]);
    // and no key is in two sets
    for (const key of NAME_KEYS) expect(MODEL_TEXT_KEYS.has(key) || CHARLIE_KEYS.has(key), key).toBe(false);
    for (const key of MODEL_TEXT_KEYS) expect(CHARLIE_KEYS.has(key), key).toBe(false);
  });

  it('writes every name key as the same pseudonym above debug, and the name itself at debug; a project folder in a path or an error too', () => {
    // a name the rules do not label: only a person (or the lane, later) knows what it says
    const name = 'blue-heron-weekends';
    const write = (level: 'info' | 'debug') => {
      const sink = new RecordingSink();
      const log = createLogger(level, sink);
      for (const key of NAME_KEYS) log[level]({ [key]: name }, 'line');
      log.child({ project: name }).warn('child');
      log[level]({ err: new Error(`ENOENT: no such file, open '/srv/charlie/projects/${name}/archive/2026-12-01.md'`), path: `projects/${name}/project.md` }, 'read failed');
      return sink.logText;
    };
    const info = write('info');
    expect(info).not.toContain(name);
    const names = [...info.matchAll(/\[name ([0-9a-f]{6})\]/g)].map((m) => m[1]);
    expect(names.length).toBeGreaterThanOrEqual(NAME_KEYS.size + 3);
    expect(new Set(names).size).toBe(1);
    expect(info).toContain('projects/[name ');
    expect(write('debug')).toContain(name);
  });
});
