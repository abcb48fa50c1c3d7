/**
 * Resolving `[[wiki links]]` of memory pages (`[[People/David-Kim]]`, `[[David Kim]]`, an alias)
 * to pages, for the browser's rendered pages. Pure functions: no Node or DOM APIs.
 */

export interface LinkablePage {
  /** Path relative to the project, e.g. `notes/People/Sarah-Chen.md`. */
  page: string;
  title: string;
  aliases: readonly string[];
}

const norm = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/\.md$/, '')
    .replace(/[\s_]+/g, '-');

/** Resolves link targets to pages: by path under notes/ (with or without `.md`), then by title or alias. */
export class LinkResolver {
  private readonly byKey = new Map<string, string>();

  constructor(pages: Iterable<LinkablePage>) {
    const weak: [string, string][] = [];
    for (const p of pages) {
      const rel = p.page.replace(/^notes\//, '');
      this.byKey.set(norm(rel), p.page);
      this.byKey.set(norm(p.page), p.page);
      weak.push([norm(p.title), p.page], [norm(rel.split('/').pop() ?? rel), p.page]);
      for (const a of p.aliases) weak.push([norm(a), p.page]);
    }
    for (const [k, v] of weak) if (!this.byKey.has(k)) this.byKey.set(k, v);
  }

  resolve(target: string): string | null {
    return this.byKey.get(norm(target)) ?? null;
  }
}
