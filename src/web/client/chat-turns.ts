/**
 * The parts of a conversation's turns the chat adds around its messages: the ‹ 1/2 › switcher of
 * a turn with alternatives (an edited message, a regenerated answer), the Edit button on each of
 * the person's own messages, and the greeting of a new conversation (what Charlie can do here);
 * and a person's message itself, with the images sent with it.
 */
import type { AlternativesWire } from '../shared/conversation.js';
import type { ChatEntry } from './api.js';
import { h } from './dom.js';

/** ‹ 2/3 ›: `flip` gets the source of the alternative to show. */
export function altSwitcher(alts: AlternativesWire, flip: (source: string) => void): HTMLElement {
  const button = (label: string, text: string, to: string | undefined) =>
    h('button', { type: 'button', class: 'small link alt-flip', 'aria-label': label, title: label, disabled: !to, onclick: () => to && flip(to) }, text);
  return h(
    'span',
    { class: 'alt-switcher', role: 'group', 'aria-label': 'Alternatives' },
    button('Previous alternative', '‹', alts.prev),
    h('span', { class: 'alt-count' }, `${alts.index}/${alts.count}`),
    button('Next alternative', '›', alts.next),
  );
}

/** Puts (or replaces) the switcher in a reply's actions. */
export function setAlternatives(reply: HTMLElement, alts: AlternativesWire | undefined, flip: (source: string) => void): void {
  reply.querySelector('.alt-switcher')?.remove();
  if (!alts || alts.count < 2) return;
  const actions = reply.querySelector('.reply-actions') ?? reply;
  actions.prepend(altSwitcher(alts, flip));
}

/** The Edit button of one of the person's own messages. */
export function editButton(edit: () => void): HTMLElement {
  return h('button', { type: 'button', class: 'small link edit', 'aria-label': 'Edit this message', onclick: edit }, 'Edit');
}

/** What a new conversation shows instead of an empty page: what Charlie can do here, and a few ways to start. */
export function greeting(assistant: string, where: string, isPrivate: boolean, start: (text: string) => void): HTMLElement {
  const tries = isPrivate
    ? ['What do you remember about me?', 'Remind me tomorrow at 9 to call the dentist', 'Note that my passport expires in March']
    : ['What have we decided so far?', 'Summarise what happened this week', 'Remind us on Friday at 6 to water the plants'];
  return h(
    'li',
    { class: 'greeting' },
    h('h2', {}, `${assistant} in ${where}`),
    h(
      'ul',
      {},
      h('li', {}, isPrivate ? 'Only you see this conversation; what you tell me here stays yours.' : 'Everyone in this project can read what is said here; I remember it for all of you.'),
      h('li', {}, 'Ask about anything I know — I search the notes, decisions and past conversations, and show what I looked up.'),
      h('li', {}, 'Tell me something worth keeping and I note it; ask me to remind you, and I will.'),
      h('li', {}, 'Attach an image, or talk to me with the microphone button. Edit any of your messages, or ask again for another answer.'),
    ),
    h(
      'p',
      { class: 'greeting-tries' },
      'Try: ',
      tries.map((t) => h('button', { type: 'button', class: 'small try', onclick: () => start(t) }, t)),
    ),
  );
}

/** An image of a sent message, as the server keeps it (the session cookie goes with the request; nobody else gets it). */
export const imageUrl = (project: string, source: string, n: number) => `/api/projects/${encodeURIComponent(project)}/images?source=${encodeURIComponent(source)}&n=${n}`;

/** A person's message: its words, and the images sent with it (`images`: their addresses). */
export function userBubble(entry: Pick<ChatEntry, 'speaker' | 'text' | 'source'>, images: readonly string[] = []): HTMLElement {
  const shown = images.map((src, n) => h('img', { src, class: 'thumb', alt: `Image ${n + 1} of ${images.length} sent with this message`, loading: 'lazy' }));
  return h(
    'li',
    { class: 'msg user', 'data-source': entry.source ?? null },
    h('div', { class: 'who' }, entry.speaker),
    shown.length ? h('div', { class: 'sent-images' }, shown) : null,
    h('div', { class: 'bubble-text' }, entry.text),
  );
}
