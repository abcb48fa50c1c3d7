/**
 * Streaming filter for the visible text of a reply. Recovers tool calls that local models
 * write inside their text — `<tool_call>{..}</tool_call>` (Qwen, Hermes), a ```json fence or a
 * bare leading object naming a known tool, `[TOOL_CALLS][..]` (Mistral) — and strips
 * `<think>…</think>` reasoning. Text that might be the start of a marker is held back until
 * the next chunk (or the end) shows what it is; everything else passes through at once.
 */
import type { ToolCall } from '../core/ports/index.js';
import { scanJsonEnd } from '../core/writing/json-scan.js';
import { parseCallJson, parseMistralCalls, type ParsedCall } from './text-tool-call-parse.js';

export type TextPiece = { type: 'text'; text: string } | { type: 'tool_call'; call: ToolCall };

export interface TextFilterOptions {
  /** Names of the tools offered; null when no tools were offered (tool markers are then left alone). */
  toolNames: ReadonlySet<string> | null;
  newId: () => string;
}

const TAG_OPEN = '<tool_call>';
const TAG_CLOSE = '</tool_call>';
const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const FENCE = '```';
const MISTRAL = '[TOOL_CALLS]';
/**
 * Text held back while deciding whether it is a tool call is released as plain text past this
 * size: no real call is that long, and re-scanning an ever-growing buffer would be quadratic.
 */
export const MAX_HELD_CHARS = 32_000;
/** Fence languages that may hold a tool call; any other fence is plain text. */
const CALL_FENCES = new Set(['', 'json', 'tool_call', 'tool_code']);

type Mode = 'text' | 'tag' | 'think' | 'fence' | 'code' | 'mistral' | 'leading';

export class TextToolCallFilter {
  private buf = '';
  private mode: Mode = 'text';
  /** Any visible non-space text or call produced yet (a bare JSON call is only recognised at the start). */
  private started = false;
  private out: TextPiece[] = [];
  /** Drop the whitespace that follows a recovered call or a reasoning block. */
  private skipSpace = false;
  private readonly markers: string[];

  constructor(private readonly options: TextFilterOptions) {
    this.markers = options.toolNames ? [TAG_OPEN, FENCE, MISTRAL, THINK_OPEN] : [THINK_OPEN];
  }

  push(text: string): TextPiece[] {
    this.buf += text;
    this.run(false);
    return this.take();
  }

  /** End of the reply: resolve anything held back. */
  end(): TextPiece[] {
    this.run(true);
    return this.take();
  }

