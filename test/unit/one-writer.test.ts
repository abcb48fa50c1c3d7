/**
 * One writer per generated file (issue 21, R1): `notes/_index.md`, `notes/_log.md` and
 * `review.md` are written only by src/memory/graph/generated.ts. The list comes from the code's
 * own GENERATED_FILES; the names that hold each file name (`INDEX_FILE` …) are found in the
 * sources. A module that names a generated file and calls a file-writing function is a second
 * writer, unless it is the owner. Comments do not count: the source is parsed, not grepped.
 * Entity pages likewise have one writer, the page store: no other module writes under notes/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILES } from '../../src/memory/graph/generated.js';

const OWNER = 'src/memory/graph/generated.ts';
/** The one writer of entity pages (`notes/**.md`): its read → compare-and-swap → invalidate loop. */
const PAGE_STORE = 'src/memory/graph/page-store.ts';
/** Functions that create, change or remove a file (node:fs and the atomic writer). */
const WRITES = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'writeFileAtomic',
  'writeFileAtomicSync',
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

/** Modules whose file writers come from: node:fs and the atomic writer. */
const FS_MODULES = /^(?:node:)?fs(?:\/promises)?$|\/atomic-write\.js$/;
/** Writers whose second argument is the destination (the first is a source a rename also removes). */
const TWO_PATHS = new Set(['rename', 'renameSync', 'cp', 'copyFile', 'copyFileSync']);

/**
 * Writes under a project's wiki folder: a call of a file writer imported from node:fs or the
 * atomic writer (`openFile` too), whose destination reaches the notes folder — a `notes` or
 * `notes/…` literal, or anything called `notesDir` — directly or through the variables it is
 * built from (followed by name across the module: loose, so it errs towards reporting).
 */
function wikiWrites(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imported = new Map<string, string>();
  const namespaces = new Set<string>();
  const bindings = new Map<string, ts.Node[]>();
  const calls: { name: string; call: ts.CallExpression }[] = [];
  const bind = (name: string, value: ts.Node) => bindings.set(name, [...(bindings.get(name) ?? []), value]);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && FS_MODULES.test(node.moduleSpecifier.text)) {
      const b = node.importClause?.namedBindings;
      if (b && ts.isNamespaceImport(b)) namespaces.add(b.name.text);
      if (b && ts.isNamedImports(b)) for (const e of b.elements) imported.set(e.name.text, (e.propertyName ?? e.name).text);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) bind(node.name.text, node.initializer);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(node.left)) bind(node.left.text, node.right);
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? imported.get(callee.text)
        : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && namespaces.has(callee.expression.text)
          ? callee.name.text
          : undefined;
      if (name && (WRITES.has(name) || name === 'openFile')) calls.push({ name, call: node });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const reaches = (node: ts.Node, seen: Set<string>): boolean => {
    if ((ts.isStringLiteralLike(node) || ts.isTemplateHead(node)) && /^notes(?:\/|$)/.test(node.text)) return true;
    if (ts.isIdentifier(node)) {
      if (node.text === 'notesDir') return true;
      if (!seen.has(node.text)) {
        seen.add(node.text);
        if ((bindings.get(node.text) ?? []).some((v) => reaches(v, seen))) return true;
      }
    }
    return ts.forEachChild(node, (c) => (reaches(c, seen) ? true : undefined)) ?? false;
  };
  return calls
    .filter(({ name, call }) => {
      const targets = name === 'rename' || name === 'renameSync' ? call.arguments.slice(0, 2) : TWO_PATHS.has(name) ? call.arguments.slice(1, 2) : call.arguments.slice(0, 1);
      return targets.some((t) => reaches(t, new Set()));
    })
    .map(({ name, call }) => `${path}:${file.getLineAndCharacterOfPosition(call.getStart()).line + 1} ${name}`);
}

describe('one writer of entity pages', () => {
  const all = sources('src').map((p) => [p, readFileSync(p, 'utf8')] as const);

  it('the page store writes pages, and no other module in src writes under notes/ (the generated files aside)', () => {
    const byModule = new Map(all.map(([p, t]) => [p, wikiWrites(p, t)]));
    expect(byModule.get(PAGE_STORE)?.length).toBeGreaterThan(0);
    expect(byModule.get(OWNER)?.length).toBeGreaterThan(0);
    expect([...byModule].filter(([p]) => p !== PAGE_STORE && p !== OWNER).flatMap(([, w]) => w)).toEqual([]);
  });

  it('would catch a write under notes/ through a variable, an alias or a namespace, but not a copy out of it', () => {
    const cases: [string, string][] = [
      [
        'src/param.ts',
        "import { writeFileAtomic, sha256 } from '../store/atomic-write.js';\nexport async function fix(notesDir: string) {\n  const full = join(notesDir, 'A.md');\n  await writeFileAtomic(full, 'x', sha256('y'));\n}",
      ],
      ['src/alias.ts', "import { rename as move } from 'node:fs/promises';\nlet dir;\ndir = resolveInside(root, 'notes');\nawait move(join(dir, 'a.md'), join(dir, 'b.md'));"],
      ['src/namespace.ts', "import * as fs from 'node:fs/promises';\nawait fs.writeFile(`notes/${page}`, text);"],
      ['src/export.ts', "import { cp } from 'node:fs/promises';\nconst from = join(root, 'notes');\nawait cp(from, out, { recursive: true });"],
      ['src/other.ts', "import { writeFile } from 'node:fs/promises';\n// writes nothing under notes/\nawait writeFile(join(dataDir, 'state.json'), '{}');\nthis.upkeep.rename(notesDir, 'x');"],
    ];
    expect(cases.flatMap(([p, t]) => wikiWrites(p, t))).toEqual(['src/param.ts:4 writeFileAtomic', 'src/alias.ts:4 rename', 'src/namespace.ts:2 writeFile']);
  });
});
