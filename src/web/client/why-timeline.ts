/**
 * "Why does Charlie think that?" as a timeline a person reads top to bottom: each step of a
 * record's history (the knowledge graph's chain), oldest first, with its moment in the reader's
 * locale ("27 Nov, 14:02", or the day when only the day is known), what happened in words, what
 * it changed, and where it came from as a link ("chat, 27 Nov, 14:02" opens the message).
 */
import type { ChainStep } from '../../core/records/provenance.js';
import { h } from './dom.js';
import { day, moment } from './words.js';

const KIND_WORDS: Record<ChainStep['kind'], string> = {
  said: 'Said',
  added: 'Added to memory',
  restated: 'Said again',
  edited: 'Edited',
  merged: 'Merged in',
  review: 'Found to disagree',
  reviewed: 'Reviewed',
  distilled: 'Distilled',
  expired: 'Expired',
  settled: 'Settled',
};

/** The step's moment: a time when the log has one, else its day. */
function when(at: string): string {
  if (!at) return 'a day not recorded';
  if (/^\d{4}-\d{2}-\d{2}$/.test(at)) return day(at);
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : moment(d);
}

/** A step's text without storage ids ("…; statement now r-7e6a89" says nothing to a person). */
export function plainText(text: string): string {
  return text
    .replace(/;?\s*statement now \^?r-[0-9a-f]{4,12}\b/g, '')
    .replace(/\^?r-[0-9a-f]{4,12}\b/g, 'another record')
    .replace(/\(\s*\)/g, '')
    .trim();
}

/**
 * Where a step came from as a reference the Memory view words: the message inside an archive
 * reference (`log/2024-12-04.md (voice:1733…)` → `voice:1733…`), or the archive's day.
 */
function sourceRef(source: string): { ref: string } | { text: string } {
  const m = /^log\/(\d{4}-\d{2}-\d{2})\.md(?::\d+)?(?:\s*\((.+)\))?$/.exec(source.trim());
  if (!m) return { ref: source };
  if (m[2]) return { ref: m[2] };
  return { text: `the conversation of ${day(m[1] ?? '')}` };
}

/** The steps oldest → newest (a step without a time keeps its place among its neighbours). */
export function inOrder(steps: readonly ChainStep[]): ChainStep[] {
  return steps
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (a.s.at && b.s.at && a.s.at !== b.s.at ? (a.s.at < b.s.at ? -1 : 1) : a.i - b.i))
    .map(({ s }) => s);
}

function from(source: string, date: string, link: (source: string, day: string) => Node | string): Node | string {
  const r = sourceRef(source);
  return 'ref' in r ? link(r.ref, date) : r.text;
}

/** `link` turns a step's source into words with a link (the Memory view's own "chat, 27 Nov, 14:02"). */
export function whyTimeline(steps: readonly ChainStep[], link: (source: string, day: string) => Node | string): HTMLElement {
  return h(
    'ol',
    { class: 'chain timeline', 'aria-label': 'History of this record, oldest first' },
    inOrder(steps).map((s) =>
      h(
        'li',
        { class: `step-${s.kind}` },
        h('time', { datetime: s.at }, when(s.at)),
        ' ',
        h('span', { class: `step step-${s.kind}` }, KIND_WORDS[s.kind]),
        h('span', { class: 'what' }, ` ${plainText(s.text)}${s.from ? ' (from a record merged into this one)' : ''}`),
        s.source ? h('span', { class: 'from' }, ' — ', from(s.source, s.at.slice(0, 10), link)) : null,
      ),
    ),
  );
}