  private take(): TextPiece[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private run(final: boolean): void {
    for (let guard = 0; guard < 10_000; guard++) {
      const progressed = this.step(final);
      if (!progressed) return;
    }
  }

  /** One state transition; false when it needs more input. */
  private step(final: boolean): boolean {
    if (this.mode !== 'text' && this.mode !== 'code' && this.mode !== 'think' && this.buf.length > MAX_HELD_CHARS) return this.release();
    switch (this.mode) {
      case 'text':
        return this.stepText(final);
      case 'tag':
        return this.stepTag(final);
      case 'think':
        return this.stepThink(final);
      case 'fence':
        return this.stepFence(final);
      case 'code':
        return this.stepCode(final);
      case 'mistral':
        return this.stepMistral(final);
      case 'leading':
        return this.stepLeading(final);
    }
  }

  private stepText(final: boolean): boolean {
    if (this.skipSpace) {
      this.buf = this.buf.replace(/^\s+/, '');
      if (this.buf !== '') this.skipSpace = false;
    }
    if (this.buf === '') return false;
    if (this.options.toolNames && !this.started) {
      const lead = this.buf.trimStart();
      if (lead === '') {
        if (final) {
          this.emitText(this.buf);
          this.buf = '';
        }
        return false;
      }
      if (lead.startsWith('{')) return this.enter('leading', 0, 0);
    }
    let at = -1;
    let marker = '';
    for (const m of this.markers) {
      const i = this.buf.indexOf(m);
      if (i !== -1 && (at === -1 || i < at)) {
        at = i;
        marker = m;
      }
    }
    if (at !== -1) {
      if (marker === TAG_OPEN) return this.enter('tag', at, TAG_OPEN.length);
      if (marker === THINK_OPEN) return this.enter('think', at, THINK_OPEN.length);
      if (marker === MISTRAL) return this.enter('mistral', at, MISTRAL.length);
      return this.enter('fence', at, 0);
    }
    const hold = final ? 0 : heldSuffix(this.buf, this.markers);
    this.emitText(this.buf.slice(0, this.buf.length - hold));
    this.buf = this.buf.slice(this.buf.length - hold);
    return false;
  }

  /** Emit the text before `at`, drop `skip` marker characters, switch mode. */
  private enter(mode: Mode, at: number, skip: number): boolean {
    this.emitText(this.buf.slice(0, at));
    this.buf = this.buf.slice(at + skip);
    this.mode = mode;
    return true;
  }

  private stepTag(final: boolean): boolean {
    const close = this.buf.indexOf(TAG_CLOSE);
    if (close === -1 && !final) return false;
    const content = close === -1 ? this.buf : this.buf.slice(0, close);
    const calls = parseCallJson(content, null);
    if (calls) this.emitCalls(calls);
    else this.emitText(TAG_OPEN + content + (close === -1 ? '' : TAG_CLOSE));
    this.buf = close === -1 ? '' : this.buf.slice(close + TAG_CLOSE.length);
    this.mode = 'text';
    return true;
  }

  private stepThink(final: boolean): boolean {
    const close = this.buf.indexOf(THINK_CLOSE);
    if (close === -1) {
      // reasoning is never shown; keep only what could be the start of the closing tag
      this.buf = final ? '' : this.buf.slice(-(THINK_CLOSE.length - 1));
      if (final) this.mode = 'text';
      return false;
    }
    this.buf = this.buf.slice(close + THINK_CLOSE.length);
    this.skipSpace = true;
    this.mode = 'text';
    return true;
  }

  /** `buf` starts with ```: a call only if the language fits and the content starts with `{`. */
  private stepFence(final: boolean): boolean {
    const head = /^```([\w-]*)[ \t]*\r?\n?\s*/.exec(this.buf)!;
    const first = this.buf[head[0].length];
    if (first === undefined && !final) return false; // language or first character not known yet
    const lang = head[1]!.toLowerCase();
    if (first !== '{' && first !== '[') return this.releaseFence();
    if (!CALL_FENCES.has(lang)) return this.releaseFence();
    const close = this.buf.indexOf(FENCE, head[0].length);
    if (close === -1 && !final) return false;
    const content = this.buf.slice(head[0].length, close === -1 ? undefined : close);
    const calls = parseCallJson(content, this.options.toolNames);
    const end = close === -1 ? this.buf.length : close + FENCE.length;
    if (calls) this.emitCalls(calls);
    else this.emitText(this.buf.slice(0, end));
    this.buf = this.buf.slice(end);
    this.mode = 'text';
    return true;
  }

  /** Give up on a would-be call that grew too long: it is text after all. */
  private release(): boolean {
    const prefix = this.mode === 'tag' ? TAG_OPEN : this.mode === 'mistral' ? MISTRAL : '';
    this.emitText(prefix + this.buf);
    this.started = true;
    this.buf = '';
    this.mode = 'text';
    return false;
  }

  private releaseFence(): boolean {
    this.emitText(FENCE);
    this.buf = this.buf.slice(FENCE.length);
    this.mode = 'code';
    return true;
  }

  /** Inside an ordinary code block: pass through until its closing fence. */
  private stepCode(final: boolean): boolean {
    const close = this.buf.indexOf(FENCE);
    if (close !== -1) {
      this.emitText(this.buf.slice(0, close + FENCE.length));
      this.buf = this.buf.slice(close + FENCE.length);
      this.mode = 'text';
      return true;
    }
    const hold = final ? 0 : heldSuffix(this.buf, [FENCE]);
    this.emitText(this.buf.slice(0, this.buf.length - hold));
    this.buf = this.buf.slice(this.buf.length - hold);
    return false;
  }

  private stepMistral(final: boolean): boolean {
    if (!final) return false;
    const parsed = parseMistralCalls(this.buf);
    if (parsed) {
      this.emitCalls(parsed.calls);
      if (parsed.rest.trim()) this.emitText(parsed.rest);
    } else {
      this.emitText(MISTRAL + this.buf);
    }
    this.buf = '';
    this.mode = 'text';
    return false;
  }

  /** The reply starts with `{`: a bare JSON call naming a known tool, or ordinary text. */
  private stepLeading(final: boolean): boolean {
    const start = this.buf.indexOf('{');
    const key = /^\{\s*(\S)/.exec(this.buf.slice(start));
    if (key && key[1] !== '"') {
      // `{` not followed by a key: ordinary text, stream it now
      this.started = true;
      this.mode = 'text';
      return true;
    }
    const end = scanJsonEnd(this.buf, start);
    if (end === -1 && !final) return false;
    const upto = end === -1 ? this.buf.length : end;
    const calls = parseCallJson(this.buf.slice(start, upto), this.options.toolNames);
    if (calls) this.emitCalls(calls);
    else this.emitText(this.buf.slice(0, upto));
    this.started = true;
    this.buf = this.buf.slice(upto);
    this.mode = 'text';
    return true;
  }

  private emitText(text: string): void {
    if (text === '') return;
    if (text.trim() !== '') this.started = true;
    const last = this.out.at(-1);
    if (last?.type === 'text') last.text += text;
    else this.out.push({ type: 'text', text });
  }

  private emitCalls(calls: ParsedCall[]): void {
    this.started = true;
    this.skipSpace = true;
    for (const c of calls) this.out.push({ type: 'tool_call', call: { id: this.options.newId(), name: c.name, arguments: c.arguments } });
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of one of `markers`. */
export function heldSuffix(text: string, markers: readonly string[]): number {
  const longest = Math.max(...markers.map((m) => m.length)) - 1;
  for (let k = Math.min(longest, text.length); k > 0; k--) {
    const suffix = text.slice(text.length - k);
    if (markers.some((m) => m.startsWith(suffix))) return k;
  }
  return 0;
}
