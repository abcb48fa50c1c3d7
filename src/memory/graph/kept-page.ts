/**
 * A page as the page cache keeps it: the same page, but pinning no text it was parsed from and
 * sharing its repeated strings. Parsing leaves every fact's text and fields as views (V8's sliced
 * strings) into a copy of its line, so a cached page kept each of its lines alive, and each
 * record's field names and common values (`source`, `type`, `fact`, `0.8`, dates) were strings
 * of their own: at 10,000 pages about 22 MB of lines and 9 MB of repeated field strings in a
 * heap snapshot (docs/performance.md, "A small machine"). A field whose name and value are both
 * short (`[type:: fact]`, `[confidence:: 0.8]`, `[said:: 2026-05-01]`) is one frozen object
 * shared by every record that has it, not an object per record (40 bytes each, three or four a record).
 * An empty list (a page's aliases, tags, links or unsourced records, a link's fields) is one frozen
 * empty array shared by every page, not an array of its own (32 bytes each, a few a page and one a link).
 */
import type { FactLine, InlineField, LinkLine } from '../markdown/lines.js';
import { ownString } from '../../util/own-string.js';
import type { PageRead, WikiPage } from './page.js';

/** Field values up to this long are shared (names, types, dates, confidences); longer ones are copied. */
const SHARED_MAX_LENGTH = 32;
/** Distinct strings shared at most: past it, new ones are copied (a bound, not a cache that grows with the pages). */
const SHARED_MAX = 8192;
/** Distinct fields shared at most, likewise. */
const SHARED_FIELDS_MAX = 16_384;
/** Every empty list of a cached page: frozen, so a change to one throws instead of reaching every page. */
const NONE: readonly never[] = Object.freeze([]);

/** `xs` mapped by `f`, or the shared empty list. */
function list<T, U>(xs: readonly T[], f: (x: T) => U): U[] {
  return xs.length === 0 ? (NONE as never[]) : xs.map(f);
}

export class PageKeeper {
  private readonly shared = new Map<string, string>();
  private readonly sharedFields = new Map<string, InlineField>();

  /** `s` without its parent text: the shared copy when short, else a copy of its own. */
  private one(s: string): string {
    if (s.length > SHARED_MAX_LENGTH) return ownString(s);
    const known = this.shared.get(s);
    if (known !== undefined) return known;
    const own = ownString(s);
    if (this.shared.size < SHARED_MAX) this.shared.set(own, own);
    return own;
  }

  private fields(fields: InlineField[]): InlineField[] {
    return list(fields, (f) => this.field(f));
  }

  /** A field without its parent text: one shared frozen object when its name and value are short. */
  private field(f: InlineField): InlineField {
    if (f.key.length > SHARED_MAX_LENGTH || f.value.length > SHARED_MAX_LENGTH) return { key: this.one(f.key), value: this.one(f.value) };
    const id = `${f.key}\u0000${f.value}`;
    const known = this.sharedFields.get(id);
    if (known) return known;
    const own = Object.freeze({ key: this.one(f.key), value: this.one(f.value) });
    if (this.sharedFields.size < SHARED_FIELDS_MAX) this.sharedFields.set(ownString(id), own);
    return own;
  }

  private fact(f: FactLine): FactLine {
    return { line: f.line, text: ownString(f.text), fields: this.fields(f.fields), ...(f.blockId !== undefined ? { blockId: ownString(f.blockId) } : {}) };
  }

  private link(l: LinkLine): LinkLine {
    return { line: l.line, target: ownString(l.target), label: this.one(l.label), fields: this.fields(l.fields) };
  }

  /**
   * The page read, as the cache keeps it (a problem is kept as it is). `path`: the cache's own
   * copy of the page's path (its key, pinning nothing), kept as the page's path rather than copied again.
   */
  keep(read: PageRead, path?: string): PageRead {
    if (!read.ok) return read;
    const p = read.page;
    const page: WikiPage = {
      ...p,
      path: path === p.path ? path : ownString(p.path),
      title: ownString(p.title),
      aliases: list(p.aliases, ownString),
      tags: list(p.tags, (t) => this.one(t)),
      category: this.one(p.category),
      created: this.one(p.created),
      updated: this.one(p.updated),
      description: ownString(p.description),
      facts: list(p.facts, (f) => this.fact(f)),
      links: list(p.links, (l) => this.link(l)),
      unsourced: list(p.unsourced, (f) => this.fact(f)),
    };
    return { ok: true, page };
  }
}
