/**
 * Searching a conversation: a search field in the chat's header (`/` focuses it) asks the server,
 * which reads the project's archive (or the private conversation), and lists the messages that
 * hold every word, newest first, dated in the reader's locale. Choosing one shows it in the chat,
 * loading older messages when it is not among the ones on screen.
 */
import type { ConversationHit } from '../shared/conversation.js';
import { api } from './api.js';
import { clear, h } from './dom.js';
import { moment } from './words.js';

/** The in-app address of a message: the chat with that message in view. */
export function messageHref(project: string, source: string): string {
  return `#/chat/${encodeURIComponent(project)}/${encodeURIComponent(source)}`;
}

function hitItem(project: string, hit: ConversationHit, onPick: (source: string) => void): HTMLElement {
  const a = h(
    'a',
    { href: messageHref(project, hit.source), class: 'hit' },
    h('span', { class: 'hit-head' }, h('time', { datetime: hit.time }, moment(new Date(hit.time))), ' · ', hit.speaker),
    h('span', { class: 'hit-text' }, hit.snippet),
  );
  a.addEventListener('click', (e) => {
    e.preventDefault();
    onPick(hit.source);
  });
  return h('li', {}, a);
}

/** The search form and its results; `onPick` shows a message (by source) in the chat. */
export function conversationSearch(project: string, onPick: (source: string) => void): HTMLElement {
  const input = h('input', { type: 'search', id: 'chat-search', placeholder: 'Search this conversation', 'aria-label': 'Search this conversation', maxlength: 200 });
  const results = h('ol', { class: 'chat-hits', 'aria-label': 'Messages found', hidden: true });
  const status = h('p', { class: 'chat-hits-status', role: 'status' });
  const form = h('form', { class: 'chat-search', role: 'search' }, input, status, results);
  const hide = () => {
    results.hidden = true;
    status.textContent = '';
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = input.value.trim();
    if (!q) {
      hide();
      return;
    }
    status.textContent = 'Searching…';
    api
      .searchConversation(project, q)
      .then(({ hits }) => {
        status.textContent = hits.length ? `${hits.length} message${hits.length > 1 ? 's' : ''} found` : `No message holds “${q}”.`;
        clear(
          results,
          hits.map((hit) =>
            hitItem(project, hit, (source) => {
              hide();
              onPick(source);
            }),
          ),
        );
        results.hidden = !hits.length;
        if (hits.length) form.scrollIntoView({ block: 'nearest' });
      })
      .catch((err: unknown) => (status.textContent = err instanceof Error ? err.message : String(err)));
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && (!results.hidden || status.textContent)) {
      e.preventDefault();
      hide();
    }
  });
  input.addEventListener('search', () => {
    if (!input.value) hide();
  });
  return form;
}
