/**
 * The chat view: history, a streamed reply (Markdown rendered as it arrives) with its tool trace
 * (what Charlie searched, found and opened), suggested notes, image upload and push-to-talk. A
 * reply can be stopped (button or Esc: the turn is cancelled on the server), retried when a model
 * error cut it (the streamed words stay, with the error's own words) and regenerated. Traces,
 * suggestions and cut replies come back after a reload. A reply still streaming when the page
 * reloads is picked up again from the server.
 */
import { api, ApiError, readEvents, resumeTurn, sendMessage, type ChatEntry, type Me, type ProjectItem } from './api.js';
import { startEdit } from './chat-edit.js';
import { Reply, type ReplyActions } from './chat-reply.js';
import { conversationSearch, messageHref } from './chat-search.js';
import { chatTarget, conversationHref, conversationsApi } from './conversations-api.js';
import { conversationActions, newConversation, refreshTitles } from './conversation-menu.js';
import { editButton, greeting, imageUrl, setAlternatives, userBubble } from './chat-turns.js';
import { olderMessages } from './chat-history.js';
import { clientFailure } from './failure-words.js';
import { askToNotify, notifyReply } from './notify.js';
import { projectActions } from './project-menu.js';
import { clear, h, icon, toast } from './dom.js';
import { fileIntake } from './chat-files.js';
import { startRecording, toWav16k, transcribe, type Recording } from './voice.js';

