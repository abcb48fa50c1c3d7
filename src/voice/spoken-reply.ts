/**
 * Turns a streaming reply (text deltas) into speakable sentences as soon as each one is
 * complete, so the first sentence is spoken while the rest is still being generated.
 * Code fences are held until closed and become one short note; Markdown and URLs are
 * cleaned per sentence; the spoken total is capped (the full reply goes to the channel).
 */
import { cleanForSpeech } from './speech-text.js';

export interface SpokenReplyOptions {
  /** Stop speaking after this many characters (the text channel has the rest). Default 600. */
  maxChars?: number;
  /** Break an overlong clause at a comma/space past this many characters. Default 220. */
  maxSentenceChars?: number;
}

const ABBREVIATIONS = /\b(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|approx|no|fig|inc|ltd|min|max)\.$/i;

export class SpokenReplyStream {
  private buffer = '';
  private spokenChars = 0;
  private done = false;

  constructor(private readonly options: SpokenReplyOptions = {}) {}

  /** Feed a delta; get the sentences now complete (already cleaned for speech). */
  push(delta: string): string[] {
    this.buffer += delta;
    return this.drain(false);
  }

  /** The reply ended: whatever is left. */
  end(): string[] {
    return this.drain(true);
  }

  private drain(final: boolean): string[] {
    const out: string[] = [];
    for (;;) {
      const cut = this.nextCut(final);
      if (cut < 0) break;
      const piece = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut);
      this.emit(piece, out);
    }
    if (final) {
      this.emit(this.buffer, out);
      this.buffer = '';
    }
    return out;
  }

  private emit(raw: string, out: string[]): void {
    if (this.done) return;
    const spoken = cleanForSpeech(raw);
    if (!/[\p{L}\p{N}]/u.test(spoken)) return;
    const max = this.options.maxChars ?? 600;
    if (this.spokenChars > 0 && this.spokenChars + spoken.length > max) {
      this.done = true;
      out.push('The rest is in the text channel.');
      return;
    }
    this.spokenChars += spoken.length;
    out.push(spoken);
  }

  /** Index just after the next complete sentence in the buffer, or -1. */
  private nextCut(final: boolean): number {
    const b = this.buffer;
    const fence = b.indexOf('```');
    const limit = fence >= 0 ? fence : b.length;
    for (let i = 0; i < limit; i++) {
      const c = b[i]!;
      if (c === '\n') {
        if (b.slice(0, i).trim()) return i + 1;
        continue;
      }
      if (c === '.' || c === '!' || c === '?' || c === '…') {
        const next = b[i + 1];
        if (next === undefined) break; // wait: "3." could become "3.5"
        if (!/\s/.test(next)) continue;
        if (c === '.' && (ABBREVIATIONS.test(b.slice(Math.max(0, i - 8), i + 1)) || /(^|\s)\p{L}\.$/u.test(b.slice(Math.max(0, i - 2), i + 1)))) continue;
        return i + 2;
      }
    }
    if (fence >= 0) {
      if (b.slice(0, fence).trim()) return fence;
      const close = b.indexOf('```', fence + 3);
      if (close >= 0) return close + 3;
      return final ? b.length : -1;
    }
    const maxSentence = this.options.maxSentenceChars ?? 220;
    if (b.length > maxSentence) {
      const comma = b.lastIndexOf(', ', maxSentence);
      if (comma > 40) return comma + 2;
      const space = b.lastIndexOf(' ', maxSentence);
      if (space > 40) return space + 1;
    }
    return -1;
  }
}
