/**
 * Memory pages rendered as Markdown, safely: markdown-it with raw HTML disabled, `[[wiki links]]`
 * turned into in-app links, and the result passed through DOMPurify before it touches the DOM.
 * Front matter is shown as an escaped table, not rendered.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { LinkResolver, type LinkablePage } from '../shared/links.js';
import { h } from './dom.js';
import { day, pageHref, sourceWords } from './words.js';

function renderer(project: string, pages: readonly LinkablePage[]): InstanceType<typeof MarkdownIt> {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const resolver = new LinkResolver(pages);
  md.inline.ruler.before('link', 'wikilink', (state, silent) => {
    const { src, pos } = state;
    if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
    const end = src.indexOf(']]', pos + 2);
    if (end < 0) return false;
    const inner = src.slice(pos + 2, end);
    if (!inner.trim() || inner.includes('\n') || inner.includes('[') || inner.length > 200) return false;
    if (!silent) {
      const [rawTarget = '', alias] = inner.split('|');
      const target = rawTarget.split('#')[0]?.trim() ?? '';
      const resolved = resolver.resolve(target);
      const open = state.push('link_open', 'a', 1);
      open.attrs = [
        ['href', resolved ? pageHref(project, resolved) : '#'],
        ['class', resolved ? 'wikilink' : 'wikilink missing'],
        ['title', resolved ?? `no page “${target}” yet`],
      ];
      const text = state.push('text', '', 0);
      // a page's name, not its folder path ([[Places/Lisbon]] reads "Lisbon")
      text.content = (alias ?? target.split('/').pop() ?? target).trim();
      state.push('link_close', 'a', -1);
    }
    state.pos = end + 2;
    return true;
  });
  md.inline.ruler.before('link', 'inline_field', (state, silent) => {
    const field = inlineField(state.src, state.pos);
    if (!field) return false;
    if (!silent) {
      const open = state.push('field_open', 'span', 1);
      open.attrs = [
        ['class', 'field'],
        ['data-key', field.key],
      ];
      state.push('key_open', 'span', 1).attrs = [['class', 'field-key']];
      state.push('text', '', 0).content = field.key;
      state.push('key_close', 'span', -1);
      // a source in words ("chat, 27 Nov, 14:02", "Discord message"), a day in the reader's locale
      const link = /^\[([^\]]*)\]\(<?([^)\s>]+)>?\)$/.exec(field.value);
      const ref = link?.[2] ?? (field.key === 'source' ? field.value : '');
      const words = ref ? sourceWords(ref, project) : null;
      if (words?.href && (words.external ? /^https:\/\//.test(words.href) : words.href.startsWith('#/'))) {
        state.push('link_open', 'a', 1).attrs = words.external
          ? [
              ['href', words.href],
              ['rel', 'noopener noreferrer'],
              ['target', '_blank'],
            ]
          : [['href', words.href]];
        state.push('text', '', 0).content = words.text;
        state.push('link_close', 'a', -1);
      } else state.push('text', '', 0).content = words?.text ?? day(field.value);
      state.push('field_close', 'span', -1);
    }
    state.pos = field.end;
    return true;
  });
  md.inline.ruler.before('text', 'block_id', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x5e || (state.pos > 0 && !/\s/.test(state.src.charAt(state.pos - 1)))) return false;
    const m = /^\^([A-Za-z0-9-]+)[ \t]*(?=\n|$)/.exec(state.src.slice(state.pos, state.pos + 80));
    if (!m?.[1]) return false;
    if (!silent) {
      state.push('id_open', 'span', 1).attrs = [['class', 'block-id']];
      state.push('text', '', 0).content = `^${m[1]}`;
      state.push('id_close', 'span', -1);
    }
    state.pos += m[0].length;
    return true;
  });
  return md;
}

/** A Dataview inline field `[key:: value]` at `pos` (brackets in the value balanced), or null. */
function inlineField(src: string, pos: number): { key: string; value: string; end: number } | null {
  const m = /^\[([A-Za-z][\w-]*)::[ \t]*/.exec(src.slice(pos, pos + 40));
  if (!m?.[1]) return null;
  let depth = 1;
  let j = pos + m[0].length;
  for (; j < src.length && depth > 0 && src[j] !== '\n'; j++) {
    if (src[j] === '[') depth++;
    else if (src[j] === ']') depth--;
  }
  if (depth > 0) return null;
  return { key: m[1].toLowerCase(), value: src.slice(pos + m[0].length, j - 1).trim(), end: j };
}

export function splitFrontMatter(markdown: string): { meta: [string, string][]; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(markdown);
  if (!m) return { meta: [], body: markdown };
  const meta: [string, string][] = [];
  for (const line of (m[1] ?? '').split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (kv?.[1]) meta.push([kv[1], kv[2] ?? '']);
    else if (meta.length && line.trim()) {
      const last = meta[meta.length - 1];
      if (last) last[1] += ` ${line.trim()}`;
    }
  }
  return { meta, body: markdown.slice(m[0].length) };
}

/** Sanitised HTML of a Markdown page body. */
export function renderMarkdown(markdown: string, project: string, pages: readonly LinkablePage[]): string {
  const html = renderer(project, pages).render(markdown);
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input'], FORBID_ATTR: ['style'] });
}

/** A page as DOM: the front matter table, then the sanitised body. */
export function pageView(markdown: string, project: string, pages: readonly LinkablePage[]): HTMLElement {
  const { meta, body } = splitFrontMatter(markdown);
  const article = h('article', { class: 'markdown' });
  if (meta.length) {
    // the page's stored fields (ids, ISO times, sources): there for whoever wants them, folded away
    article.append(
      h(
        'details',
        { class: 'page-details' },
        h('summary', {}, 'Page details'),
        h(
          'table',
          { class: 'front-matter' },
          h('caption', {}, 'Front matter'),
          h(
            'tbody',
            {},
            meta.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v))),
          ),
        ),
      ),
    );
  }
  const content = h('div', { class: 'markdown-body' });
  content.innerHTML = renderMarkdown(body, project, pages);
  article.append(content);
  return article;
}
