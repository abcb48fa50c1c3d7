/**
 * Renders a turn into Discord messages: streams the reply with edits at most once per
 * `intervalMs`, a visible in-progress footer (⏳ + tool status line) that becomes a done
 * footer (✓ + status, warnings), and splits long replies over at most `maxMessages` messages
 * (the rest is cut, visibly). Posting stops when the turn's deadline passes.
 * Talks to Discord only through `ReplySink`, so it is testable without a client.
 */
import { REPLY_CUT, type TurnEvent } from '../core/turn/events.js';
import { cleanModelText } from './sanitize.js';
import { DISCORD_MESSAGE_LIMIT, splitCapped } from './split.js';
import { ToolTrace } from './tool-trace.js';

/** JSON action rows (buttons) attached to the last message of a reply. */
export type ComponentRows = readonly unknown[];

export interface ReplySink<H> {
  /** Posts a new message (the first one of a reply answers the incoming message). */
  send(content: string, components?: ComponentRows): Promise<H>;
  edit(handle: H, content: string, components?: ComponentRows): Promise<void>;
  remove?(handle: H): Promise<void>;
}

export interface RendererOptions {
  intervalMs?: number;
  limit?: number;
  /** A reply never takes more Discord messages than this (DISCORD_REPLY_MAX_MESSAGES); unset: no cap. */
  maxMessages?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface FinalReply {
  text: string;
  notices?: string[];
  components?: ComponentRows;
  /** The turn's deadline: no message is posted or edited after it fires. */
  deadline?: AbortSignal;
}

/** Posting was abandoned because the turn's deadline passed. */
export class PostingDeadlineError extends Error {
  constructor() {
    super('the turn deadline passed while posting the reply; the rest was not posted');
    this.name = 'PostingDeadlineError';
  }
}

export class ReplyRenderer<H> {
  private raw = '';
  private readonly trace = new ToolTrace();
  private readonly notices: string[] = [];
  private readonly sent: { handle: H; content: string }[] = [];
  private readonly intervalMs: number;
  private readonly limit: number;
  private readonly maxMessages: number;
  private readonly now: () => number;
  private deadline: AbortSignal | undefined;
  private lastFlush: number;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private finished = false;

  constructor(
    private readonly sink: ReplySink<H>,
    options: RendererOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
    this.limit = options.limit ?? DISCORD_MESSAGE_LIMIT;
    this.maxMessages = options.maxMessages ?? Number.POSITIVE_INFINITY;
    this.now = options.now ?? Date.now;
    this.lastFlush = this.now();
    this.onError = options.onError ?? (() => {});
  }

  private readonly onError: (error: unknown) => void;

  /** Listener for the core's TurnEvents. */
  readonly onEvent = (event: TurnEvent): void => {
    if (this.finished) return;
    if (event.type === 'text_delta') this.raw += event.text;
    else if (event.type === 'notice') this.notices.push(event.text);
    else if (!this.trace.onEvent(event)) return;
    this.schedule();
  };

  /** Number of messages posted so far. */
  get messageCount(): number {
    return this.sent.length;
  }

  /** Writes the final state (no in-progress marker) and stops streaming. */
  async finish(final: FinalReply): Promise<void> {
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.deadline = final.deadline;
    const notices = [...new Set([...this.notices, ...(final.notices ?? [])])];
    const parts = this.compose(final.text, true, notices);
    const posted = this.enqueue(parts, final.components);
    const deadline = final.deadline;
    if (!deadline) return posted;
    if (deadline.aborted) {
      this.onError(new PostingDeadlineError());
      return;
    }
    // A sink call that hangs must not hold the channel past the turn's deadline.
    await new Promise<void>((resolve) => {
      const onAbort = () => {
        this.onError(new PostingDeadlineError());
        resolve();
      };
      deadline.addEventListener('abort', onAbort, { once: true });
      void posted.finally(() => {
        deadline.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  private schedule(): void {
    if (this.timer || this.finished) return;
    const delay = Math.max(0, this.lastFlush + this.intervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.finished) return;
      this.lastFlush = this.now();
      void this.enqueue(this.compose(this.raw, false, this.notices));
    }, delay);
  }

  private enqueue(parts: string[], components?: ComponentRows): Promise<void> {
    this.chain = this.chain.then(() => this.sync(parts, components)).catch((error: unknown) => this.onError(error));
    return this.chain;
  }

  private async sync(parts: string[], components?: ComponentRows): Promise<void> {
    for (let i = 0; i < parts.length; i++) {
      if (this.deadline?.aborted) return;
      const content = parts[i]!;
      const rows = i === parts.length - 1 ? components : undefined;
      const existing = this.sent[i];
      if (!existing) this.sent.push({ handle: await this.sink.send(content, rows), content });
      else if (existing.content !== content || rows) {
        await this.sink.edit(existing.handle, content, rows);
        existing.content = content;
      }
    }
    while (this.sent.length > parts.length && this.sink.remove) {
      const extra = this.sent.pop()!;
      await this.sink.remove(extra.handle);
    }
  }

  private compose(rawText: string, done: boolean, notices: string[]): string[] {
    const body = visibleBody(rawText, done);
    const status = this.trace.line();
    const footer: string[] = [];
    if (!done) footer.push(`-# ⏳ ${status || 'thinking…'}`);
    else if (status) footer.push(`-# ✓ ${status}`);
    for (const n of notices) footer.push(`-# ⚠ ${n.replace(/\s+/g, ' ').slice(0, 300)}`);
    const foot = footer.join('\n');
    const parts = splitCapped(body, { maxMessages: this.maxMessages, limit: this.limit, reserve: foot.length });
    if (!foot) return parts.length ? parts : ['…'];
    const last = parts[parts.length - 1];
    if (last !== undefined && last.length + foot.length + 2 <= this.limit) parts[parts.length - 1] = `${last}\n\n${foot}`;
    else parts.push(foot);
    return parts;
  }
}

/**
 * The reply as shown: model internals removed, and the cut note kept even when it follows an
 * unclosed `<tool_call>` that cleaning drops. A finished reply that was nothing but internals
 * says so rather than showing nothing.
 */
function visibleBody(rawText: string, done: boolean): string {
  const cut = rawText.endsWith(REPLY_CUT);
  const text = cut ? rawText.slice(0, -REPLY_CUT.length) : rawText;
  let body = cleanModelText(text);
  if (done && !body && text.trim()) body = "(the model's reply held only tool-call markup, so there is nothing to show)";
  return cut ? `${body}\n\n${REPLY_CUT}`.trim() : body;
}
