/**
 * Forgetting that sticks. Forgetting an item leaves a tombstone: what kind of item, a short
 * description, fingerprints, when and by whom — never the forgotten text. Every writer of
 * memory (distillation, `remember`, the memory lane's candidates, ingestion, entity pages)
 * asks `forgottenBy` before writing; the Markdown store asks it for every note and layer
 * write, so a new writer is covered too. Deleting a tombstone by hand allows re-learning.
 *
 * Keys are one-way: `fp:` + hash of the normalised text (case, punctuation, markers, dates
 * and whitespace ignored), `title:` + hash of a normalised entity title or alias.
 */
import { createHash } from 'node:crypto';

export type { ForgetOutcome, ForgetTarget, ForgottenKind, Tombstone } from './tombstone-types.js';
import type { ForgetTarget, Tombstone } from './tombstone-types.js';
import { withoutFields } from '../records/line-syntax.js';

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Text as compared: no markers, links, dates, punctuation, case or extra whitespace. */
export function normaliseForFingerprint(text: string): string {
  return withoutFields(text.normalize('NFKC').toLowerCase())
    .replace(/\(\[source\]\([^)]*\)\)/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function fingerprint(text: string): string {
  return `fp:${hash(normaliseForFingerprint(text))}`;
}

/** "Sarah Chen", "sarah-chen", "People/Sarah-Chen.md" all give the same key. */
export function titleKey(title: string): string {
  const base = title.replace(/\.md$/i, '').split('/').pop() ?? title;
  return `title:${hash(normaliseForFingerprint(base.replace(/[-_]/g, ' ')))}`;
}

/** The keys of an item about to be written. */
export function keysOf(item: { title?: string; aliases?: string[]; text?: string }): string[] {
  const keys: string[] = [];
  for (const t of [item.title, ...(item.aliases ?? [])]) if (t?.trim()) keys.push(titleKey(t));
  if (item.text && normaliseForFingerprint(item.text)) keys.push(fingerprint(item.text));
  return keys;
}

/** The tombstone that forbids writing this item, if any. */
export function forgottenBy(tombstones: Tombstone[], item: { title?: string; aliases?: string[]; text?: string }): Tombstone | null {
  if (tombstones.length === 0) return null;
  const keys = new Set(keysOf(item));
  return tombstones.find((t) => t.keys.some((k) => keys.has(k))) ?? null;
}

/** Thrown by a store asked to write something forgotten. */
export class ForgottenError extends Error {
  constructor(readonly tombstone: Tombstone) {
    super(`this was forgotten (${tombstone.description}, ${tombstone.when.slice(0, 10)}, by ${tombstone.by}); remove its line from forgotten.md to allow it again`);
    this.name = 'ForgottenError';
  }
}

/** A target as one short token (Discord autocomplete values, terminal arguments): `note:People/Ann.md`, `entry:2:People/Ann.md`, `record:r-1a2b3c:People/Ann.md`, `decision:3`, `quote:1`. */
export function targetToken(target: ForgetTarget): string {
  switch (target.kind) {
    case 'note':
      return `note:${target.path}`;
    case 'entry':
      return `entry:${target.entry}:${target.path}`;
    case 'record':
      return `record:${target.id}:${target.path}`;
    default:
      return `${target.kind}:${target.index}`;
  }
}

export function parseTargetToken(token: string): ForgetTarget | null {
  const t = token.trim();
  const entry = /^entry:(\d+):(.+)$/.exec(t);
  if (entry) return { kind: 'entry', entry: Number(entry[1]), path: (entry[2] ?? '').trim() };
  const record = /^record:\^?(r-[\w-]+):(.+)$/.exec(t);
  if (record) return { kind: 'record', id: record[1] ?? '', path: (record[2] ?? '').trim() };
  const item = /^(decision|quote):(\d+)$/.exec(t);
  if (item) return { kind: item[1] as 'decision' | 'quote', index: Number(item[2]) };
  const note = /^note:(.+)$/.exec(t);
  if (note) return { kind: 'note', path: (note[1] ?? '').trim() };
  // a bare path is a note, as before
  return /\.md$/i.test(t) || t.includes('/') ? { kind: 'note', path: t.replace(/^notes\//, '') } : null;
}
