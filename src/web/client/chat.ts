/**
 * The chat view: history, a streamed reply (Markdown rendered as it arrives) with its tool trace
 * (what Charlie searched, found and opened), suggested notes, image upload and push-to-talk. A
 * reply can be stopped (button or Esc: the turn is cancelled on the server), retried when a model
 * error cut it (the streamed words stay, with the error's own words) and regenerated. Traces,
 * suggestions and cut replies come back after a reload. A reply still streaming when the page
 * reloads is picked up again from the server.
 */
import { api, readEvents, resumeTurn, sendMessage, type ChatEntry, type Me, type ProjectItem, type StreamEvent, type TraceCall } from './api.js';
import { startEdit } from './chat-edit.js';
import { conversationSearch, messageHref } from './chat-search.js';
import { askToNotify, notifyReply } from './notify.js';
import { projectActions } from './project-menu.js';
import { clear, h, icon, toast } from './dom.js';
import { pageHref, pageTitle } from './words.js';
import { copyButton, renderReply } from './reply.js';
import { speak, startRecording, toWav16k, transcribe, type Recording } from './voice.js';

interface TraceData {
  callId?: string;
  name?: string;
  args?: unknown;
  ok?: boolean;
  summary?: string;
  pages?: string[];
  text?: string;
  level?: string;
  reason?: string;
  error?: string;
  related?: string[];
  /** An MCP tool: which server and its own name of the tool. */
  source?: { server: string; tool: string };
  /** A tool confirmation (`confirm`, `confirm_done`). */
  id?: string;
  server?: string;
  tool?: string;
  allowed?: boolean;
}

