/**
 * Editing your last message in place: its bubble becomes a text box with Send and Cancel (Enter or
 * Ctrl+Enter sends, Shift+Enter is a new line, Esc cancels). Sending replaces the message and its
 * reply, in the page and on the server (the turn names the message it `replaces`).
 */
import { h } from './dom.js';

/** Turns `bubble` into an editor of `text`; `send` gets the new text (never empty or unchanged). */
export function startEdit(bubble: HTMLElement, text: string, send: (text: string) => void): void {
  const shown = bubble.querySelector<HTMLElement>('.bubble-text');
  if (!shown || bubble.querySelector('.edit-form')) return;
  const area = h('textarea', { class: 'edit-text', rows: 3, 'aria-label': 'Edit your message' });
  area.value = text;
  const cancel = h('button', { type: 'button', class: 'small cancel' }, 'Cancel');
  const form = h('form', { class: 'edit-form' }, area, h('div', { class: 'row' }, h('button', { type: 'submit', class: 'small primary' }, 'Send'), cancel));
  const close = () => {
    form.remove();
    shown.hidden = false;
    bubble.querySelector<HTMLElement>('button.edit')?.removeAttribute('hidden');
  };
  cancel.addEventListener('click', close);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const next = area.value;
    if (!next.trim() || next === text) {
      close();
      return;
    }
    form.remove();
    shown.hidden = false;
    shown.textContent = next;
    // the edited message can be edited again straight away (the outside run found no Edit until a reload)
    bubble.querySelector<HTMLElement>('button.edit')?.removeAttribute('hidden');
    send(next);
  });
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  shown.hidden = true;
  bubble.querySelector<HTMLElement>('button.edit')?.setAttribute('hidden', '');
  bubble.append(form);
  area.focus();
  area.setSelectionRange(area.value.length, area.value.length);
}
