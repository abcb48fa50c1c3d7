/**
 * Forgetting in a Markdown project: remove the item (a note, one dated entry of a note, one
 * typed record of a note, a decision, a quote), leave a tombstone in forgotten.md, and optionally redact the archive
 * entries that said it (the index drops them on its next sync, since the log file changed).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock, LayersSnapshot, MemoryLayers, Note, WriteOutcome } from '../../core/ports/index.js';
import { fingerprint, keysOf, normaliseForFingerprint, type ForgetOutcome, type ForgetTarget, type Tombstone } from '../../core/inspector/tombstones.js';
import { formatLogEntry, LOG_FILE, parseLog } from '../archive-format.js';
import { parseFactLine, sourceOf, type FactLine } from '../markdown/lines.js';
import { addTombstone } from '../tombstones.js';
import { sha256, writeFileAtomic, type OpenFile } from '../../files/atomic-write.js';
import { CharlieError } from '../../core/errors.js';
import type { PageEdits } from '../graph/page-removal.js';
import type { NoteFiles } from '../notes/note-files.js';
import { readLayerFiles, writeLayerFiles } from './layers-files.js';
import type { ProjectDefaults } from './project-file.js';

export interface ForgetDeps {
  dir: string;
  clock: Clock;
  readNote(path: string): Promise<Note | null>;
  /** Pages are deleted and rewritten by the knowledge graph, their one writer. */
  pages: {
    deletePage(path: string): Promise<boolean>;
    rewritePage(path: string, change: (content: string) => string | null): Promise<boolean>;
  };
  readLayers(): Promise<LayersSnapshot>;
  writeLayers(layers: MemoryLayers, versions: Record<string, string>): Promise<WriteOutcome>;
}

/** What the archive is searched for when asked to remove the messages that said it. */
interface Said {
  sources: string[];
  texts: string[];
}

const NOTHING: ForgetOutcome = { forgotten: false, description: '', redacted: 0 };

