/**
 * `forgotten.md`: the tombstones of a project, one readable line each, never the forgotten
 * text. Deleting a line allows Charlie to learn the item again.
 *
 *     # Forgotten
 *
 *     - 2026-11-30 12:04 UTC · note · People/Sarah-Chen.md · by Alice · `title:3f2a9c1b7e8d4f60` `fp:…`
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { forgottenBy, type ForgottenKind, type Tombstone } from '../core/inspector/tombstones.js';
import type { MemoryLayers } from '../core/ports/index.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { oneLine } from '../util/one-line.js';

export const FORGOTTEN_FILE = 'forgotten.md';

const HEAD = `# Forgotten\n\nCharlie will not learn these again (only their fingerprints are kept, never the text).\nDelete a line to allow re-learning it.\n\n`;
const LINE = /^[-*]\s+(\d{4}-\d{2}-\d{2})(?:\s+(\d{2}:\d{2}))?(?:\s+UTC)?\s+·\s+(note|entry|record|decision|quote)\s+·\s+(.*?)\s+·\s+by\s+(.*?)\s+·\s+((?:`[a-z]+:[0-9a-f]+`\s*)+)$/;

/** Backticks and middle dots delimit a tombstone line's fields: inside a field they become spaces. */
function noDelimiters(text: string): string {
  return text.replace(/[`·]+/g, ' ');
}

export function formatTombstone(t: Tombstone): string {
  const when = `${t.when.slice(0, 10)} ${t.when.slice(11, 16)} UTC`;
  return `- ${when} · ${t.kind} · ${oneLine(noDelimiters(t.description))} · by ${oneLine(noDelimiters(t.by)) || 'someone'} · ${t.keys.map((k) => `\`${k}\``).join(' ')}`;
}

export function parseTombstones(text: string): Tombstone[] {
  const out: Tombstone[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    out.push({
      when: `${m[1]}T${m[2] ?? '00:00'}:00.000Z`,
      kind: m[3] as ForgottenKind,
      description: m[4] ?? '',
      by: m[5] ?? '',
      keys: [...(m[6] ?? '').matchAll(/`([a-z]+:[0-9a-f]+)`/g)].map((k) => k[1] ?? '').filter(Boolean),
    });
  }
  return out;
}

export async function readTombstones(projectDir: string): Promise<Tombstone[]> {
  try {
    return parseTombstones(await readFile(join(projectDir, FORGOTTEN_FILE), 'utf8'));
  } catch {
    return [];
  }
}

export async function addTombstone(projectDir: string, tombstone: Tombstone): Promise<void> {
  const path = join(projectDir, FORGOTTEN_FILE);
  const current = await readFile(path, 'utf8').catch(() => HEAD);
  await writeFileAtomic(path, `${current.replace(/\s*$/, '\n')}${formatTombstone(tombstone)}\n`);
}

/**
 * The knowledge graph's `isForgotten` hook (synchronous, called per page, fact and link it is
 * about to write): a page whose title or alias, or a fact whose text, matches a tombstone of the
 * project is refused. forgotten.md is small; it is read on each check so a hand edit counts at once.
 */
export function graphTombstoneCheck(projectsDir: string): (candidate: { kind: 'page' | 'fact' | 'link'; project: string; text: string }) => boolean {
  return (candidate) => {
    let tombstones: Tombstone[];
    try {
      tombstones = parseTombstones(readFileSync(join(projectsDir, candidate.project, FORGOTTEN_FILE), 'utf8'));
    } catch {
      return false;
    }
    if (tombstones.length === 0) return false;
    return candidate.kind === 'page' ? forgottenBy(tombstones, { title: candidate.text }) !== null : forgottenBy(tombstones, { text: candidate.text }) !== null;
  };
}

/** Decisions and quotes that were forgotten are never written back (by distillation or anyone). */
export function withoutForgotten(layers: MemoryLayers, tombstones: Tombstone[]): MemoryLayers {
  if (tombstones.length === 0) return layers;
  return {
    ...layers,
    decisions: layers.decisions.filter((d) => !forgottenBy(tombstones, { text: d.text })),
    quotes: layers.quotes.filter((q) => !forgottenBy(tombstones, { text: q.text })),
  };
}
