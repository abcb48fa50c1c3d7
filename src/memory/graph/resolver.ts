/**
 * Entity resolution: one real thing, one page. A name is matched against every page's title,
 * aliases and file name (case, accents and possessives ignored), a person's first name alone
 * when exactly one person page has it, and a Discord id when the page records one.
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

function isPerson(page: Resolvable): boolean {
  return /^people(\/|$)/i.test(page.category) || /^people\//i.test(page.path);
}

export class EntityResolver {
  /** normalised title → paths (titles win over aliases). */
  private readonly titles = new Map<string, Set<string>>();
  private readonly aliases = new Map<string, Set<string>>();
  private readonly firstNames = new Map<string, Set<string>>();
  private readonly discord = new Map<string, string>();
  private readonly paths = new Map<string, string>();
  private longest = 1;

  constructor(pages: Iterable<Resolvable> = []) {
    for (const p of pages) this.add(p);
  }

  private put(map: Map<string, Set<string>>, key: string, path: string): void {
    if (!key) return;
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(path);
    this.longest = Math.min(MAX_NAME_TOKENS, Math.max(this.longest, key.split(' ').length));
  }

  add(page: Resolvable): void {
    const title = normalizeName(page.title);
    this.put(this.titles, title, page.path);
    this.put(this.aliases, normalizeName(titleFromPath(page.path)), page.path);
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
      if (hit?.size) return [...hit].sort();
    }
    const first = this.firstNames.get(key);
    return first ? [...first].sort() : [];
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
        if (!hit || hit.size !== 1) continue;
        const path = [...hit][0]!;
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
