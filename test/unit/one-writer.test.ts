/**
 * One writer per generated file (issue 21, R1): `notes/_index.md`, `notes/_log.md` and
 * `review.md` are written only by src/memory/graph/generated.ts. The list comes from the code's
 * own GENERATED_FILES; the names that hold each file name (`INDEX_FILE` …) are found in the
 * sources. A module that names a generated file and calls a file-writing function is a second
 * writer, unless it is the owner. Comments do not count: the source is parsed, not grepped.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES } from '../../src/memory/graph/generated.js';

const OWNER = 'src/memory/graph/generated.ts';
/** Functions that create, change or remove a file (node:fs and the atomic writer). */
const WRITES = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'writeFileAtomic',
  'rename',
  'renameSync',
  'rm',
  'rmSync',
  'unlink',
  'unlinkSync',
  'createWriteStream',
  'copyFile',
  'copyFileSync',
  'cp',
  'truncate',
]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [relative('.', p).split('\\').join('/')] : [];
  });
}

interface Scan {
  /** String literal and template texts. */
  strings: string[];
  identifiers: Set<string>;
  /** `export const X = '…'`: name → value. */
  constants: Map<string, string>;
  /** Names of functions called (`writeFile(…)`, `fs.writeFile(…)`). */
  calls: Set<string>;
}

function scan(path: string, text: string): Scan {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: Scan = { strings: [], identifiers: new Set(), constants: new Map(), calls: new Set() };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) out.strings.push(node.text);
    if (ts.isIdentifier(node)) out.identifiers.add(node.text);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isStringLiteral(node.initializer)) out.constants.set(node.name.text, node.initializer.text);
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee)) out.calls.add(callee.text);
      else if (ts.isPropertyAccessExpression(callee)) out.calls.add(callee.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Modules other than the owner that name a generated file (by its text or a constant holding it) and write files. */
function secondWriters(files: ReadonlyMap<string, string>, generated: readonly string[], owner: string): string[] {
  const scans = new Map([...files].map(([path, text]) => [path, scan(path, text)]));
  const names = generated.map((g) => posix.basename(g));
  const holders = new Set<string>();
  for (const s of scans.values()) for (const [name, value] of s.constants) if (names.includes(value)) holders.add(name);
  const offenders: string[] = [];
  for (const [path, s] of scans) {
    if (path === owner) continue;
    const named = names.filter((n) => s.strings.some((t) => t.includes(n))).concat([...holders].filter((h) => s.identifiers.has(h)));
    const writes = [...s.calls].filter((c) => WRITES.has(c));
    if (named.length && writes.length) offenders.push(`${path} names ${named.join(', ')} and calls ${writes.join(', ')}`);
  }
  return offenders;
}

describe('one writer per generated file', () => {
  const all = new Map(sources('src').map((p) => [p, readFileSync(p, 'utf8')]));

  it('knows the generated files from the code, and their owner writes them', () => {
    expect(GENERATED_FILES.length).toBeGreaterThanOrEqual(3);
    const owner = scan(OWNER, all.get(OWNER) ?? '');
    expect([...owner.calls].some((c) => WRITES.has(c))).toBe(true);
  });

  it('no other module in src writes _index.md, _log.md or review.md', () => {
    expect(secondWriters(all, GENERATED_FILES, OWNER)).toEqual([]);
  });

  it('would catch a second writer, by file name or by the constant, but not a comment', () => {
    const owner = "export const INDEX_FILE = '_index.md';\nexport const LOG_FILE_NAME = '_log.md';";
    const files = new Map([
      ['src/owner.ts', owner],
      ['src/by-name.ts', "import { appendFile } from 'node:fs/promises';\nawait appendFile(dir + '/_log.md', 'x');"],
      ['src/by-constant.ts', "import { INDEX_FILE } from './owner.js';\nawait writeFileAtomic(join(dir, INDEX_FILE), text);"],
      ['src/template.ts', 'await fs.rm(`${dir}/notes/_index.md`);'],
      ['src/comment.ts', "// writes nothing to _index.md\nawait writeFile('other.md', 'x');"],
      ['src/reader.ts', "import { LOG_FILE_NAME } from './owner.js';\nconst text = await readFile(LOG_FILE_NAME, 'utf8');"],
    ]);
    expect(secondWriters(files, ['notes/_index.md', 'notes/_log.md'], 'src/owner.ts')).toEqual([
      'src/by-name.ts names _log.md and calls appendFile',
      'src/by-constant.ts names INDEX_FILE and calls writeFileAtomic',
      'src/template.ts names _index.md and calls rm',
    ]);
  });
});
