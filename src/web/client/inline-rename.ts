/**
 * Rename in place: the heading becomes a text field with Save and Cancel (Esc cancels), for a
 * project (project-menu.ts) and a conversation (conversation-menu.ts). Nothing is sent when the
 * text is empty or unchanged.
 */
import { h } from './dom.js';

export interface InlineRename {
  /** The heading the field stands in for, and the row of buttons hidden meanwhile. */
  heading: HTMLElement;
  box: HTMLElement;
  /** The button that opened it (focused again on cancel). */
  opener: HTMLElement;
  id: string;
  label: string;
  maxLength: number;
  /** The text now, read when the field opens. */
  current: () => string;
  save: (text: string) => void;
}

export function openInlineRename(o: InlineRename): void {
  const now = o.current();
  const input = h('input', { type: 'text', id: o.id, value: now, maxlength: o.maxLength, 'aria-label': o.label });
  const form = h('form', { class: 'rename-form' }, input, h('button', { type: 'submit', class: 'small primary' }, 'Save'), h('button', { type: 'button', class: 'small cancel' }, 'Cancel'));
  const restore = () => {
    form.replaceWith(o.heading);
    o.box.hidden = false;
    o.opener.focus();
  };
  form.querySelector('.cancel')?.addEventListener('click', restore);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      restore();
    }
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || text === now) {
      restore();
      return;
    }
    o.save(text);
  });
  o.heading.replaceWith(form);
  o.box.hidden = true;
  input.select();
}
