/**
 * A statement read as a fact: who (subject), the relation (predicate, lemmatised), what
 * (object), the phrases around it (prepositional phrases, compared as a set, so "In May she
 * moved to Berlin" = "Moved to Berlin in May"), and what changes its meaning: polarity
 * (not, never), tense and aspect (smokes / smoked / stopped smoking / used to smoke / will),
 * modals (can), frequency (always). The page's own subject stands in for a missing one and
 * for its pronouns ("Lives in Berlin" on Sam's page = "Sam lives in Berlin" = "He lives in
 * Berlin"). A statement it cannot read as one clause is `literal`: compared word for word.
 * Pure.
 */
import { stemmer } from 'stemmer';
import {
  BE,
  BEGIN_VERBS,
  CEASE_VERBS,
  CLAUSE_JOINERS,
  DETERMINERS,
  DO,
  FILLERS,
  FREQUENCY,
  FUTURE,
  HAVE,
  IRREGULAR_PAST,
  MODALS,
  NEGATIONS,
  PREPOSITION_SYNONYMS,
  PREPOSITIONS,
  SELF_POSSESSIVES,
  SELF_PRONOUNS,
  VERBS,
} from './lexicon.js';
import { factWords, type Word } from './fact-tokens.js';

export interface FactContext {
  /** Whom the page is about (its title): a statement without a subject is about them. */
  subject?: string;
}

export interface FactStructure {
  /** `clause`: read as subject, predicate, object; `fragment`: no verb (a phrase and its modifiers); `literal`: not read. */
  kind: 'clause' | 'fragment' | 'literal';
  subject: string;
  predicate: string;
  object: string;
  /** Prepositional phrases, sorted. */
  phrases: string[];
  polarity: string[];
  tense: string;
  aspect: string;
  modal: string[];
  frequency: string[];
  /** "X is Y" ("Anna is Sam's sister" = "Sam's sister is Anna", "Sam is Leo's father" = "Leo's father is Sam" on Sam's page): subject and object may swap. */
  symmetric: boolean;
  /** The words in order (what a `literal` is compared by). */
  words: string;
}

const SELF = '<self>';

/** Every regular form of the lexicon's verbs (likes, liked, liking, stopped, carries), each with its base. */
const VERB_FORMS: ReadonlyMap<string, string> = new Map(
  [...VERBS].flatMap((v) => {
    const stem = v.endsWith('e') ? v.slice(0, -1) : v;
    const doubled = /[^aeiou][aeiou][bdgmnprt]$/.test(v) ? v + v.slice(-1) : v;
    const y = /[^aeiou]y$/.test(v) ? v.slice(0, -1) : '';
    const forms = [v, `${v}s`, `${v}es`, `${stem}ed`, `${stem}ing`, `${doubled}ed`, `${doubled}ing`, ...(y ? [`${y}ies`, `${y}ied`] : [])];
    return forms.map((f) => [f, v] as const);
  }),
);

/** A light lemma for a noun or adjective: the plural's -s goes, nothing else. */
function nounLemma(w: string): string {
  if (w.length <= 3 || /(ss|us|is|ous)$/.test(w)) return w;
  if (/ies$/.test(w)) return `${w.slice(0, -3)}y`;
  if (/(ches|shes|xes|ses|zes)$/.test(w)) return w.slice(0, -2);
  return w.endsWith('s') ? w.slice(0, -1) : w;
}

const verbLemma = (w: string) => (w === 'goes' ? 'go' : (IRREGULAR_PAST[w] ?? VERB_FORMS.get(w) ?? stemmer(w)));
const pastForm = (w: string) => w in IRREGULAR_PAST || (/ed$/.test(w) && !/eed$/.test(w) && w.length > 3) || /(agreed|freed)$/.test(w);
const isVerbAt = (ws: readonly Word[], i: number) => {
  const word = ws[i];
  if (!word || word.num || word.name) return false;
  const before = ws[i - 1]?.w ?? '';
  if (DETERMINERS.has(before) || SELF_POSSESSIVES.has(before)) return false;
  if (word.w in BE || word.w in HAVE || word.w in DO || FUTURE.has(word.w) || (MODALS.has(word.w) && !word.cap)) return true;
  // a verb-looking word right before an auxiliary is the subject ("Rent is", "Work has")
  const next = ws[i + 1]?.w ?? '';
  if (next in BE || next in HAVE || next in DO || MODALS.has(next) || FUTURE.has(next)) return false;
  return word.w in IRREGULAR_PAST || VERB_FORMS.has(word.w) || word.w === 'goes';
};