/** The dated entries (### blocks) of a note body, with their character ranges. */
export function noteEntries(body: string): { heading: string; text: string; start: number; end: number }[] {
  const out: { heading: string; text: string; start: number; end: number }[] = [];
  const re = /^###\s+.*$/gm;
  const starts = [...body.matchAll(re)].map((m) => m.index);
  starts.forEach((start, i) => {
    const end = starts[i + 1] ?? body.length;
    const block = body.slice(start, end);
    const nl = block.indexOf('\n');
    out.push({ heading: (nl < 0 ? block : block.slice(0, nl)).replace(/^###\s+/, '').trim(), text: nl < 0 ? '' : block.slice(nl + 1).trim(), start, end });
  });
  return out;
}

export async function forgetInProject(deps: ForgetDeps, target: ForgetTarget, by: string, options: { removeMessages: boolean }): Promise<ForgetOutcome> {
  const when = deps.clock.now().toISOString();
  let tombstone: Tombstone;
  let said: Said;
  if (target.kind === 'note') {
    const note = await deps.readNote(target.path);
    if (!note || !(await deps.pages.deletePage(note.path))) return NOTHING;
    tombstone = { kind: 'note', description: `note ${note.path}`, keys: keysOf({ title: note.title, aliases: note.aliases }), when, by };
    said = { sources: [], texts: [note.title, ...note.aliases] };
  } else if (target.kind === 'entry') {
    const note = await deps.readNote(target.path);
    const entry = note ? noteEntries(note.body)[target.entry - 1] : undefined;
    if (!note || !entry) return NOTHING;
    const written = await deps.pages.rewritePage(note.path, (content) => {
      const bodyAt = content.lastIndexOf(note.body);
      return bodyAt < 0 ? null : `${content.slice(0, bodyAt + entry.start)}${content.slice(bodyAt + entry.end)}`.replace(/\n{3,}/g, '\n\n');
    });
    if (!written) return NOTHING;
    tombstone = { kind: 'entry', description: `entry ${target.entry} (${entry.heading}) of ${note.path}`, keys: [fingerprint(entry.text)], when, by };
    said = { sources: [], texts: [entry.text] };
  } else if (target.kind === 'record') {
    let fact: FactLine | null = null;
    const written = await deps.pages.rewritePage(target.path, (content) => {
      const lines = content.split('\n');
      const at = lines.findIndex((raw, i) => parseFactLine(raw, i + 1)?.blockId === target.id);
      fact = at < 0 ? null : parseFactLine(lines[at] ?? '', at + 1);
      if (!fact) return null;
      lines.splice(at, 1);
      return lines.join('\n');
    });
    const removed = fact as FactLine | null;
    if (!written || !removed) return NOTHING;
    const source = removed.fields.find((f) => f.key === 'source')?.value;
    tombstone = { kind: 'record', description: `record ${target.id} of ${target.path.replace(/^notes\//, '')}`, keys: [fingerprint(removed.text)], when, by };
    said = { sources: source ? [sourceOf(source)] : [], texts: [removed.text] };
  } else {
    const snap = await deps.readLayers();
    const list = target.kind === 'decision' ? snap.layers.decisions : snap.layers.quotes;
    const item = list[target.index - 1];
    if (!item) return NOTHING;
    const layers: MemoryLayers = {
      ...snap.layers,
      decisions: target.kind === 'decision' ? snap.layers.decisions.filter((_, i) => i !== target.index - 1) : snap.layers.decisions,
      quotes: target.kind === 'quote' ? snap.layers.quotes.filter((_, i) => i !== target.index - 1) : snap.layers.quotes,
    };
    const written = await deps.writeLayers(layers, snap.versions);
    if (!written.ok) return NOTHING;
    const who = (item as { speaker?: unknown }).speaker;
    const speaker = typeof who === 'string' ? ` by ${who}` : '';
    tombstone = { kind: target.kind, description: `${target.kind}${speaker} of ${item.date || 'unknown date'}`, keys: [fingerprint(item.text)], when, by };
    said = { sources: item.source ? [item.source] : [], texts: [item.text] };
  }
  await addTombstone(deps.dir, tombstone);
  const redacted = options.removeMessages ? await redactArchive(join(deps.dir, 'log'), said, when) : 0;
  return { forgotten: true, description: tombstone.description, redacted };
}

/** Replaces the text of archive entries that said it (by source link, or containing the words). */
export async function redactArchive(logDir: string, said: Said, when: string): Promise<number> {
  const texts = said.texts.map(normaliseForFingerprint).filter((t) => t.length >= 3);
  const sources = new Set(said.sources.filter(Boolean));
  let files: string[];
  try {
    files = (await readdir(logDir)).filter((f) => LOG_FILE.test(f)).sort();
  } catch {
    return 0;
  }
  let count = 0;
  for (const file of files) {
    const full = join(logDir, file);
    const content = await readFile(full, 'utf8');
    const buf = Buffer.from(content, 'utf8');
    const hits = parseLog(content, file.slice(0, 10)).filter((e) => {
      const text = ` ${normaliseForFingerprint(e.text)} `;
      return sources.has(e.source) || texts.some((t) => text.includes(` ${t} `));
    });
    if (hits.length === 0) continue;
    const parts: Buffer[] = [];
    let at = 0;
    for (const e of hits) {
      parts.push(buf.subarray(at, e.start));
      parts.push(Buffer.from(`${formatLogEntry({ ...e, text: `[removed: forgotten on ${when.slice(0, 10)}]` }).slice(1)}\n`, 'utf8'));
      at = e.end;
    }
    parts.push(buf.subarray(at));
    const written = await writeFileAtomic(full, Buffer.concat(parts).toString('utf8'), sha256(content));
    if (written.ok) count += hits.length;
  }
  return count;
}

/** The forget dependencies of one project of the Markdown store: layers on disk, pages through the knowledge graph. */
export function forgetDeps(o: { dir: string; slug: string; clock: Clock; notes: NoteFiles; pages: PageEdits | undefined; defaults: ProjectDefaults; openFile: OpenFile }, by: string): ForgetDeps {
  const source = `forgotten by ${by}`;
  const pages = (): PageEdits => {
    if (!o.pages) throw new CharlieError('forgetting a page needs the knowledge graph (FileProjectStore option `pages`)');
    return o.pages;
  };
  return {
    dir: o.dir,
    clock: o.clock,
    readNote: (path) => o.notes.read(path),
    pages: {
      deletePage: (path) => pages().deletePage(o.slug, path, source),
      rewritePage: (path, change) => pages().rewritePage(o.slug, path, change, source),
    },
    readLayers: () => readLayerFiles(o.dir, o.slug, o.defaults),
    writeLayers: (layers, versions) => writeLayerFiles(o.dir, o.slug, layers, versions, o.defaults, o.openFile),
  };
}
