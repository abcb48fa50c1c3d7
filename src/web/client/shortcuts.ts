/**
 * Keyboard shortcuts for the whole app, and their list on `?` (a modal dialog: focus stays inside
 * it, Esc or Close closes it and focus goes back where it was). Single keys act only when no text
 * field has focus; the chat's own keys (Enter, Ctrl+Enter, ↑, Esc) live in the composer.
 */
import { h } from './dom.js';
import { GO_TO, SHORTCUT_LIST } from './shortcut-table.js';

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** The hash of `view` for the project in the current route (`#/chat/trip/…` → `#/inspect/trip/records`). */
function routeTo(view: (typeof GO_TO)[number]['view']): string {
  const project = location.hash.replace(/^#\/?/, '').split('/')[1] ?? '';
  return `#/${view}/${project}${view === 'inspect' ? '/records' : ''}`;
}

function dialog(): HTMLDialogElement {
  const close = h('button', { type: 'button', class: 'small', value: 'close' }, 'Close');
  const box = h(
    'dialog',
    { id: 'shortcuts', class: 'shortcuts', 'aria-labelledby': 'shortcuts-title' },
    h('h2', { id: 'shortcuts-title' }, 'Keyboard shortcuts'),
    h(
      'dl',
      {},
      SHORTCUT_LIST.flatMap(([key, what]) => [h('dt', {}, h('kbd', {}, key)), h('dd', {}, what)]),
    ),
    close,
  );
  close.addEventListener('click', () => box.close());
  // a modal dialog keeps the page inert; Tab also cycles inside it (never out to the browser's UI)
  box.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const items = [...box.querySelectorAll<HTMLElement>('button, a[href], input, [tabindex]:not([tabindex="-1"])')];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  });
  return box;
}

export function installShortcuts(): void {
  let box: HTMLDialogElement | null = null;
  let back: HTMLElement | null = null;
  let pendingG = 0;
  const open = () => {
    if (!box) {
      box = dialog();
      box.addEventListener('close', () => back?.focus());
      document.body.append(box);
    }
    if (box.open) return;
    back = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    box.showModal();
    box.querySelector<HTMLElement>('button')?.focus();
  };
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || box?.open) return;
    if (e.key === '?') {
      e.preventDefault();
      open();
      return;
    }
    if (e.key === '/') {
      const search = document.querySelector<HTMLInputElement>('main input[type="search"]');
      if (!search) return;
      e.preventDefault();
      search.focus();
      search.select();
      return;
    }
    const go = pendingG && Date.now() - pendingG < 1500 ? GO_TO.find((g) => g.key === e.key) : undefined;
    if (go) {
      e.preventDefault();
      pendingG = 0;
      location.hash = routeTo(go.view);
    } else pendingG = e.key === 'g' ? Date.now() : 0;
  });
}
