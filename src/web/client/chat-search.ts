/**
 * Searching every conversation of a place as you type: a search field in the chat's header (`/`
 * focuses it) asks the server (a moment after the last key, and only the newest answer is shown),
 * which lists the messages that hold every word, newest first, each dated in the reader's locale
 * and with the title of its conversation. Choosing one opens that conversation at the message,
 * loading older messages when it is not among the ones on screen.
 */
import type { ConversationSearchHit } from '../shared/conversation.js';
import { conversationsApi } from './conversations-api.js';
import { clear, h } from './dom.js';
import { moment, withoutStorageSyntax } from './words.js';

/** The in-app address of a message: the chat with that message in view. */
export function messageHref(project: string, source: string): string {
  return `#/chat/${encodeURIComponent(project)}/${encodeURIComponent(source)}`;
}

/** How long typing pauses before the search runs. */
const DEBOUNCE_MS = 250;

function hitItem(project: string, hit: ConversationSearchHit, onPick: (conversation: string, source: string) => void): HTMLElement {
  const a = h(
    'a',
    { href: messageHref(project, hit.source), class: 'hit' },
    h('span', { class: 'hit-head' }, h('span', { class: 'hit-conversation' }, hit.title), ' · ', h('time', { datetime: hit.time }, moment(new Date(hit.time))), ' · ', hit.speaker),
    h('span', { class: 'hit-text' }, withoutStorageSyntax(hit.snippet)),
  );
  a.addEventListener('click', (e) => {
    e.preventDefault();
    onPick(hit.conversation, hit.source);
  });
  return h('li', {}, a);
}

/** The search form and its results; `onPick` shows a message (its conversation and source). */
export function conversationSearch(project: string, onPick: (conversation: string, source: string) => void): HTMLElement {
  const input = h('input', { type: 'search', id: 'chat-search', placeholder: 'Search all conversations', 'aria-label': 'Search all conversations', maxlength: 200 });
  const results = h('ol', { class: 'chat-hits', 'aria-label': 'Messages found', hidden: true });
  const status = h('p', { class: 'chat-hits-status', role: 'status' });
  const form = h('form', { class: 'chat-search', role: 'search' }, input, status, results);
  const hide = () => {
    results.hidden = true;
    status.textContent = '';
  };
  let asked = 0;
  let timer = 0;
  const run = () => {
    window.clearTimeout(timer);
    const q = input.value.trim();
    const seq = ++asked;
    if (!q) {
      hide();
      return;
    }
    status.textContent = 'Searching…';
    conversationsApi
      .search(project, q)
      .then(({ hits }) => {
        if (seq !== asked) return; // a newer search is under way

        status.textContent = hits.length ? `${hits.length} message${hits.length > 1 ? 's' : ''} found` : `No message holds “${q}”.`;
        clear(
          results,
          hits.map((hit) =>
            hitItem(project, hit, (conversation, source) => {
              hide();
              onPick(conversation, source);
            }),
          ),
        );
        results.hidden = !hits.length;
        if (hits.length) form.scrollIntoView({ block: 'nearest' });
      })
      .catch((err: unknown) => {
        if (seq === asked) status.textContent = err instanceof Error ? err.message : String(err);
      });
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    run();
  });
  input.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(run, DEBOUNCE_MS);
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
