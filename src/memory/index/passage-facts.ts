/**
 * What a passage says of itself, read from its own text and page before any query: when its
 * entry took place (`[happened:: …]`, `[said:: …]`, a message's time), its record type, how
 * recent it is by its staleness, how many content words it has (the brevity prior), which of its
 * records are retrievable and how confident they are now, and whether it is a person's own
 * message. Fusion (fusion.ts) weighs these; the project table keeps a row's content words.
 */
import { parseFactLine } from '../markdown/lines.js';
import { decay } from '../../core/records/decay.js';
import { retrievable } from '../../core/records/record.js';
import { readRecord } from '../records/record.js';
import { isStopWord, words } from './text.js';

/** The fields of an indexed chunk these readings use (a ScoredChunk has them all). */
export interface Passage {
  page: string;
  heading: string;
  text: string;
  updated: string;
  /** Counted once when the row is written (contentWords). */
  contentWords?: number;
}

/** `[happened:: 2026-06-20]`, else `[said:: …]`: when a record's fact took place (DESIGN.md record format). */
const RECORD_DATE = /\[(happened|said)::\s*(\d{4}-\d{2}-\d{2})/g;
const RECORD_TYPE = /\[type::\s*([a-z]+)\s*\]/;

/**
 * When an entry took place, in ms, and whether that is when it *happened* or only when it was
 * said: a conversation message's time and a decision's day are said times; a record's
 * `[happened:: …]` is a happened time, its `[said:: …]` a said time. NaN for text that carries
 * no entry date (a page's `updated` is when it was edited, not when its facts took place).
 */
export function entryTime(chunk: Pick<Passage, 'page' | 'text' | 'updated'>): { time: number; happened: boolean } {
  if (chunk.page.startsWith('log/') || chunk.page === 'decisions.md') return { time: Date.parse(chunk.updated), happened: false };
  let said = NaN;
  for (const m of chunk.text.matchAll(RECORD_DATE)) {
    const t = Date.parse(`${m[2]!}T12:00:00Z`);
    if (m[1] === 'happened') return { time: t, happened: true };
    if (Number.isNaN(said)) said = t;
  }
  return { time: said, happened: false };
}

/** A chunk's record type: `[type:: …]` on a record, `decision` for decisions.md, else ''. */
export function categoryOf(chunk: Pick<Passage, 'page' | 'text'>): string {
  if (chunk.page === 'decisions.md') return 'decision';
  return RECORD_TYPE.exec(chunk.text)?.[1] ?? '';
}

const DAY_MS = 86_400_000;

/** Staleness 0 never fades; 10 halves in a day; each step roughly doubles the pace. */
export function recencyOf(updated: string, staleness: number, now: Date): number {
  if (staleness <= 0) return 1;
  const t = Date.parse(updated);
  if (Number.isNaN(t)) return 0.5;
  const ageDays = Math.max(0, (now.getTime() - t) / DAY_MS);
  const halfLifeDays = Math.pow(2, (10 - Math.min(10, staleness)) * 0.9);
  return Math.pow(0.5, ageDays / halfLifeDays);
}

/**
 * Document prior of a conversation message by its length in content words n: √((n + 1) / (n + 1 + b)).
 * Short chat turns are mostly phatic, yet BM25 length normalisation favours them when they
 * share one query word; this takes some of that back. It is near 1 from about ten content
 * words on, so it only reorders the very short. Notes are left alone (a short fact is a fact).
 */
const BREVITY_CHARS = 2000;

export function brevityPrior(chunk: Pick<Passage, 'page' | 'text' | 'contentWords'>, b: number): number {
  if (b <= 0 || !chunk.page.startsWith('log/')) return 1;
  const n = chunk.contentWords ?? contentWords(chunk.text);
  return Math.sqrt((n + 1) / (n + 1 + b));
}

/**
 * The content words `brevityPrior` counts in a message: a property of the text alone, so the
 * index keeps it with the row once counted (it was most of a search's main-thread time on long
 * BEAM messages, counted again for every candidate of every question).
 */
export function contentWords(text: string): number {
  let n = 0;
  // the prior is within 1% of 1 past a few hundred words: a long message's opening is enough
  for (const w of words(text.slice(0, BREVITY_CHARS))) if (!isStopWord(w)) n++;
  return n;
}

export interface PassageRecords {
  /** The text without held or superseded records. */
  text: string;
  /** Best effective confidence of the records left; undefined when the text holds no record. */
  confidence?: number;
  /** `expired` / `old` / `review` when one of the records left is. */
  flags: string[];
}

/** The records of a note passage, read and decayed as of `now`. */
export function passageRecords(chunk: Pick<Passage, 'page' | 'text'>, now: Date): PassageRecords {
  if (!chunk.page.startsWith('notes/') || !chunk.text.includes('::')) return { text: chunk.text, flags: [] };
  const page = chunk.page.slice('notes/'.length);
  const kept: string[] = [];
  const flags = new Set<string>();
  let best: number | undefined;
  let records = 0;
  for (const raw of chunk.text.split('\n')) {
    const fact = parseFactLine(raw, 0);
    if (!fact || fact.fields.length === 0) {
      kept.push(raw);
      continue;
    }
    records++;
    const r = readRecord(page, fact, { sensitivity: 'personal' });
    if (!retrievable(r.status)) continue;
    kept.push(raw);
    const d = decay(r, now);
    if (d.state === 'expired' || d.state === 'old') flags.add(d.state);
    if (r.status === 'review') flags.add('review');
    best = Math.max(best ?? 0, d.effective);
  }
  if (records === 0) return { text: chunk.text, flags: [] };
  const text = kept.join('\n').trim();
  return { text, ...(best !== undefined ? { confidence: best } : {}), flags: [...flags] };
}

/** The assistant's own archive entries carry " (reply)" after the speaker in their heading (chunker.ts), sections too. */
const REPLY_HEADING = / \(reply\)(?: ›|$)/;

/** Whether a chunk is a message a person wrote (not one of the assistant's replies). */
export function ownMessage(chunk: Pick<Passage, 'page' | 'heading'>): boolean {
  return chunk.page.startsWith('log/') && !REPLY_HEADING.test(chunk.heading);
}