/** Replaces the page's subject (its name, a pronoun) with one marker, and drops "<self> 's" (a relation of theirs needs no owner). */
function resolveSelf(ws: Word[], context: FactContext, subjectSlot: boolean): Word[] {
  const title = (context.subject ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const out: Word[] = [];
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as Word;
    const full = title.length > 0 && title.every((t, k) => ws[i + k]?.w === t);
    if (full || (title[0] && w.w === title[0])) {
      out.push({ ...w, w: SELF, name: false });
      i += full ? title.length - 1 : 0;
    } else if (subjectSlot && i === 0 && SELF_PRONOUNS.has(w.w)) out.push({ ...w, w: SELF });
    else if (SELF_POSSESSIVES.has(w.w) && ws[i + 1]) out.push({ ...w, w: SELF }, { w: "'s", name: false, cap: false, num: false });
    else out.push(w);
  }
  const kept = out.filter((w, i) => !FILLERS.has(w.w) && !(w.w === SELF && out[i + 1]?.w === "'s") && !(w.w === "'s" && out[i - 1]?.w === SELF));
  return kept.length === 1 && kept[0]?.w === SELF ? [] : kept;
}

/** A phrase as text: fillers out, nouns lemmatised, parts joined by "and" or "," in a stable order. */
function phraseText(ws: readonly Word[]): string {
  const parts: string[][] = [[]];
  for (const w of ws) {
    if (w.w === 'and' || w.w === ',') parts.push([]);
    else if (!FILLERS.has(w.w)) parts[parts.length - 1]?.push(w.num ? w.w : nounLemma(w.w));
  }
  return parts
    .map((p) => p.join(' '))
    .filter(Boolean)
    .sort()
    .join(' & ');
}

/** Splits words into the head (before the first preposition) and prepositional phrases; "to" before a verb is an infinitive. */
function splitPhrases(ws: readonly Word[], predicate: string): { head: Word[]; phrases: string[] } {
  const head: Word[] = [];
  const groups: Word[][] = [];
  ws.forEach((w, i) => {
    const infinitive = w.w === 'to' && isVerbAt(ws, i + 1);
    if (PREPOSITIONS.has(w.w) && !infinitive && !w.name) groups.push([{ ...w, w: PREPOSITION_SYNONYMS[predicate]?.[w.w] ?? w.w }]);
    else if (groups.length) groups[groups.length - 1]?.push(w);
    else head.push(w);
  });
  // a phrase is its preposition and what it governs ("to peanuts and tree nuts" = "to tree nuts and peanuts")
  return { head, phrases: groups.map(([prep, ...rest]) => `${prep?.w ?? ''} ${phraseText(rest)}`.trim()).sort() };
}

interface VerbGroup {
  predicate: string;
  tense: string;
  aspect: string;
  modal: string[];
  polarity: string[];
  frequency: string[];
  /** Index after the verb group. */
  end: number;
}

/** Reads the verb group starting at `start`: auxiliaries, negations, modals, aspect verbs, then the predicate. */
function verbGroup(ws: readonly Word[], start: number): VerbGroup {
  const g: VerbGroup = { predicate: '', tense: '', aspect: '', modal: [], polarity: [], frequency: [], end: start };
  const tense = (t: string) => (g.tense ||= t);
  let k = start;
  for (; k < ws.length && !g.predicate; k++) {
    const w = (ws[k] as Word).w;
    const next = ws[k + 1]?.w ?? '';
    if (w === 'no' && next === 'longer') {
      g.aspect = 'ceased';
      k++;
    } else if (NEGATIONS.has(w)) g.polarity.push(w);
    else if (FREQUENCY.has(w) || FILLERS.has(w)) {
      if (FREQUENCY.has(w)) g.frequency.push(w);
    } else if (FUTURE.has(w)) tense('future');
    else if (MODALS.has(w)) g.modal.push(w);
    else if (w === 'used' && next === 'to') {
      g.aspect = 'used-to';
      k++;
    } else if (w in BE && next === 'going' && ws[k + 2]?.w === 'to') {
      tense('future');
      k += 2;
    } else if (w in DO && isVerbAt(ws, k + 1 + (NEGATIONS.has(next) ? 1 : 0))) tense(DO[w] ?? '');
    else if (w in BE && /ing$/.test(next) && isVerbAt(ws, k + 1)) {
      tense(BE[w] ?? '');
      g.aspect ||= 'progressive';
    } else if (w in BE) {
      tense(BE[w] ?? '');
      g.predicate = 'be';
    } else if (w in HAVE && (next in IRREGULAR_PAST || /ed$/.test(next)) && next !== 'need') {
      tense(HAVE[w] ?? '');
      g.aspect ||= 'perfect';
    } else if (w in HAVE) {
      tense(HAVE[w] ?? '');
      g.predicate = 'have';
    } else if ((CEASE_VERBS.has(w) || (w === 'gave' && next === 'up') || (w === 'give' && next === 'up')) && !g.aspect) {
      g.aspect = 'ceased';
      if (next === 'up') k++;
    } else if (BEGIN_VERBS.has(w) && !g.aspect && (/ing$/.test(ws[k + 1]?.w ?? '') || next === 'to')) {
      g.aspect = 'began';
      if (next === 'to') k++;
    } else {
      if (!g.aspect || g.aspect === 'perfect' || g.aspect === 'progressive') tense(pastForm(w) ? 'past' : 'present');
      g.predicate = verbLemma(w);
    }
  }
  g.end = k;
  // a ceased or begun action, or a habit that was, holds now whatever the tense of "stopped"
  if (g.aspect === 'ceased' || g.aspect === 'used-to' || g.aspect === 'began') g.tense = '';
  return g;
}

