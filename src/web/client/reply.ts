/**
 * A reply as the reader sees it: Markdown rendered (also while it streams, at most once a frame),
 * sanitised by DOMPurify, code blocks highlighted by highlight.js (loaded only when a reply has
 * code, so the first view stays light), a Copy button above each code block (never over the code)
 * and each table in a box of its own that scrolls sideways.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { h, toast } from './dom.js';
import { withoutStorageSyntax } from './words.js';

const replyMd = new MarkdownIt({ html: false, linkify: true, breaks: true });

export function replyHtml(text: string): string {
  return DOMPurify.sanitize(replyMd.render(withoutStorageSyntax(text)), { USE_PROFILES: { html: true }, FORBID_ATTR: ['style'] });
}

/** Copies text: the Clipboard API where the page may use it, else a selection (plain http on a LAN). */
export async function copyText(text: string): Promise<void> {
  if (window.isSecureContext && 'clipboard' in navigator) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = h('textarea', { class: 'visually-hidden', 'aria-hidden': 'true' });
  area.value = text;
  document.body.append(area);
  area.select();
  // the fallback for pages the Clipboard API refuses (no secure context)
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copying is not allowed here');
}

export function copyButton(label: string, text: () => string, cls = 'small copy'): HTMLButtonElement {
  const button = h('button', { type: 'button', class: cls, 'aria-label': label, title: label }, 'Copy');
  button.addEventListener('click', () => {
    void copyText(text())
      .then(() => {
        button.textContent = 'Copied';
        window.setTimeout(() => (button.textContent = 'Copy'), 1500);
      })
      .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error'));
  });
  return button;
}

/** Renders `text` into `el`; `final` adds highlighting and code Copy buttons. */
export function renderReply(el: HTMLElement, text: string, final: boolean): void {
  el.innerHTML = replyHtml(text);
  // a wide table scrolls sideways in its own box (a phone), instead of squeezing words apart
  for (const table of el.querySelectorAll('table')) {
    const wrap = h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Table (scrolls sideways)' });
    table.replaceWith(wrap);
    wrap.append(table);
  }
  if (!final) return;
  const blocks = [...el.querySelectorAll('pre > code')];
  if (!blocks.length) return;
  for (const code of blocks) {
    const pre = code.parentElement;
    if (!pre) continue;
    const wrap = h('div', { class: 'code-block' });
    pre.replaceWith(wrap);
    wrap.append(
      copyButton('Copy code', () => code.textContent, 'small copy code-copy'),
      pre,
    );
  }
  void import('./highlight.js').then(({ highlight }) => {
    for (const code of blocks) highlight(code as HTMLElement);
  });
}
