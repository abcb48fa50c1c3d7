/**
 * Splits a reply into Discord-sized messages (2000 characters), preferring line breaks,
 * closing an open code fence at the end of a part and reopening it (same info string) in the next.
 */

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
