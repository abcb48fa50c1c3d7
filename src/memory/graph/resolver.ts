/**
 * Entity resolution: one real thing, one page. A name is matched against every page's title,
 * aliases and file name (case, accents and possessives ignored), a person's first name alone
 * when exactly one person page has it, and a Discord id when the page records one.
 *
 * Kept for every page of a project (the page map's snapshot), so it is kept small: a name most
 * often means one page, held as that page's path, not as a set of one (a Set is about 150 bytes
 * of heap; at 10,000 pages the resolver and the snapshot's name maps held about 10 MB).
 */
import { nameTokens, normalizeName } from '../../core/names.js';
import { titleFromPath } from '../../util/one-line.js';

export interface Resolvable {
  path: string;
  title: string;
  aliases: string[];
  category: string;
  discordId?: string;
}

const MAX_NAME_TOKENS = 6;

/** The pages a name means: one path, or several (distinct, in the order they were added). */
type Paths = string | string[];

function many(paths: Paths | undefined): readonly string[] {
  return paths === undefined ? [] : typeof paths === 'string' ? [paths] : paths;
}

function isPerson(page: Resolvable): boolean {
  return /^people(\/|$)/i.test(page.category) || /^people\//i.test(page.path);
}

export class EntityResolver {
  /** normalised title → paths (titles win over aliases). */
  private readonly titles = new Map<string, Paths>();
  private readonly aliases = new Map<string, Paths>();
  private readonly firstNames = new Map<string, Paths>();
  private readonly discord = new Map<string, string>();
  private readonly paths = new Map<string, string>();
  private longest = 1;

  constructor(pages: Iterable<Resolvable> = []) {
    for (const p of pages) this.add(p);
  }

  private put(map: Map<string, Paths>, key: string, path: string): void {
    if (!key) return;
    const known = map.get(key);
    if (known === undefined) map.set(key, path);
    else if (typeof known === 'string') {
      if (known !== path) map.set(key, [known, path]);
    } else if (!known.includes(path)) known.push(path);
    this.longest = Math.min(MAX_NAME_TOKENS, Math.max(this.longest, key.split(' ').length));
  }

  add(page: Resolvable): void {
    const title = normalizeName(page.title);
    this.put(this.titles, title, page.path);
    // a file name that says what the title says is never looked up as an alias: the title is found first
    const fileName = normalizeName(titleFromPath(page.path));
    if (fileName !== title) this.put(this.aliases, fileName, page.path);
    for (const a of page.aliases) this.put(this.aliases, normalizeName(a), page.path);
    if (isPerson(page)) {
      const first = title.split(' ')[0];
      if (first && first !== title) this.put(this.firstNames, first, page.path);
    }
    if (page.discordId) this.discord.set(page.discordId, page.path);
    this.paths.set(page.path.toLowerCase().replace(/\.md$/, ''), page.path);
  }

  /** Every page a name could mean, best kind of match first (exact path, id, title, alias, first name). */
  candidates(name: string, discordId?: string): string[] {
    if (discordId && this.discord.has(discordId)) return [this.discord.get(discordId)!];
    const asPath = this.paths.get(
      name
        .trim()
        .replace(/^notes\//, '')
        .replace(/\.md$/i, '')
        .toLowerCase(),
    );
    if (asPath) return [asPath];
    const key = normalizeName(name);
    for (const map of [this.titles, this.aliases]) {
      const hit = map.get(key);
      if (hit !== undefined) return [...many(hit)].sort();
    }
    return [...many(this.firstNames.get(key))].sort();
  }

  /** The one page a name means, or null when none or several could. */
  resolve(name: string, discordId?: string): string | null {
    const c = this.candidates(name, discordId);
    return c.length === 1 ? c[0]! : null;
  }

  /** Pages named in a text (titles, aliases, unambiguous first names), in order of first mention. */
  mentions(text: string): string[] {
    const tokens = nameTokens(text);
    const found: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < tokens.length; i++) {
      for (let n = Math.min(this.longest, tokens.length - i); n >= 1; n--) {
        const key = tokens.slice(i, i + n).join(' ');
        const hit = this.titles.get(key) ?? this.aliases.get(key) ?? (n === 1 ? this.firstNames.get(key) : undefined);
        if (typeof hit !== 'string') continue;
        const path = hit;
        if (!seen.has(path)) {
          seen.add(path);
          found.push(path);
        }
        break;
      }
    }
    return found;
  }
}