/** `rest` names the conversation and a message to show in it (a Memory view's "chat, 27 Nov, 14:02" link, a search hit): conversations-api.ts. */
export async function renderChat(main: HTMLElement, project: string, title: string, me: Me, rest = '', item?: ProjectItem): Promise<void> {
  const { conversation, focus } = chatTarget(rest);
  const list = h('ol', { class: 'messages', 'aria-label': 'Conversation' });
  const input = h('textarea', { id: 'composer', rows: 2, placeholder: `Message ${me.assistant}…`, 'aria-label': 'Message' });
  const images: string[] = [];
  const attached = h('div', { class: 'attached' });
  const file = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/webp,image/gif', class: 'visually-hidden', id: 'image-file', multiple: true });
  const send = h('button', { type: 'submit', class: 'primary send' }, 'Send');
  const intake = fileIntake(project, list, () => scroll(true));
  const stop = h('button', { type: 'button', class: 'stop', hidden: true, title: 'Stop the reply (Esc)' }, 'Stop');
  const mic = h(
    'button',
    {
      type: 'button',
      class: 'icon',
      'aria-label': me.speech.stt ? 'Push to talk' : `Push to talk: ${me.speech.sttReason ?? 'not available'}`,
      title: me.speech.stt ? 'Push to talk' : (me.speech.sttReason ?? 'Speech-to-text is not available'),
      disabled: !me.speech.stt,
    },
    icon('mic'),
  );
  const form = h(
    'form',
    { class: 'composer' },
    attached,
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'image-file', class: 'icon button', title: 'Attach an image' }, icon('image'), h('span', { class: 'visually-hidden' }, 'Attach an image')),
      file,
      intake.button,
      input,
      mic,
      send,
      stop,
    ),
  );
  // History first, so nothing typed meanwhile lands above it.
  // a message asked for by a link may be older than the last 60: then more is loaded
  const [history, current, known] = await Promise.all([
    api.messages(project, focus ? 500 : 60, undefined, conversation),
    api.currentTurn(project).catch(() => ({ turn: null })),
    conversationsApi.list(project).catch(() => ({ conversations: [] })),
  ]);
  const here = known.conversations.find((c) => c.id === conversation);
  /** Shows another alternative of a turn: the server keeps the choice, and the conversation is drawn again at it. */
  const flip = (source: string) => {
    conversationsApi
      .choose(project, conversation, source)
      .then(() => (location.hash = conversationHref(project, conversation, source)))
      .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error'));
  };
  const drawEntry = (m: ChatEntry) => {
    if (m.role === 'user') return userBubble(m, m.source ? Array.from({ length: m.images ?? 0 }, (_, n) => imageUrl(project, m.source ?? '', n)) : []);
    const el = Reply.from(m, project, me, actions).el;
    setAlternatives(el, m.alts, flip);
    return el;
  };
  let lastQuestion = '';
  let running: Reply | null = null;
  const actions: ReplyActions = { again: (reply) => void again(reply) };
  for (const m of history.messages) {
    list.append(drawEntry(m));
    if (m.role === 'user') lastQuestion = m.text;
  }
  /** Each of the person's own messages can be edited (while no reply is being written); each answer regenerated. */
  const ownEdits = () => {
    // each message is looked at once (a page of 60 at a time, not the thousands above it)
    for (const m of list.querySelectorAll<HTMLElement>('.msg.user[data-source]:not([data-checked])')) {
      m.dataset.checked = '';
      if (m.querySelector('.who')?.textContent === me.name) m.append(editButton(() => editAt(m)));
    }
    for (const b of list.querySelectorAll<HTMLButtonElement>('.msg.user button.edit, button.regenerate')) b.disabled = Boolean(running);
  };
  /** Shown when newer messages were taken out of the page (reading far back): brings the newest page back. */
  const newer = h(
    'p',
    { class: 'history-newer', hidden: true },
    'Newer messages are left out while you read this far back. ',
    h('button', { type: 'button', class: 'small', onclick: () => void showNewest() }, 'Show the newest'),
  );
  const older = olderMessages(
    list,
    history.before,
    (before) => api.messages(project, 60, before, conversation),
    drawEntry,
    ownEdits,
    () => (newer.hidden = false),
  );
  /** The newest page again, in place of what was read far back. */
  const showNewest = async () => {
    older.reset(await api.messages(project, 60, undefined, conversation));
    newer.hidden = true;
    scroll(true);
  };
  /** Alternatives made by an edit or a regenerated answer: the newest turns' switchers, as the server counts them. */
  const refreshAlternatives = async () => {
    const { messages } = await api.messages(project, 4, undefined, conversation);
    for (const m of messages) {
      const el = [...list.querySelectorAll<HTMLElement>('.msg.assistant')].find((x) => x.dataset.source === m.source);
      if (el && m.role === 'assistant') setAlternatives(el, m.alts, flip);
    }
  };
  /** Shows a message by its source: the question (or the reply) gets the focus ring and is scrolled to. */
  const show = (source: string): boolean => {
    const all = [...list.querySelectorAll<HTMLElement>('.msg')].filter((m) => m.dataset.source === source);
    const el = all.find((m) => m.classList.contains('user')) ?? all[0];
    if (!el) return false;
    for (const m of list.querySelectorAll('.msg.focus')) m.classList.remove('focus');
    el.classList.add('focus');
    el.tabIndex = -1;
    el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
    return true;
  };
  const pick = (source: string) => {
    const found = () => [...list.querySelectorAll<HTMLElement>('.msg')].some((m) => m.dataset.source === source);
    void older.until(found).then((ok) => {
      if (ok) show(source);
      else toast('That message is no longer in this conversation.');
    });
  };
  const heading = h('h1', {}, title);
  const named = h('h2', { class: 'conversation-title' }, here?.title ?? '');
  const onHit = (id: string, source: string) => (id === conversation ? pick(source) : (location.hash = conversationHref(project, id, source)));
  clear(
    main,
    h('header', { class: 'view-head chat-head' }, heading, projectActions(item, heading), conversationSearch(project, onHit)),
    h(
      'div',
      { class: 'conversation-head' },
      named,
      conversationActions(project, here, named),
      h('button', { type: 'button', class: 'small new-conversation', onclick: () => newConversation(project) }, 'New conversation'),
    ),
    older.edge,
    list,
    newer,
    form,
  );
  if (!history.messages.length && !history.before) list.append(greeting(me.assistant, title, !item, (text) => void submit(text)));
  // The page scrolls (not the list) and the composer sticks to its bottom: follow the newest text to
  // the true bottom of the page while the reader is there; a reader who scrolled up stays put.
  const page = document.scrollingElement ?? document.documentElement;
  let pinned = true;
  const onScroll = () => {
    if (!list.isConnected) window.removeEventListener('scroll', onScroll);
    else pinned = page.scrollHeight - page.scrollTop - page.clientHeight < 48;
  };
  window.addEventListener('scroll', onScroll, { passive: true });
  const scroll = (force = false) => {
    if (force) pinned = true;
    if (pinned) page.scrollTop = page.scrollHeight;
  };
  // every growth counts (streamed text, the tool trace, the suggested notes, Markdown rendered at the end)
  new MutationObserver(() => {
    scroll();
  }).observe(list, { childList: true, subtree: true, characterData: true });
  // and a sent image that arrives after the messages were drawn (load does not bubble: caught on its way down)
  list.addEventListener('load', () => scroll(), true);
  scroll(true);

  /**
   * Replies this page lost while offline or while Charlie was unreachable, each with how to pick it
   * up again: a turn the server accepted is followed again from its start (resumeTurn replays it);
   * a message that never arrived is sent again. The network coming back (or Retry) does it.
   */
  const lost = new Map<Reply, () => void>();
  const recover = () => {
    if (!list.isConnected) window.removeEventListener('online', recover);
    else if (!running) {
      const pick = [...lost.values()].pop();
      lost.clear();
      pick?.();
    }
  };
  window.addEventListener('online', recover);
  const follow = async (start: () => Promise<Response>, live: Reply, bubble: HTMLElement | null = null, branched = false) => {
    running = live;
    ownEdits();
    send.hidden = true;
    stop.hidden = false;
    stop.disabled = false;
    try {
      await readEvents(await start(), (e) => {
        live.on(e);
        const source = e.event === 'accepted' ? (e.data as { source?: unknown }).source : undefined;
        if (typeof source === 'string') {
          live.el.dataset.source = source;
          if (bubble) bubble.dataset.source = source;
        }
        scroll();
      });
      live.lost('lost', 'the connection to Charlie ended before the reply did');
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      if (err instanceof ApiError) live.lost('charlie_said', why);
      else live.lost(clientFailure(err), why);
    } finally {
      running = null;
      stop.hidden = true;
      send.hidden = false;
      ownEdits();
      if (branched) void refreshAlternatives().catch(() => undefined);
      if (here && !here.renamed && here.messages === 0) refreshTitles(project, conversation);
      const cause = live.cutHere;
      if (cause === 'offline' || cause === 'charlie_unreachable') {
        const turn = live.turnId;
        const again = turn ? () => resumeTurn(turn, 0) : start;
        lost.set(live, () => {
          const next = new Reply(project, me, actions, true);
          live.el.replaceWith(next.el);
          void follow(again, next, bubble);
        });
      }
      if (live.reason && live.reason !== 'cancelled' && !cause) notifyReply(me.assistant, title, live.markdown, messageHref(project, live.el.dataset.source ?? ''));
      if (document.activeElement === stop || document.activeElement === document.body) input.focus();
    }
  };

  /** Stops the reply being streamed: the server cancels the turn (its model call ends too). */
  const stopTurn = () => {
    const turn = running?.turnId;
    if (!turn || stop.disabled) return;
    stop.disabled = true;
    api.cancel(turn).catch((e: unknown) => {
      stop.disabled = false;
      toast(e instanceof Error ? e.message : String(e), 'error');
    });
  };
  stop.addEventListener('click', stopTurn);
  const onKey = (e: KeyboardEvent) => {
    if (!list.isConnected) document.removeEventListener('keydown', onKey);
    else if (e.key === 'Escape' && running) {
      e.preventDefault();
      stopTurn();
    }
  };
  document.addEventListener('keydown', onKey);

  const submit = async (text: string, mode: 'text' | 'voice' = 'text') => {
    if (running || (!text.trim() && !images.length)) return;
    // a new message goes below the newest ones: they are drawn again first when they were left out
    if (older.trimmed) await showNewest().catch(() => undefined);
    askToNotify();
    list.querySelector('.greeting')?.remove();
    // the images just sent are shown from this page's own copies; after a reload, from the server
    const bubble = userBubble({ speaker: me.name, text }, images);
    list.append(bubble);
    lastQuestion = text;
    const live = new Reply(project, me, actions, true);
    list.append(live.el);
    scroll(true);
    const body = { text, mode, conversation, ...(images.length ? { images: images.splice(0) } : {}) };
    attached.replaceChildren();
    await follow(() => sendMessage(project, body), live, bubble);
  };

  /** Edit and resend one of your messages: a new alternative of it, and what followed is a branch of its own (the old one is kept). */
  function editAt(bubble: HTMLElement | undefined): void {
    const replaces = bubble?.dataset.source;
    if (running || !bubble || !replaces) return;
    pinned = false; // the editor stays on screen, also after a long reply below it
    startEdit(bubble, bubble.querySelector('.bubble-text')?.textContent ?? '', (text) => {
      askToNotify();
      while (bubble.nextElementSibling) bubble.nextElementSibling.remove();
      lastQuestion = text;
      const live = new Reply(project, me, actions, true);
      list.append(live.el);
      scroll(true);
      void follow(() => sendMessage(project, { text, mode: 'text', conversation, replaces }), live, bubble, true);
    });
    bubble.scrollIntoView({ block: 'nearest' });
  }
  const editLast = () => editAt([...list.querySelectorAll<HTMLElement>('.msg.user')].filter((m) => m.querySelector('.who')?.textContent === me.name).pop());

  /** Retry (after an error) or Regenerate (any answer): its question again, a new alternative; what followed it is another branch. */
  const again = async (old: Reply) => {
    if (running) return;
    const pick = lost.get(old);
    if (pick) {
      lost.delete(old);
      pick();
      return;
    }
    const regenerates = old.el.dataset.source;
    if (!regenerates && !lastQuestion.trim()) return;
    askToNotify();
    const live = new Reply(project, me, actions, true);
    while (old.el.nextElementSibling) old.el.nextElementSibling.remove();
    old.el.replaceWith(live.el);
    scroll(true);
    const body = regenerates ? { text: '', regenerates } : { text: lastQuestion, retry: true };
    await follow(() => sendMessage(project, { ...body, mode: 'text', conversation }), live, null, true);
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (running) return; // Enter while a reply streams keeps the text for later
    const text = input.value;
    input.value = '';
    void submit(text);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      form.requestSubmit();
    } else if (e.key === 'ArrowUp' && !input.value) {
      e.preventDefault();
      editLast();
    }
  });
  file.addEventListener('change', () => {
    for (const f of [...(file.files ?? [])].slice(0, 4)) {
      if (f.size > 5_000_000) {
        toast(`${f.name} is larger than 5 MB`, 'error');
        continue;
      }
      const reader = new FileReader();
      reader.addEventListener('load', () => {
        if (typeof reader.result !== 'string') return;
        images.push(reader.result);
        attached.append(h('img', { src: reader.result, alt: f.name, class: 'thumb' }));
      });
      reader.readAsDataURL(f);
    }
    if (!me.acceptsImages) toast('The model does not accept images; they will be skipped with a notice.');
    file.value = '';
  });
  let recording: Recording | null = null;
  mic.addEventListener('click', () => {
    void (async () => {
      try {
        if (!recording) {
          recording = await startRecording();
          mic.classList.add('recording');
          mic.setAttribute('aria-pressed', 'true');
          toast('Recording… press again to send');
          return;
        }
        const blob = await recording.stop();
        recording = null;
        mic.classList.remove('recording');
        mic.setAttribute('aria-pressed', 'false');
        const text = await transcribe(await toWav16k(blob));
        if (text.trim()) await submit(text, 'voice');
        else toast('Nothing was heard.');
      } catch (err) {
        recording = null;
        mic.classList.remove('recording');
        toast(err instanceof Error ? err.message : String(err), 'error');
      }
    })();
  });
  // A turn still running (or one that ended while this page loaded its history) is replayed.
  const unanswered = history.messages[history.messages.length - 1]?.role === 'user';
  if (current.turn && (current.turn.conversation ?? 'main') === conversation && (!current.turn.done || unanswered)) {
    const live = new Reply(project, me, actions, true);
    list.append(live.el);
    const turn = current.turn.id;
    void follow(() => resumeTurn(turn, 0), live);
  }

  intake.listen(list);
  intake.listen(form);
  ownEdits();
  if (!focus) input.focus();
  else if (!show(focus)) pick(focus);
}
