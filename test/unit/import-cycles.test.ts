/**
 * No import cycle in src (issue 37). A cycle — even of type-only imports — means two files that
 * cannot be read, moved or tested apart: `Place` in the top-level API closed a 16-file circle
 * through the time desks and the tools. The sources are scanned (static imports and re-exports,
 * `import type`, dynamic `import()`), relative specifiers resolved to files, and the strongly
 * connected components found (Tarjan); every component of more than one file, or a file that
 * imports itself, is a cycle. The scanner is tested on a counter-example first.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(name) ? [p] : [];
  });
}

/**
 * The relative module specifiers a file imports or re-exports, by TypeScript's own pre-processor
 * (the scanner the compiler uses to find a program's files: it reads tokens, so comments and other
 * strings do not count, and it is many times faster than a full parse of every file).
 */
function specifiers(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith('.'));
}

/** The file a relative specifier names ('./x.js' is the compiled name of './x.ts'), or null. */
function resolveSpecifier(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  const options = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base, `${base}.ts`, join(base, 'index.ts')];
  return options.find((p) => existsSync(p) && statSync(p).isFile()) ?? null;
}

/** Import graph of the files under `root`: file → the files it imports (paths relative to cwd). */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of sources(root)) {
    const targets = specifiers(readFileSync(f, 'utf8'))
      .map((s) => resolveSpecifier(f, s))
      .filter((t): t is string => t !== null)
      .map((t) => relative('.', t));
    graph.set(relative('.', f), [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one file, or of a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

describe('import cycles', () => {
  it('the scanner finds a cycle of type imports, a re-export and a dynamic import, and not a comment or a string', () => {
    const dir = mkdtempSync(join(tmpdir(), 'charlie-cycles-'));
    try {
      const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
      write('a.ts', "import type { B } from './b.js';\n// import { d } from './d.js';\nexport const a = 1;\n");
      write('b.ts', "export * from './c.js';\nexport type B = number;\n");
      write('c.ts', "export const c = () => import('./a.js');\nconst s = \"from './d.js'\";\n");
      write('d.ts', "import { a } from './a.js';\nexport const d = a;\n");
      write('e.ts', "import type { E } from './e.js';\nexport type E = 1;\n");
      const graph = importGraph(dir);
      const found = cycles(graph).map((c) => c.map((f) => f.split('/').at(-1)));
      expect(found).toEqual(expect.arrayContaining([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]));
      expect(found).toHaveLength(2);
      expect(graph.get(relative('.', join(dir, 'a.ts')))).toEqual([relative('.', join(dir, 'b.ts'))]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('src has no import cycle', () => {
    const graph = importGraph('src');
    expect(graph.size).toBeGreaterThan(300);
    expect([...graph.values()].flat().length).toBeGreaterThan(1000);
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });
});
