/**
 * Is an utterance addressed to Charlie? It must start or end with the wake name (1–2 words),
 * tolerating what recognisers make of names: "Charly", "Charlie's", "hey Charlie", "Charlie,
 * …", "…, okay Charlie?". Returns the request with the name (and a leading greeting) removed.
 */
import { levenshtein, soundKey, words } from './text-normalize.js';

export interface WakeMatch {
  addressed: boolean;
  /** The utterance without the wake name and greeting, original wording kept. */
  rest: string;
}

const LEADING = new Set(['hey', 'hi', 'hello', 'ok', 'okay', 'yo', 'oh', 'so', 'um', 'uh', 'and', 'well', 'dear']);
const TRAILING = new Set(['please', 'thanks', 'ok', 'okay', 'right', 'yeah']);

export class WakeNameMatcher {
  private readonly target: string[];

  constructor(wakeName: string) {
    this.target = words(wakeName);
    if (this.target.length < 1 || this.target.length > 2) throw new Error(`wake name must be one or two words, got "${wakeName}"`);
  }

  /** Whether `candidate` (1–2 words) sounds like the wake name. */
  matches(candidate: readonly string[]): boolean {
    const joined = candidate.join('');
    const name = this.target.join('');
    if (joined === name) return true;
    const allowed = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
    if (levenshtein(joined, name) <= allowed && joined[0] === name[0]) return true;
    const a = soundKey(joined);
    const b = soundKey(name);
    return a.length > 1 && levenshtein(a, b) <= (b.length > 5 ? 1 : 0);
  }

  match(text: string): WakeMatch {
    const tokens = tokenize(text);
    const norm = tokens.map((t) => t.norm);
    const n = this.target.length;
    // leading: skip up to two greeting/filler words
    for (let skip = 0; skip <= 2 && skip + n <= norm.length; skip++) {
      if (skip > 0 && !LEADING.has(norm[skip - 1]!)) break;
      if (this.matches(norm.slice(skip, skip + n))) return { addressed: true, rest: joinFrom(text, tokens, skip + n, tokens.length) };
    }
    // trailing: allow up to one polite word after the name
    for (let tail = 0; tail <= 1 && n + tail <= norm.length; tail++) {
      if (tail > 0 && !TRAILING.has(norm[norm.length - 1]!)) break;
      const end = norm.length - tail;
      if (this.matches(norm.slice(end - n, end))) {
        let start = end - n;
        while (start > 0 && LEADING.has(norm[start - 1]!)) start--;
        return { addressed: true, rest: joinFrom(text, tokens, 0, start) };
      }
    }
    return { addressed: false, rest: text.trim() };
  }
}

interface Token {
  norm: string;
  start: number;
  end: number;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}'’]+/gu)) {
    const w = words(m[0]);
    if (w.length) out.push({ norm: w.join(''), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** The original text covered by tokens [from, to), with stray edge punctuation trimmed. */
function joinFrom(text: string, tokens: Token[], from: number, to: number): string {
  if (from >= to) return '';
  const slice = text.slice(tokens[from]!.start, to === tokens.length ? text.length : tokens[to - 1]!.end);
  return slice
    .replace(/^[\s,.;:!?-]+/, '')
    .replace(/[\s,;:-]+$/, '')
    .trim();
}