const EMPTY: Omit<FactStructure, 'kind' | 'words'> = { subject: '', predicate: '', object: '', phrases: [], polarity: [], tense: '', aspect: '', modal: [], frequency: [], symmetric: false };

/** Reads one statement (see the module comment). */
export function factStructure(text: string, context: FactContext = {}): FactStructure {
  const sentences = factWords(text);
  const all = sentences.flat();
  const words = all.map((w) => (w.num ? w.w : nounLemma(w.w))).join(' ');
  const only = sentences.length === 1 ? sentences[0] : undefined;
  if (!only || only.some((w) => CLAUSE_JOINERS.has(w.w))) return { ...EMPTY, kind: 'literal', words };
  // fronted phrases: "In May 2024 she moved …", "On Mondays, goes swimming"
  let i = 0;
  const fronted: Word[] = [];
  while (i < only.length && PREPOSITIONS.has(only[i]?.w ?? '')) {
    do fronted.push(only[i++] as Word);
    while (i < only.length && only[i]?.w !== ',' && !SELF_PRONOUNS.has(only[i]?.w ?? '') && !isVerbAt(only, i));
    if (only[i]?.w === ',') i++;
  }
  const rest = only.slice(i);
  let v = rest.findIndex((_, j) => isVerbAt(rest, j) || (NEGATIONS.has(rest[j]?.w ?? '') && isVerbAt(rest, j + 1)) || (rest[j]?.w === 'no' && rest[j + 1]?.w === 'longer'));
  if (v < 0 && /(s|ed)$/.test(rest[0]?.w ?? '') && !rest[0]?.num) v = 0;
  if (v < 0) {
    const { head, phrases } = splitPhrases(resolveSelf(only, context, true), '');
    return { ...EMPTY, kind: 'fragment', subject: phraseText(head), phrases, words };
  }
  const group = verbGroup(rest, v);
  const after = rest.slice(group.end);
  // a second verb joined by "and" is a second clause: read word for word
  if (after.some((w, j) => w.w === 'and' && isVerbAt(after, j + 1) && !PREPOSITIONS.has(after[j - 1]?.w ?? ''))) return { ...EMPTY, kind: 'literal', words };
  // "Always walks to work": an adverb before the verb is the verb's
  const before = rest.slice(0, v);
  group.frequency.push(...before.filter((w) => FREQUENCY.has(w.w)).map((w) => w.w));
  const subjectWords = resolveSelf(
    before.filter((w) => !FREQUENCY.has(w.w)),
    context,
    true,
  );
  // the fronted phrases go last: each starts with its preposition, so it is a phrase of its own
  const { head, phrases } = splitPhrases(resolveSelf([...after, ...fronted], context, false), group.predicate);
  const subject = phraseText(subjectWords);
  const object = phraseText(head);
  return {
    kind: 'clause',
    subject,
    predicate: group.predicate,
    object,
    phrases,
    polarity: group.polarity.sort(),
    tense: group.tense,
    aspect: group.aspect,
    modal: group.modal.sort(),
    frequency: group.frequency.sort(),
    symmetric: group.predicate === 'be' && (subject !== '' || object !== ''),
    words,
  };
}
