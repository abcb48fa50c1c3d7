/**
 * Splits a reply into Discord-sized messages (2000 characters), preferring line breaks,
 * closing an open code fence at the end of a part and reopening it (same info string) in the next.
 */
import { REPLY_CUT } from '../core/turn/events.js';

export const DISCORD_MESSAGE_LIMIT = 2000;

const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;

interface Fence {
  marker: string;
  opener: string;
}

export function splitMessage(text: string, limit = DISCORD_MESSAGE_LIMIT): string[] {
  if (text.length <= limit) return text.trim().length ? [text] : [];
  const parts: string[] = [];
  let open: Fence | null = null;
  let current = '';
  let fresh = true; // current holds nothing but a reopened fence

  const push = () => {
    if (!fresh) parts.push(current + (open ? `\n${open.marker}` : ''));
    current = open ? open.opener : '';
    fresh = true;
  };

  for (const line of text.split('\n')) {
    const fence = FENCE.exec(line);
    let next: Fence | null = open;
    if (fence) {
      const closes = open && fence[1]![0] === open.marker[0] && fence[1]!.length >= open.marker.length && !fence[2]!.trim();
      if (closes) next = null;
      else if (!open) next = { marker: fence[1]!, opener: line.trim() };
    }
    const width = limit - 16 - (open ? open.opener.length + open.marker.length + 2 : 0);
    for (const piece of wrap(line, Math.max(width, 100))) {
      const after = fence ? next : open;
      const reserve = after ? after.marker.length + 1 : 0;
      let candidate = current === '' ? piece : `${current}\n${piece}`;
      if (candidate.length + reserve > limit && !fresh) {
        push();
        candidate = current === '' ? piece : `${current}\n${piece}`;
      }
      current = candidate;
      fresh = false;
    }
    open = next;
  }
  if (!fresh && current.trim().length) parts.push(current + (open ? `\n${open.marker}` : ''));
  return parts;
}

/** Cuts a line longer than `width` at spaces where it can, hard otherwise. */
function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(' ', width);
    if (cut < width / 2) cut = width;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, '');
  }
  if (rest.length) out.push(rest);
  return out;
}

/**
 * `splitMessage`, but at most `maxMessages` parts (DISCORD_REPLY_MAX_MESSAGES): the last one is
 * cut short and ends with the visible REPLY_CUT, leaving `reserve` characters free for a footer.
 * Every reply Charlie posts in a channel, typed or spoken, goes through this.
 */
export function splitCapped(text: string, options: { maxMessages: number; limit?: number; reserve?: number }): string[] {
  const limit = options.limit ?? DISCORD_MESSAGE_LIMIT;
  const parts = splitMessage(text, limit);
  if (parts.length <= options.maxMessages) return parts;
  const kept = parts.slice(0, options.maxMessages);
  const room = limit - (options.reserve ?? 0) - REPLY_CUT.length - 12;
  let last = (kept.pop() ?? '').slice(0, Math.max(0, room));
  if ((last.match(/^\s*(```|~~~)/gm) ?? []).length % 2 === 1) last += '\n```';
  kept.push(`${last}\n\n${REPLY_CUT}`);
  return kept;
}
