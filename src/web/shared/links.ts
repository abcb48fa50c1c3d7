/**
 * `[[wiki links]]` in memory pages, shared by the server (graph) and the browser (rendered
 * pages): `[[People/David-Kim]]`, `[[People/David-Kim|David]]`, `[[David Kim]]`, optionally
 * followed by a label in parentheses, as in a `## Related` list: `- [[Work/Acme]] (employer)`.
 * Pure functions: no Node or DOM APIs.
 */

export interface WikiLink {
  target: string;
  alias?: string;
  label?: string;
}

export const WIKI_LINK = /\[\[([^[\]|#\n]{1,200})(?:#[^[\]|\n]*)?(?:\|([^[\]\n]{1,200}))?\]\](?:[ \t]*\(([^()\n]{1,80})\))?/g;

export function wikiLinks(markdown: string): WikiLink[] {
  const out: WikiLink[] = [];
  for (const m of markdown.matchAll(WIKI_LINK)) {
    const target = (m[1] ?? '').trim();
    if (!target) continue;
    out.push({ target, ...(m[2] ? { alias: m[2].trim() } : {}), ...(m[3] ? { label: m[3].trim() } : {}) });
  }
  return out;
}

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
