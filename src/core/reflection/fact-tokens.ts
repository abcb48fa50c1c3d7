/**
 * A statement as words for the fact comparer: accents folded, contractions spelled out
 * ("isn't" → "is not", "can't" → "can not"), possessives split off ("Sam's" → "sam 's"),
 * a currency sign moved behind its number ("€20" → "20 EUR"), numbers written as digits
 * ("three" → "3", "1,200" → "1200") and units after a number to one name ("kilometres" →
 * "km"). Each word keeps whether it was capitalised (a name) and where it stood. Pure.
 */
import { numberOf } from '../writing/statement-facts.js';
import { SYNONYMS, UNITS } from './lexicon.js';

export interface Word {
  /** Lowercase, canonical (number, unit, synonym), not yet lemmatised. */
  w: string;
  /** Capitalised and not the first word: a name. */
  name: boolean;
  /** Capitalised where it stood (the first word too). */
  cap: boolean;
  num: boolean;
}

const fold = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');

function spellOut(text: string): string {
  return fold(text)
    .replace(/[’‘`]/g, "'")
    .replace(/\bcan'?t\b|\bcannot\b/gi, (m) => (m[0] === 'C' ? 'Can not' : 'can not'))
    .replace(/\bwon't\b/gi, (m) => (m[0] === 'W' ? 'Will not' : 'will not'))
    .replace(/\b(\w+)n't\b/gi, '$1 not')
    .replace(/'ll\b/gi, ' will')
    .replace(/'re\b/gi, ' are')
    .replace(/'ve\b/gi, ' have')
    .replace(/'m\b/gi, ' am')
    .replace(/\b(he|she|it|that|there|what|who)'s\b/gi, '$1 is')
    .replace(/(\p{L})'s\b/gu, "$1 's")
    .replace(/(\p{L}s)'(?=\s|$)/gu, '$1')
    .replace(/([€$£])\s?(\d[\d,]*(?:\.\d+)?)/g, '$2 $1')
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/\b(\d+(?:\.\d+)?)(st|nd|rd|th)\b/gi, '$1')
    .replace(/\b(\d+(?:\.\d+)?)([a-z]+|%)(?=[^a-z]|$)/gi, '$1 $2')
    .replace(/(\p{L})[-/](?=\p{L})/gu, '$1 ');
}

/** The statement's sentences, each as words (commas kept as ","). */
export function factWords(text: string): Word[][] {
  const sentences = spellOut(text)
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
  return sentences.map((sentence) => {
    const raw = sentence.match(/\d{4}-\d{2}(?:-\d{2})?|\d+(?::\d{2})?(?:\.\d+)?|'s\b|[\p{L}\p{N}]+|[€$£%,]/gu) ?? [];
    const out: Word[] = [];
    raw.forEach((token, i) => {
      const lower = token.toLowerCase();
      const cap = /^\p{Lu}/u.test(token);
      const previous = out[out.length - 1];
      const n = /^\d{4}-\d{2}/.test(token) || token.includes(':') ? undefined : numberOf(lower);
      if (n !== undefined && lower !== 'second' && !(lower === 'one' && !previous)) {
        out.push({ w: n, name: false, cap, num: true });
        return;
      }
      const unit = previous?.num ? UNITS[lower] : /^[€$£%]$/.test(token) ? UNITS[token] : undefined;
      if (unit) {
        out.push({ w: unit, name: false, cap: false, num: false });
        return;
      }
      out.push({ w: SYNONYMS[lower] ?? lower, name: cap && i > 0, cap, num: /^\d/.test(token) });
    });
    return out;
  });
}
