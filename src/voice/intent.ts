/**
 * What kind of utterance is this, once it is known to be for Charlie? A request to stop
 * talking, a bare closing ("bye", "thanks"), a trailing fragment ("and um…"), or a request.
 * Only requests start a turn. Decided on whole normalised phrases, never `includes()`.
 */
import { words } from './text-normalize.js';

export type UtteranceKind = 'stop' | 'closing' | 'fragment' | 'request';

const STOP = new Set([
  'stop',
  'stop it',
  'stop talking',
  'stop stop',
  'please stop',
  'stop please',
  'cancel',
  'cancel that',
  'cancel it',
  'never mind',
  'nevermind',
  'forget it',
  'be quiet',
  'quiet',
  'shut up',
  'hush',
  'enough',
  'thats enough',
  'ok stop',
  'okay stop',
  'no stop',
  'wait stop',
]);

const CLOSINGS = new Set([
  'bye',
  'bye bye',
  'goodbye',
  'good bye',
  'see you',
  'see ya',
  'see you later',
  'later',
  'good night',
  'night',
  'thanks',
  'thank you',
  'thanks a lot',
  'thank you very much',
  'cheers',
  'ok',
  'okay',
  'ok thanks',
  'okay thanks',
  'ok thank you',
  'okay thank you',
  'cool',
  'great',
  'perfect',
  'alright',
  'all right',
  'got it',
  'nice',
]);

/** Words that carry no request on their own. */
const FILLER = new Set([
  'um',
  'uh',
  'er',
  'erm',
  'hmm',
  'mm',
  'ah',
  'oh',
  'eh',
  'like',
  'so',
  'and',
  'but',
  'or',
  'then',
  'yeah',
  'yes',
  'no',
  'well',
  'i',
  'mean',
  'you',
  'know',
  'the',
  'a',
  'an',
  'to',
  'of',
  'is',
  'it',
  'that',
  'this',
  'just',
  'also',
  'actually',
  'anyway',
]);

export function classifyUtterance(text: string): UtteranceKind {
  const w = words(text);
  const phrase = w.join(' ');
  if (!w.length) return 'fragment';
  if (STOP.has(phrase)) return 'stop';
  if (CLOSINGS.has(phrase)) return 'closing';
  if (w.every((x) => FILLER.has(x))) return 'fragment';
  // a lone word that is not a question word is a trailing fragment ("Tuesday.", "anyway")
  if (w.length === 1 && !/\?\s*$/.test(text) && !/^(help|what|why|how|when|where|who|status)$/.test(w[0]!)) return 'fragment';
  return 'request';
}
