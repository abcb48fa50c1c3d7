/**
 * The chat view: history, a streamed reply with its tool trace (what Charlie searched, found and
 * opened), suggested notes, image upload and push-to-talk. A reply that is still streaming when
 * the page reloads is picked up again from the server.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { api, readEvents, resumeTurn, sendMessage, type ChatEntry, type Me, type StreamEvent } from './api.js';
import { clear, h, icon, toast } from './dom.js';
import { pageHref } from './markdown.js';
import { speak, startRecording, toWav16k, transcribe, type Recording } from './voice.js';

const replyMd = new MarkdownIt({ html: false, linkify: true, breaks: true });

function replyHtml(text: string): string {
  return DOMPurify.sanitize(replyMd.render(text), { USE_PROFILES: { html: true }, FORBID_ATTR: ['style'] });
}

function bubble(entry: Pick<ChatEntry, 'role' | 'speaker' | 'text'>, me: Me): HTMLElement {
  const body = h('div', { class: 'bubble-text' });
  if (entry.role === 'assistant') body.innerHTML = replyHtml(entry.text);
  else body.textContent = entry.text;
  return h('li', { class: `msg ${entry.role}` }, h('div', { class: 'who' }, entry.role === 'assistant' ? me.assistant : entry.speaker), body);
}

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

/** A reply being streamed: text, trace and suggestions update as events arrive. */
class LiveReply {
  readonly el: HTMLElement;
  private readonly text = h('div', { class: 'bubble-text streaming', 'aria-live': 'polite' });
  private readonly trace = h('ol', { class: 'trace', 'aria-label': 'What Charlie did' });
  private readonly extra = h('div', { class: 'reply-extra' });
  private readonly calls = new Map<string, HTMLElement>();
  private content = '';
  lastId = 0;
  turnId = '';
  done = false;

  constructor(
    private readonly project: string,
    private readonly me: Me,
  ) {
    this.el = h('li', { class: 'msg assistant live' }, h('div', { class: 'who' }, me.assistant), this.trace, this.text, this.extra);
    this.text.append(h('span', { class: 'typing' }, 'thinking…'));
  }

  on(e: StreamEvent): void {
    if (e.id) this.lastId = Math.max(this.lastId, e.id);
    const d = (e.data ?? {}) as TraceData & { turnId?: string };
    switch (e.event) {
      case 'accepted':
        this.turnId = d.turnId ?? '';
        break;
      case 'tool_call': {
        const name = d.source ? `${d.source.server} › ${d.source.tool}` : (d.name ?? 'tool');
        const li = h('li', { class: 'call' }, h('span', { class: 'tool' }, name), ' ', h('span', { class: 'args' }, argsText(d.args)), h('div', { class: 'result pending' }, 'working…'));
        this.calls.set(d.callId ?? String(this.calls.size), li);
        this.trace.append(li);
        break;
      }
      case 'tool_result': {
        const li = this.calls.get(d.callId ?? '') ?? this.trace.appendChild(h('li', { class: 'call' }, h('span', { class: 'tool' }, d.name ?? 'tool')));
        const result = li.querySelector('.result') ?? li.appendChild(h('div', { class: 'result' }));
        clear(result, d.summary ?? '', ...(d.pages ?? []).slice(0, 6).map((p) => [' · ', h('a', { href: pageHref(this.project, p) }, p.replace(/^notes\//, ''))]));
        result.className = `result ${d.ok === false ? 'failed' : 'ok'}`;
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
        if (!this.content) this.text.textContent = '';
        this.content += d.text ?? '';
        this.text.textContent = this.content;
        break;
      case 'notice':
        this.extra.append(h('p', { class: `notice ${d.level ?? 'info'}` }, d.text ?? ''));
        break;
      case 'turn_end':
        this.content = d.text ?? this.content;
        break;
      case 'outcome':
        this.finish(d.related ?? []);
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

  finish(related: string[]): void {
    if (this.done) return;
    this.done = true;
    this.el.classList.remove('live');
    this.text.classList.remove('streaming');
    this.text.innerHTML = replyHtml(this.content || '(no answer)');
    if (related.length) {
      this.extra.append(
        h(
          'div',
          { class: 'related' },
          h('span', {}, 'Suggested notes: '),
          related.map((p) => h('a', { class: 'chip', href: pageHref(this.project, p) }, icon('note'), p.replace(/^notes\//, '').replace(/\.md$/, ''))),
        ),
      );
    }
    if (this.me.speech.tts && this.content) {
      this.extra.append(h('button', { class: 'small', type: 'button', onclick: () => void speak(this.content).catch((e: unknown) => toast(String(e), 'error')) }, icon('speaker'), ' Read aloud'));
    }
  }
}

export async function renderChat(main: HTMLElement, project: string, title: string, me: Me): Promise<void> {
  const list = h('ol', { class: 'messages', 'aria-label': 'Conversation' });
  const input = h('textarea', { id: 'composer', rows: 2, placeholder: `Message ${me.assistant}…`, 'aria-label': 'Message' });
  const images: string[] = [];
  const attached = h('div', { class: 'attached' });
  const file = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/webp,image/gif', class: 'visually-hidden', id: 'image-file', multiple: true });
  const send = h('button', { type: 'submit', class: 'primary' }, 'Send');
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
    ),
  );
  // History first, so nothing typed meanwhile lands above it.
  const [history, current] = await Promise.all([api.messages(project), api.currentTurn(project).catch(() => ({ turn: null }))]);
  for (const m of history.messages) list.append(bubble(m, me));
  clear(main, h('header', { class: 'view-head' }, h('h1', {}, title)), list, form);
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

  const follow = async (res: Promise<Response>, live: LiveReply) => {
    send.disabled = true;
    try {
      await readEvents(await res, (e) => {
        live.on(e);
        scroll();
      });
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), 'error');
    } finally {
      live.finish([]);
      send.disabled = false;
    }
  };

  const submit = async (text: string, mode: 'text' | 'voice' = 'text') => {
    if (!text.trim() && !images.length) return;
    list.append(bubble({ role: 'user', speaker: me.name, text: text + (images.length ? ` [${images.length} image${images.length > 1 ? 's' : ''}]` : '') }, me));
    const live = new LiveReply(project, me);
    list.append(live.el);
    scroll(true);
    const body = { text, mode, ...(images.length ? { images: images.splice(0) } : {}) };
    attached.replaceChildren();
    await follow(sendMessage(project, body), live);
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value;
    input.value = '';
    void submit(text);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      form.requestSubmit();
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
    const live = new LiveReply(project, me);
    list.append(live.el);
    void follow(resumeTurn(current.turn.id, 0), live);
  }

  input.focus();
}
