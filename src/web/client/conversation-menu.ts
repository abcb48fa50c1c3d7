/**
 * A place's conversations in the side menu, under the project that is open: each by its title,
 * the open one marked, and "New conversation". The chat's header renames and deletes the open one
 * (deleting asks first and says what goes and what stays). Both redraw the shell through
 * `charlie:projects-changed`.
 */
import type { ConversationItem } from '../shared/conversation.js';
import { PROJECTS_CHANGED } from './project-menu.js';
import { chatTarget, conversationHref, conversationsApi, FIRST } from './conversations-api.js';
import { openInlineRename } from './inline-rename.js';
import { h, icon, toast } from './dom.js';

const failed = (e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error');
const changed = () => window.dispatchEvent(new Event(PROJECTS_CHANGED));

/** Makes a conversation and opens it. */
export function newConversation(project: string): void {
  conversationsApi
    .create(project)
    .then((made) => {
      location.hash = conversationHref(project, made.id);
      changed();
    })
    .catch(failed);
}

/** The open project's conversations, for its entry in the side menu (filled when they arrive). */
export function conversationMenu(project: string, rest: string): HTMLElement {
  const open = chatTarget(rest).conversation;
  const list = h('ul', { class: 'conversations', 'aria-label': 'Conversations' });
  const add = h('button', { type: 'button', class: 'small link new-conversation', onclick: () => newConversation(project) }, '+ New conversation');
  void conversationsApi
    .list(project)
    .then(({ conversations }) => {
      list.replaceChildren(
        ...conversations.map((c) =>
          h(
            'li',
            {},
            h('a', { href: conversationHref(project, c.id), class: c.id === open ? 'active' : '', 'aria-current': c.id === open ? 'page' : null, 'data-conversation': c.id }, icon('dot'), c.title),
          ),
        ),
      );
    })
    .catch(() => list.replaceChildren(h('li', { class: 'meta' }, 'Conversations could not be loaded.')));
  return h('div', { class: 'conversation-menu' }, list, add);
}

/** The titles in the side menu and the chat's head again (a conversation's first message titles it). */
export function refreshTitles(project: string, open: string): void {
  void conversationsApi
    .list(project)
    .then(({ conversations }) => {
      for (const c of conversations) {
        const link = document.querySelector<HTMLElement>(`#sidebar a[data-conversation="${c.id}"]`);
        if (link?.lastChild) link.lastChild.textContent = c.title;
        if (c.id === open) for (const head of document.querySelectorAll('.conversation-title')) head.textContent = c.title;
      }
    })
    .catch(() => undefined);
}

/** Rename and Delete for the open conversation, in the chat's header. */
export function conversationActions(project: string, item: ConversationItem | undefined, heading: HTMLElement): HTMLElement | null {
  if (!item) return null;
  const box = h('div', { class: 'conversation-actions' });
  const rename = h('button', { type: 'button', class: 'small rename-conversation' }, 'Rename');
  rename.addEventListener('click', () =>
    openInlineRename({
      heading,
      box,
      opener: rename,
      id: 'rename-conversation',
      label: 'New title of the conversation',
      maxLength: 120,
      // the heading holds the title now (a first message may have titled it since the chat was drawn)
      current: () => heading.textContent.trim() || item.title,
      save: (title) =>
        void conversationsApi
          .rename(project, item.id, title)
          .then(() => {
            toast(`Renamed to ${title}`);
            changed();
          })
          .catch(failed),
    }),
  );
  box.append(rename);
  if (item.id !== FIRST) box.append(h('button', { type: 'button', class: 'small delete-conversation', onclick: () => askToDelete(project, item) }, 'Delete'));
  return box;
}

/** Asks before deleting, saying what goes (the chat, its place in search) and what stays (what Charlie learnt). */
function askToDelete(project: string, item: ConversationItem): void {
  const n = item.messages;
  const dialog = h(
    'dialog',
    { class: 'confirm-delete', 'aria-labelledby': 'delete-title' },
    h('h2', { id: 'delete-title' }, `Delete “${item.title}”?`),
    h('p', {}, `Its ${n} message${n === 1 ? '' : 's'} leave the chat and search. What Charlie already learnt from them stays in memory: to remove a fact, find it in Memory and choose Forget.`),
    h(
      'form',
      { method: 'dialog', class: 'row' },
      h('button', { type: 'submit', value: 'delete', class: 'small danger' }, 'Delete'),
      h('button', { type: 'submit', value: 'cancel', class: 'small', autofocus: true }, 'Cancel'),
    ),
  );
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (dialog.returnValue !== 'delete') return;
    conversationsApi
      .remove(project, item.id)
      .then(() => {
        toast(`Deleted “${item.title}”`);
        location.hash = conversationHref(project, FIRST);
        changed();
      })
      .catch(failed);
  });
  document.body.append(dialog);
  dialog.showModal();
}