function argsText(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  return Object.entries(args as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? `“${v}”` : JSON.stringify(v)}`)
    .join(', ')
    .slice(0, 200);
}

interface ReplyActions {
  /** Sends the question again, replacing this reply. */
  again(reply: Reply): void;
}

/** One reply of Charlie's: streamed live or drawn from history; text, trace, suggestions, error, actions. */
class Reply {
  readonly el: HTMLElement;
  private readonly text = h('div', { class: 'bubble-text' });
  private readonly trace = h('ol', { class: 'trace', 'aria-label': 'What Charlie did' });
  private readonly extra = h('div', { class: 'reply-extra' });
  private readonly actions = h('div', { class: 'reply-actions' });
  private readonly calls = new Map<string, HTMLElement>();
  private content = '';
  private frame = 0;
  lastId = 0;
  turnId = '';
  done = false;
  /** How it ended (`done`, `error`, `cancelled`…). */
  reason = '';

  get markdown(): string {
    return this.content;
  }

  constructor(
    private readonly project: string,
    private readonly me: Me,
    private readonly act: ReplyActions,
    live: boolean,
  ) {
    this.el = h('li', { class: `msg assistant${live ? ' live' : ''}` }, h('div', { class: 'who' }, me.assistant), this.trace, this.text, this.extra, this.actions);
    if (live) {
      this.text.classList.add('streaming');
      this.text.setAttribute('aria-live', 'polite');
      this.text.append(h('span', { class: 'typing' }, 'thinking…'));
    }
  }

  /** A finished reply from history. */
  static from(entry: ChatEntry, project: string, me: Me, act: ReplyActions): Reply {
    const r = new Reply(project, me, act, false);
    if (entry.source) r.el.dataset.source = entry.source;
    for (const c of entry.trace?.calls ?? []) r.addCall(String(r.calls.size), c.name, c.args, c);
    r.content = entry.text;
    r.end(entry.trace?.reason ?? 'done', entry.trace?.error, entry.trace?.related ?? []);
    return r;
  }

  private addCall(id: string, name: string, args: unknown, result?: Pick<TraceCall, 'ok' | 'summary' | 'pages'>): void {
    const li = h('li', { class: 'call' }, h('span', { class: 'tool' }, name), ' ', h('span', { class: 'args' }, argsText(args)), h('div', { class: 'result pending' }, 'working…'));
    this.calls.set(id, li);
    this.trace.append(li);
    if (result?.summary !== undefined) this.setResult(li, result);
  }

  private setResult(li: HTMLElement, d: Pick<TraceCall, 'ok' | 'summary' | 'pages'>): void {
    const result = li.querySelector('.result') ?? li.appendChild(h('div', { class: 'result' }));
    clear(result, d.summary ?? '', ...(d.pages ?? []).slice(0, 6).map((p) => [' · ', h('a', { href: pageHref(this.project, p) }, pageTitle(p))]));
    result.className = `result ${d.ok === false ? 'failed' : 'ok'}`;
  }

  private draw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (!this.done) renderReply(this.text, this.content, false);
    });
  }

  on(e: StreamEvent): void {
    if (e.id) this.lastId = Math.max(this.lastId, e.id);
    const d = (e.data ?? {}) as TraceData & { turnId?: string };
    switch (e.event) {
      case 'accepted':
        this.turnId = d.turnId ?? '';
        break;
      case 'tool_call':
        this.addCall(d.callId ?? String(this.calls.size), d.source ? `${d.source.server} › ${d.source.tool}` : (d.name ?? 'tool'), d.args);
        break;
      case 'tool_result': {
        const li = this.calls.get(d.callId ?? '') ?? this.trace.appendChild(h('li', { class: 'call' }, h('span', { class: 'tool' }, d.name ?? 'tool')));
        this.setResult(li, d);
        break;
      }
      case 'confirm':
        this.trace.append(this.question(d));
        break;
      case 'confirm_done': {
        const box = this.trace.querySelector(`[data-confirm="${CSS.escape(d.id ?? '')}"]`);
        if (box) clear(box, d.allowed ? 'allowed' : 'not run');
        if (box) box.className = `confirm ${d.allowed ? 'ok' : 'failed'}`;
        break;
      }
      case 'text_delta':
        this.content += d.text ?? '';
        this.draw();
        break;
      case 'notice':
        if (d.text !== 'cancelled') this.extra.append(h('p', { class: `notice ${d.level ?? 'info'}` }, d.text ?? ''));
        break;
      case 'turn_end':
        // a cut reply keeps what was streamed; a finished one is the model's whole text
        if (d.reason === 'error') this.failure = d.error ?? d.text ?? 'the reply failed';
        else if (d.text) this.content = d.text;
        break;
      case 'outcome':
        this.end(d.reason ?? 'done', this.failure ?? (d.reason === 'error' ? (d.error ?? 'the turn failed') : undefined), d.related ?? []);
        break;
      default:
        break;
    }
  }

  /** Run it / Don't for a tool with side effects, with exactly what it will be sent. */
  private question(d: TraceData): HTMLElement {
    const answer = (allow: boolean) => {
      api.confirmTool(this.turnId, d.id ?? '', allow).catch((e: unknown) => toast(String(e), 'error'));
    };
    return h(
      'li',
      { class: 'confirm', 'data-confirm': d.id ?? '' },
      h('p', {}, `May I run ${d.tool ?? 'a tool'} on ${d.server ?? 'a tool server'}? (${d.reason ?? ''})`),
      h('pre', {}, JSON.stringify(d.args, null, 2)),
      h('button', { type: 'button', class: 'primary small', onclick: () => answer(true) }, 'Run it'),
      ' ',
      h('button', { type: 'button', class: 'small', onclick: () => answer(false) }, "Don't"),
    );
  }

  private failure: string | undefined;

  /** The stream ended without an outcome (the connection to Charlie was lost). */
  lost(why: string): void {
    if (!this.done) this.end('error', why, []);
  }

  private end(reason: string, error: string | undefined, related: string[]): void {
    if (this.done) return;
    this.done = true;
    this.reason = reason;
    cancelAnimationFrame(this.frame);
    this.el.classList.remove('live');
    this.text.classList.remove('streaming');
    this.text.removeAttribute('aria-live');
    if (this.content || !error) renderReply(this.text, this.content || (reason === 'cancelled' ? '' : '(no answer)'), true);
    else this.text.replaceChildren();
    if (reason === 'cancelled') this.extra.append(h('p', { class: 'notice stopped' }, 'Stopped.'));
    if (error) {
      this.el.classList.add('failed');
      this.extra.append(
        h(
          'div',
          { class: 'reply-error', role: 'alert' },
          h('p', {}, h('strong', {}, 'The reply was cut: '), error),
          h('button', { type: 'button', class: 'small primary retry', onclick: () => this.act.again(this) }, 'Retry'),
        ),
      );
    }
    if (related.length) {
      this.extra.append(
        h(
          'div',
          { class: 'related' },
          h('span', {}, 'Suggested notes: '),
          related.map((p) => h('a', { class: 'chip', href: pageHref(this.project, p) }, icon('note'), pageTitle(p))),
        ),
      );
    }
    if (this.content) this.actions.append(copyButton('Copy reply', () => this.content));
    if (!error) this.actions.append(h('button', { type: 'button', class: 'small regenerate', onclick: () => this.act.again(this) }, 'Regenerate'));
    if (this.me.speech.tts && this.content) {
      this.actions.append(h('button', { class: 'small', type: 'button', onclick: () => void speak(this.content).catch((e: unknown) => toast(String(e), 'error')) }, icon('speaker'), ' Read aloud'));
    }
  }
}

function userBubble(entry: Pick<ChatEntry, 'speaker' | 'text' | 'source'>): HTMLElement {
  return h('li', { class: 'msg user', 'data-source': entry.source ?? null }, h('div', { class: 'who' }, entry.speaker), h('div', { class: 'bubble-text' }, entry.text));
}

/** `focus`: the source of a message to show (a Memory view's "chat, 27 Nov, 14:02" link, a search hit). */
export async function renderChat(main: HTMLElement, project: string, title: string, me: Me, focus = '', item?: ProjectItem): Promise<void> {
  const list = h('ol', { class: 'messages', 'aria-label': 'Conversation' });
  const input = h('textarea', { id: 'composer', rows: 2, placeholder: `Message ${me.assistant}…`, 'aria-label': 'Message' });
  const images: string[] = [];
  const attached = h('div', { class: 'attached' });
  const file = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/webp,image/gif', class: 'visually-hidden', id: 'image-file', multiple: true });
  const send = h('button', { type: 'submit', class: 'primary send' }, 'Send');
  const stop = h('button', { type: 'button', class: 'stop', hidden: true, title: 'Stop the reply (Esc)' }, 'Stop');
  const mic = h(
    'button',
    { type: 'button', class: 'icon', 'aria-label': 'Push to talk', title: me.speech.stt ? 'Push to talk' : 'Speech-to-text is not set up', disabled: !me.speech.stt },
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
      input,
      mic,
      send,
      stop,
    ),
  );
  // History first, so nothing typed meanwhile lands above it.
  // a message asked for by a link may be older than the last 60: then more is loaded
  const [history, current] = await Promise.all([api.messages(project, focus ? 500 : 60), api.currentTurn(project).catch(() => ({ turn: null }))]);
  let lastQuestion = '';
  let running: Reply | null = null;
  const actions: ReplyActions = { again: (reply) => void again(reply) };
  for (const m of history.messages) {
    if (m.role === 'user') {
      list.append(userBubble(m));
      lastQuestion = m.text;
    } else list.append(Reply.from(m, project, me, actions).el);
  }
  /** Only the newest reply offers Regenerate (the one a new answer would replace). */
  const onlyLastRegenerates = () => {
    const buttons = [...list.querySelectorAll('.regenerate')];
    const last = list.lastElementChild;
    for (const b of buttons) if (!last?.contains(b)) b.remove();
  };
  /** Only the person's last message can be edited (while no reply is being written). */
  const onlyLastEdits = () => {
    for (const b of list.querySelectorAll('button.edit')) b.remove();
    const last = [...list.querySelectorAll<HTMLElement>('.msg.user')].pop();
    if (running || !last?.dataset.source) return;
    last.append(h('button', { type: 'button', class: 'small link edit', 'aria-label': 'Edit your last message', onclick: () => editLast() }, 'Edit'));
  };
  onlyLastRegenerates();
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
    if (show(source)) return;
    const href = messageHref(project, source);
    if (location.hash !== href) location.hash = href;
    else toast('That message is older than the 500 the chat can show.');
  };
  const heading = h('h1', {}, title);
  clear(main, h('header', { class: 'view-head chat-head' }, heading, projectActions(item, heading), conversationSearch(project, pick)), list, form);
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
  scroll(true);

  const follow = async (res: Promise<Response>, live: Reply, bubble: HTMLElement | null = null) => {
    running = live;
    onlyLastEdits();
    send.hidden = true;
    stop.hidden = false;
    stop.disabled = false;
    try {
      await readEvents(await res, (e) => {
        live.on(e);
        const source = e.event === 'accepted' ? (e.data as { source?: unknown }).source : undefined;
        if (typeof source === 'string') {
          live.el.dataset.source = source;
          if (bubble) bubble.dataset.source = source;
        }
        scroll();
      });
      live.lost('the connection to Charlie ended before the reply did');
    } catch (err) {
      live.lost(err instanceof Error ? err.message : String(err));
    } finally {
      running = null;
      stop.hidden = true;
      send.hidden = false;
      onlyLastRegenerates();
      onlyLastEdits();
      if (live.reason && live.reason !== 'cancelled') notifyReply(me.assistant, title, live.markdown, messageHref(project, live.el.dataset.source ?? ''));
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
    askToNotify();
    const bubble = userBubble({ speaker: me.name, text: text + (images.length ? ` [${images.length} image${images.length > 1 ? 's' : ''}]` : '') });
    list.append(bubble);
    lastQuestion = text;
    const live = new Reply(project, me, actions, true);
    list.append(live.el);
    scroll(true);
    const body = { text, mode, ...(images.length ? { images: images.splice(0) } : {}) };
    attached.replaceChildren();
    await follow(sendMessage(project, body), live, bubble);
  };

  /** Edit and resend the last message: it and its reply are replaced (the server keeps the edit too). */
  function editLast(): void {
    const bubble = [...list.querySelectorAll<HTMLElement>('.msg.user')].pop();
    const replaces = bubble?.dataset.source;
    if (running || !bubble || !replaces) return;
    startEdit(bubble, bubble.querySelector('.bubble-text')?.textContent ?? '', (text) => {
      askToNotify();
      while (bubble.nextElementSibling) bubble.nextElementSibling.remove();
      lastQuestion = text;
      const live = new Reply(project, me, actions, true);
      list.append(live.el);
      scroll(true);
      void follow(sendMessage(project, { text, mode: 'text', replaces }), live, bubble);
    });
  }

  /** Retry (after an error) or Regenerate: the last question again, its earlier answer replaced. */
  const again = async (old: Reply) => {
    if (running || !lastQuestion.trim()) return;
    askToNotify();
    const live = new Reply(project, me, actions, true);
    old.el.replaceWith(live.el);
    scroll(true);
    await follow(sendMessage(project, { text: lastQuestion, mode: 'text', retry: true }), live);
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
  if (current.turn && (!current.turn.done || unanswered)) {
    const live = new Reply(project, me, actions, true);
    list.append(live.el);
    void follow(resumeTurn(current.turn.id, 0), live);
  }

  onlyLastEdits();
  if (!focus || !show(focus)) input.focus();
}
