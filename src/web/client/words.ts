/**
 * Storage syntax in human words, for the Memory views: a source reference (`web:1764…`, a Discord
 * message link, `voice:…`, `manual`, `notes/People/Sarah-Chen.md:21`) as "chat, 27 Nov, 14:02" or
 * "the page Sarah Chen", page paths as titles, and dates in the reader's own locale.
 */
/** The in-app address of a memory page. */
export function pageHref(project: string, page: string): string {
  return `#/page/${encodeURIComponent(project)}/${encodeURIComponent(page)}`;
}

const sameYear = (d: Date) => d.getFullYear() === new Date().getFullYear();

/** A moment as "27 Nov, 14:02" (the year too when it is not this one), in the reader's locale. */
export function moment(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const date = d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', ...(sameYear(d) ? {} : { year: 'numeric' }) });
  return `${date}, ${d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}`;
}

/** A calendar day (`2026-11-04`) as "4 Nov 2026" in the reader's locale; other text stays as it is. */
export function day(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso.trim());
  if (!m) return iso;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** `notes/People/Sarah-Chen.md` → "Sarah Chen"; a day of the conversation (`log/2026-12-02.md`) → "conversation of 2 Dec 2026". */
export function pageTitle(path: string): string {
  const log = /^log\/(\d{4}-\d{2}-\d{2})\.md(:\d+)?$/.exec(path);
  if (log?.[1]) return `conversation of ${day(log[1])}`;
  const base = path.replace(/:\d+$/, '').split('/').pop() ?? path;
  return base.replace(/\.md$/, '').replace(/[-_]+/g, ' ').trim() || path;
}

export interface SourceWords {
  text: string;
  href?: string;
  /** Opens in a new tab (a Discord link). */
  external?: boolean;
}

/** A record's source in words, with where it leads. `date` is the record's own day, when the reference has none. */
export function sourceWords(ref: string, project: string, date?: string): SourceWords {
  const at = (ms: string) => moment(new Date(Number(ms)));
  // a message of one of the web app's conversations: `web:<conversation>:<ms>`
  const stamped = /^(web|voice|discord|terminal|chat):(?:[a-z0-9]{1,24}:)?(\d{12,14})\b/.exec(ref);
  if (stamped?.[1] && stamped[2]) {
    const kind = stamped[1] === 'voice' ? 'voice message' : stamped[1] === 'terminal' ? 'terminal' : 'chat';
    return { text: `${kind}, ${at(stamped[2])}`, href: `#/chat/${encodeURIComponent(project)}/${encodeURIComponent(ref)}` };
  }
  if (/^https:\/\/(\w+\.)?discord(app)?\.com\/channels\//.test(ref)) return { text: `Discord message${date ? `, ${day(date)}` : ''}`, href: ref, external: true };
  if (/^https?:\/\//.test(ref)) return { text: new URL(ref).hostname, href: ref, external: true };
  if (ref === 'manual') return { text: 'written by a person' };
  if (/\.md(:\d+)?$/.test(ref)) return { text: `the page ${pageTitle(ref)}`, href: pageHref(project, ref.replace(/:\d+$/, '')) };
  return { text: ref };
}

/**
 * Storage syntax out of text a person reads (a reply, a snippet): block ids (` ^r-3f9a`) go, and a
 * page link (`[[People/Leo-Chen]]`, `[[Leo-Chen|Leo]]`) becomes the page's title ("Leo Chen").
 * Code (between backticks) is left as it is.
 */
export function withoutStorageSyntax(text: string): string {
  return text
    .split(/(`{3}[\s\S]*?`{3}|`[^`\n]*`)/)
    .map((part, i) =>
      i % 2
        ? part
        : part.replace(/\s?\^r-[0-9a-z-]{3,}\b/gi, '').replace(/\[\[([^\]|#\n]+)(?:#[^\]|\n]*)?(?:\|([^\]\n]+))?\]\]/g, (_m, page: string, label?: string) => label?.trim() || pageTitle(page.trim())),
    )
    .join('');
}

/** A tool's one-line result as a person reads it: a page path in it (`opened People/Leo-Chen.md`) as the page's title. */
export function summaryWords(summary: string): string {
  return withoutStorageSyntax(summary.replace(/(?:notes\/)?[\w-]+(?:\/[\w .-]+)+\.md\b/g, (path) => pageTitle(path)));
}
