/**
 * `memory check`: lints a project's pages — front matter that does not parse, links to missing
 * pages, one-way links, two pages sharing a name or alias, facts without a source — as
 * `path:line: problem`. `fix` repairs what is mechanical (links to missing pages are removed)
 * and leaves the rest to a person.
 */
import type { FileProblem } from '../../core/ports/index.js';
import type { Mutation } from './page-store.js';
import { normalizeName } from '../../core/names.js';
import { editLines } from './page-edit.js';
import type { WikiSnapshot } from './wiki-pages.js';

export interface CheckProblem extends FileProblem {
  line: number;
  /** `dangling` problems are fixed by --fix. */
  kind: 'front-matter' | 'dangling' | 'one-way' | 'shared-alias' | 'unsourced';
}

/** Problems of one project's pages; paths as `<project>/notes/<page>`. */
export function checkPages(project: string, snap: WikiSnapshot): CheckProblem[] {
  const shown = (p: string) => `${project}/notes/${p}`;
  const out: CheckProblem[] = snap.problems.map((p) => ({ path: p.path, line: p.line ?? 1, message: p.message, kind: 'front-matter' }));
  const names = new Map<string, Set<string>>();
  for (const page of snap.pages.values()) {
    for (const name of new Set([page.title, ...page.aliases].map(normalizeName).filter(Boolean))) {
      let set = names.get(name);
      if (!set) names.set(name, (set = new Set()));
      set.add(page.path);
    }
  }
  for (const page of snap.pages.values()) {
    for (const link of page.links) {
      const target = snap.target(link.target);
      if (!target) {
        out.push({ path: shown(page.path), line: link.line, message: `link to a missing page [[${link.target}]]`, kind: 'dangling' });
        continue;
      }
      const other = snap.pages.get(target);
      if (other && !other.links.some((l) => snap.target(l.target) === page.path)) {
        out.push({ path: shown(page.path), line: link.line, message: `one-way link: [[${link.target}]] has no link back to this page`, kind: 'one-way' });
      }
    }
    for (const name of new Set([page.title, ...page.aliases])) {
      const others = [...(names.get(normalizeName(name)) ?? [])].filter((p) => p !== page.path);
      if (others.length) out.push({ path: shown(page.path), line: page.aliasLine, message: `name "${name}" is shared with ${others.join(', ')}`, kind: 'shared-alias' });
    }
    for (const fact of page.unsourced) out.push({ path: shown(page.path), line: fact.line, message: 'fact without a source ([source:: …])', kind: 'unsourced' });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path, 'en') || a.line - b.line);
}

export function formatProblem(p: FileProblem): string {
  return `${p.path}${p.line ? `:${p.line}` : ''}: ${p.message}`;
}

/** What fixing needs of the knowledge graph: its lane and its one page-change loop. */
interface PageFixer {
  exclusive<T>(project: string, fn: () => Promise<T>): Promise<T>;
  mutatePage<T extends { content: string }>(project: string, path: string, change: (current: string | null) => T | null): Promise<Mutation<T>>;
}

/** Removes the lines of links to missing pages, through the page store; returns the number of links removed. */
export function fixDangling(pages: PageFixer, project: string, problems: CheckProblem[]): Promise<number> {
  const byPage = new Map<string, number[]>();
  const prefix = `${project}/notes/`;
  for (const p of problems) {
    if (p.kind !== 'dangling' || !p.path.startsWith(prefix)) continue;
    const rel = p.path.slice(prefix.length);
    byPage.set(rel, [...(byPage.get(rel) ?? []), p.line]);
  }
  return pages.exclusive(project, async () => {
    let fixed = 0;
    for (const [rel, lines] of byPage) {
      const done = await pages.mutatePage(project, rel, (content) => (content === null ? null : { content: editLines(content, new Map(lines.map((l) => [l, null]))) }));
      if (done.kind === 'written') fixed += lines.length;
    }
    return fixed;
  });
}
