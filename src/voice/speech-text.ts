/**
 * Make a reply speakable: no Markdown, no code, no URLs read aloud, and short. Pure
 * functions; the core may reuse `compressForSpeech` for voice-mode replies.
 */

export interface CompressOptions {
  /** Keep at most this many sentences. Default 4. */
  maxSentences?: number;
  /** …and at most about this many characters. Default 400. */
  maxChars?: number;
}

export const CODE_NOTE = "I've put the code in the text channel.";

/** Strip Markdown, code and URLs from one piece of text (a sentence or a whole reply). */
export function cleanForSpeech(text: string): string {
  let t = text;
  t = t.replace(/```[\s\S]*?(```|$)/g, ` ${CODE_NOTE} `);
  t = t.replace(/<https?:\/\/[^>]+>/g, 'a link');
  t = t.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1'); // images → alt text
  t = t.replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, '$1'); // [text](url) → text
  t = t.replace(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g, (_, target: string, label?: string) => label ?? target.split('/').pop()!.replace(/-/g, ' '));
  t = t.replace(/\bhttps?:\/\/(?:www\.)?([^\s/)]+?)(?:[/?#][^\s)]*?)?(?=[.,;:!?]?(?:\s|$|\)))/g, (_, host: string) => `a link to ${host}`);
  t = t.replace(/`([^`]{1,40})`/g, '$1'); // short inline code: say it
  t = t.replace(/`[^`]*`/g, 'the code in the channel'); // long inline code: do not
  t = t.replace(/^\s{0,3}#{1,6}\s+/gm, ''); // headings
  t = t.replace(/^\s{0,3}>\s?/gm, ''); // quotes
  t = t.replace(/^\s*(?:[-*+•]|\d+[.)])\s+/gm, ''); // list bullets
  t = t.replace(/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, ''); // table rules
  t = t.replace(/\|/g, ', ');
  t = t.replace(/^\s*([-*_])(\s*\1){2,}\s*$/gm, ''); // horizontal rules
  t = t.replace(/(\*\*|__)(.+?)\1/g, '$2').replace(/(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])/g, '$2');
  t = t.replace(/~~(.+?)~~/g, '$1');
  t = t.replace(/<\/?[a-z][^>]*>/gi, ''); // html tags
  t = t.replace(/<a?:(\w+):\d+>/g, '$1'); // discord custom emoji
  t = t.replace(/[*_#`]+/g, ' ');
  t = t.replace(/([^\s.!?:;,])[ \t]*\n+\s*/g, '$1. ').replace(/\s*\n+\s*/g, ' '); // a line break ends a sentence
  t = t
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/([.!?])\s*\.+/g, '$1');
  return t.trim();
}

/** Split finished text into sentences (used for truncation; streaming has its own splitter). */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+(?=[\p{Lu}\p{N}"'(])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A whole reply → what Charlie says: clean, and cut to conversational length at a sentence boundary. */
export function compressForSpeech(reply: string, options: CompressOptions = {}): string {
  const maxSentences = options.maxSentences ?? 4;
  const maxChars = options.maxChars ?? 400;
  const sentences = splitSentences(cleanForSpeech(reply));
  const kept: string[] = [];
  let chars = 0;
  for (const s of sentences) {
    if (kept.length >= maxSentences || (kept.length > 0 && chars + s.length > maxChars)) break;
    kept.push(s);
    chars += s.length + 1;
  }
  return kept.join(' ');
}
