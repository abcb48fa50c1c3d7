/**
 * One reply of Charlie's in the chat, streamed live or drawn from history: its text (Markdown
 * rendered as it arrives), its tool trace (what Charlie searched, found and opened, and the
 * questions before a tool with side effects), suggested notes, a cut reply's error with Retry,
 * and Copy / Regenerate / Read aloud. The chat (chat.ts) owns the conversation around it.
 */
import { api, type ChatEntry, type FailureWire, type Me, type StreamEvent, type TraceCall } from './api.js';
import { failureWords, withoutHalfRow, type ClientFailure } from './failure-words.js';
import { clear, h, icon, toast } from './dom.js';
import { pageHref, pageTitle, summaryWords, withoutStorageSyntax } from './words.js';
import { copyButton, renderReply } from './reply.js';
import { speak } from './voice.js';
import { closeConsent, consentQuestion } from './consent-dialog.js';
import type { ConsentAnswerWire, ConsentEventWire } from '../shared/consent.js';

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
  /** Why a turn failed (turn_end). */
  failure?: FailureWire;
  /** A notice that the model stopped at its own length limit (the reply is cut). */
  cut?: boolean;
  /** An MCP tool: which server and its own name of the tool. */
  source?: { server: string; tool: string };
  /** A tool confirmation (`confirm`, `confirm_done`). */
  id?: string;
  server?: string;
  tool?: string;
  allowed?: boolean;
}

/** A page argument of a tool (`notes/People/Leo-Chen.md`, `People/Leo-Chen#^r-3f9a`) as a person reads it: the page's title. */
function argWords(v: string): string {
  return pageTitle(v.replace(/#\^r-[\w-]+$/, ''));
}

function argsText(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  return Object.entries(args as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? `“${/page|path|note/i.test(k) ? argWords(v) : withoutStorageSyntax(v)}”` : JSON.stringify(v)}`)
    .join(', ')
    .slice(0, 200);
}

export interface ReplyActions {
  /** Sends the question again, replacing this reply. */
  again(reply: Reply): void;
}

/** One reply of Charlie's: streamed live or drawn from history; text, trace, suggestions, error, actions. */
export class Reply {
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
    r.cause = entry.trace?.failure;
    // the server keeps that the model cut this reply: the notice comes back after a reload
    const cut = entry.trace?.cut;
    if (cut) r.modelCut(cut);
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
    clear(result, summaryWords(d.summary ?? ''), ...(d.pages ?? []).slice(0, 6).map((p) => [' · ', h('a', { href: pageHref(this.project, p) }, pageTitle(p))]));
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
      case 'consent':
        this.trace.append(consentQuestion(e.data as ConsentEventWire, () => this.turnId));
        break;
      case 'consent_done':
        closeConsent(this.trace, d.id ?? '', (e.data as { answer: ConsentAnswerWire }).answer);
        break;
      case 'text_delta':
        this.content += d.text ?? '';
        this.draw();
        break;
      case 'notice':
        if (d.cut) this.modelCut(d.text ?? '');
        else if (d.text !== 'cancelled') this.extra.append(h('p', { class: `notice ${d.level ?? 'info'}` }, d.text ?? ''));
        break;
      case 'turn_end':
        // a cut reply keeps what was streamed; a finished one is the model's whole text
        if (d.reason === 'error') {
          this.failure = d.error ?? '';
          this.cause = d.failure;
        } else if (d.text) this.content = d.text;
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

  /** The model stopped at its own length limit: said under the reply, and a table row it left half drawn goes. */
  private cut = false;
  private modelCut(words: string): void {
    this.cut = true;
    this.extra.append(h('p', { class: 'notice warn cut' }, words));
  }

  private failure: string | undefined;
  /** Why the turn failed, as the server classified it. */
  private cause: FailureWire | undefined;
  /** Why this page lost the reply (offline, Charlie not answering, the stream ended early). */
  private clientCause: ClientFailure | undefined;
  /** The stream failed on this side: the reply can be picked up again (resumeTurn) or sent again. */
  get cutHere(): ClientFailure | undefined {
    return this.clientCause;
  }

  /** The stream ended without an outcome: `cause` says why, `why` is the owner's detail. */
  lost(cause: ClientFailure, why: string): void {
    if (this.done) return;
    this.clientCause = cause;
    this.end('error', why, []);
  }

  private end(reason: string, error: string | undefined, related: string[]): void {
    if (this.done) return;
    this.done = true;
    this.reason = reason;
    cancelAnimationFrame(this.frame);
    this.el.classList.remove('live');
    this.text.classList.remove('streaming');
    this.text.removeAttribute('aria-live');
    const failed = reason === 'error';
    if (failed || reason === 'cancelled' || this.cut) this.content = withoutHalfRow(this.content);
    if (this.content || !failed) renderReply(this.text, this.content || (reason === 'cancelled' ? '' : '(no answer)'), true);
    else this.text.replaceChildren();
    if (reason === 'cancelled') this.extra.append(h('p', { class: 'notice stopped' }, 'Stopped.'));
    if (failed) {
      this.el.classList.add('failed');
      const said = failureWords(this.cause, this.clientCause, error);
      const detail = this.me.kind === 'owner' && error ? h('details', { class: 'detail' }, h('summary', {}, 'Details'), h('p', {}, error)) : null;
      this.extra.append(
        h(
          'div',
          { class: `reply-error ${this.clientCause ?? this.cause?.kind ?? 'internal'}`, role: 'alert' },
          h('p', {}, h('strong', {}, said.title), ' ', said.words),
          h('p', { class: 'next' }, said.next),
          detail,
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
    if (!failed) this.actions.append(h('button', { type: 'button', class: 'small regenerate', onclick: () => this.act.again(this) }, 'Regenerate'));
    if (this.me.speech.tts && this.content) {
      this.actions.append(
        h('button', { class: 'small', type: 'button', onclick: () => void speak(this.content, this.project).catch((e: unknown) => toast(String(e), 'error')) }, icon('speaker'), ' Read aloud'),
      );
    }
  }
}
