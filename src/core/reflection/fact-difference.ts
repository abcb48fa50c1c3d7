/**
 * Whether two statements state one fact, by structure (fact-structure.ts): the same exact parts
 * (numbers, dates, names, a "not": statement-facts.ts), then the same subject, relation,
 * object and phrases, polarity, tense and aspect, modal and frequency. Anything that differs —
 * or a statement that cannot be read as one fact while the other can — keeps them apart: it
 * fails closed. The plain-code duplicate finder, the check of the memory model's proposals and
 * the page guard all ask this one question, so a proposal the model makes is never more than a
 * proposal. Pure.
 */
import { stemmer } from 'stemmer';
import { exactDifference } from '../writing/statement-facts.js';
import { factStructure, type FactContext, type FactStructure } from './fact-structure.js';
import { ANTONYMS, COMPARATIVES, UNITS } from './lexicon.js';

export type { FactContext } from './fact-structure.js';

const pairKey = (a: string, b: string) => [a, b].sort().join('|');
const ANTONYM_PAIRS = new Set(ANTONYMS.flatMap(([a, b]) => [pairKey(a, b), pairKey(stemmer(a), stemmer(b))]));
const COMPARATIVE_PAIRS = new Set(COMPARATIVES.map(([a, b]) => pairKey(a, b)));
const UNIT_NAMES = new Set(Object.values(UNITS));

/** Names the kind of difference between two phrases: an antonym, a comparative, a unit, else the words. */
function phraseDifference(what: string, a: string, b: string): string {
  const xs = a.split(/[ &]+/);
  const ys = b.split(/[ &]+/);
  const onlyX = xs.filter((w) => !ys.includes(w));
  const onlyY = ys.filter((w) => !xs.includes(w));
  for (const x of onlyX)
    for (const y of onlyY) {
      if (ANTONYM_PAIRS.has(pairKey(x, y))) return `polarity: ${x} vs ${y}`;
      if (COMPARATIVE_PAIRS.has(pairKey(x, y))) return `comparison: ${x} vs ${y}`;
      if (UNIT_NAMES.has(x) && UNIT_NAMES.has(y)) return `unit: ${x} vs ${y}`;
    }
  if (onlyX.length === 0 && onlyY.length === 0) return `${what}: the order of "${a}" vs "${b}"`;
  return `${what}: "${a || 'none'}" vs "${b || 'none'}"`;
}

const list = (xs: readonly string[]) => xs.join(' ') || 'none';

function roles(x: FactStructure, y: FactStructure): string | null {
  if (x.symmetric && y.symmetric) {
    const px = [x.subject, x.object].sort();
    const py = [y.subject, y.object].sort();
    if (px[0] === py[0] && px[1] === py[1]) return null;
  }
  if (x.subject === y.object && x.object === y.subject && x.subject !== x.object) return `direction: "${x.subject}" and "${x.object}" swap roles`;
  if (x.subject !== y.subject) return phraseDifference('who', x.subject || 'the page’s subject', y.subject || 'the page’s subject');
  if (x.object !== y.object) return phraseDifference('what', x.object, y.object);
  return null;
}

/** How two structures differ, or null when they state one fact. */
function structureDifference(x: FactStructure, y: FactStructure): string | null {
  if (x.kind !== y.kind) return `one could not be read as a fact with confidence (${x.kind} vs ${y.kind})`;
  if (x.kind === 'literal') return x.words === y.words ? null : 'they could not be read as one fact each, and their words differ';
  if (list(x.polarity) !== list(y.polarity)) return `polarity: ${list(x.polarity)} vs ${list(y.polarity)}`;
  if (x.predicate !== y.predicate) {
    const antonym = ANTONYM_PAIRS.has(pairKey(x.predicate, y.predicate));
    return `${antonym ? 'polarity' : 'relation'}: ${x.predicate || 'none'} vs ${y.predicate || 'none'}`;
  }
  if (x.aspect !== y.aspect || x.tense !== y.tense) return `tense: ${[x.tense, x.aspect].filter(Boolean).join(' ') || 'none'} vs ${[y.tense, y.aspect].filter(Boolean).join(' ') || 'none'}`;
  if (list(x.modal) !== list(y.modal)) return `modal: ${list(x.modal)} vs ${list(y.modal)}`;
  if (list(x.frequency) !== list(y.frequency)) return `frequency: ${list(x.frequency)} vs ${list(y.frequency)}`;
  const role = roles(x, y);
  if (role) return role;
  if (x.phrases.join(' | ') !== y.phrases.join(' | ')) return phraseDifference('details', x.phrases.join(' | '), y.phrases.join(' | '));
  return null;
}

/**
 * How two statements differ in meaning, or null when they state the same fact. `context.subject`
 * is whom the page is about (a statement without a subject is about them).
 */
export function factDifference(a: string, b: string, context: FactContext = {}): string | null {
  return exactDifference(a, b) ?? structureDifference(factStructure(a, context), factStructure(b, context));
}

/** Whether two statements state the same fact (see factDifference). */
export function sameFact(a: string, b: string, context: FactContext = {}): boolean {
  return factDifference(a, b, context) === null;
}
