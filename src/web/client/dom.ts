/**
 * Building DOM without HTML strings: every text goes in as a text node, so memory content can
 * never become markup. The only HTML the client inserts is sanitised Markdown (markdown.ts).
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, '').toLowerCase(), v);
    else if (k === 'class') el.className = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

type Children = readonly (Child | Children)[];

export function append(el: Node, children: Children): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c as Children);
    else el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : (c as Node));
  }
}

export function clear(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}

export function $(selector: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(selector);
  if (!el) throw new Error(`missing ${selector}`);
  return el;
}

/**
 * Announces a short status to screen readers and shows it briefly. A toast belongs to the view it
 * was shown in (the route's hash): going to another view takes it away (dropStaleToast); a redraw
 * of the same view (a renamed or archived project) keeps it. A newer toast gets the full 4 s.
 */
export function toast(text: string, kind: 'info' | 'error' = 'info'): void {
  const box = document.getElementById('toast');
  if (!box) return;
  window.clearTimeout(Number(box.dataset.timer));
  box.textContent = text;
  box.className = `toast show ${kind}`;
  box.dataset.route = location.hash;
  box.dataset.timer = String(window.setTimeout(() => hideToast(box), 4000));
}

function hideToast(box: HTMLElement): void {
  window.clearTimeout(Number(box.dataset.timer));
  box.className = 'toast';
  box.textContent = '';
  delete box.dataset.route;
}

/** The router calls this as a view is entered: a toast of another route goes. */
export function dropStaleToast(): void {
  const box = document.getElementById('toast');
  if (box?.dataset.route !== undefined && box.dataset.route !== location.hash) hideToast(box);
}

const ICONS: Record<string, string> = {
  mic: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zm-7 9a7 7 0 0 0 14 0M12 19v3',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9.5a1 1 0 1 0 0-.01',
  lock: 'M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z',
  hash: 'M9 3 7 21M17 3l-2 18M4 9h17M3 15h17',
  dot: 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z',
  note: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h5',
  speaker: 'M4 9h4l5-4v14l-5-4H4zM16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11',
  menu: 'M4 6h16M4 12h16M4 18h16',
  theme: 'M12 3a9 9 0 1 0 9 9 7 7 0 0 1-9-9z',
};

/**
 * A button that asks once more before a change that is hard to take back: the first press turns
 * its label into `confirm`, the second runs `act`, then shows `done` (or the error) as a toast.
 */
export function confirmButton(label: string, confirm: string, className: string, act: () => Promise<unknown>, done: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: className }, label);
  button.addEventListener('click', () => {
    if (button.dataset.confirm !== 'yes') {
      button.dataset.confirm = 'yes';
      button.textContent = confirm;
      return;
    }
    void act()
      .then(() => toast(done))
      .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error'));
  });
  return button;
}

/** A small line icon (decorative: the control around it carries the accessible name). */
export function icon(name: keyof typeof ICONS): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'ico');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', ICONS[name] ?? '');
  svg.append(path);
  return svg;
}
