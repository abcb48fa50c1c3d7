/**
 * The sensitive records of a project or a private conversation, read through the core's
 * ports, for the egress guard to withhold. Every place memory text lives is listed here, each
 * read with the one parser of src/core/privacy/sensitivity.ts (any spelling, any kind):
 *
 * - a page whose front matter is sensitive: its body, and its title, aliases, description
 *   and path, which name it in lists, link lines and search hits;
 * - a block of any page carrying an inline marker: a dated entry, a list item, a fact line;
 * - summary, decisions and quotes with a marker; archive entries stored or marked sensitive;
 * - in a private conversation: layers, messages and typed records stored as sensitive.
 *
 * A whole sensitive page is named in the placeholder only as "a page marked sensitive": its
 * path is its title, and the title can repeat what makes it sensitive.
 */
import { SENSITIVE_PAGE, type EgressScope, type SensitiveRecord, type SensitiveRecords } from './egress.js';
import type { MemoryLayers, PrivateRecords, PrivateStore, ProjectStore } from '../ports/index.js';
import { isSensitive, markedSensitivity, sensitivityOf, labelOf } from './sensitivity.js';

/** How far back the archive is read for marked entries (older ones reach a model only through search, which is tapped). */
const RECENT_LOG = 500;

/** A line that is nothing but a marker (`[sensitivity:: sensitive/phi]`) marks its whole section. */
function markerOnly(section: string): boolean {
  return section.split('\n').some((l) => /^\s*\[sensitivity::[^\]]*\]\s*$/i.test(l) && isSensitive(markedSensitivity(l)));
}

/** Blocks of a Markdown body that carry a sensitive marker: a marked section whole, else the marked paragraph or list item. */
export function markedBlocks(body: string): string[] {
  const out: string[] = [];
  const sections = body.split(/\n(?=#{1,6}\s)/);
  for (const section of sections) {
    const [heading = ''] = section.split('\n', 1);
    if ((/^#{1,6}\s/.test(heading) && sensitivityOf(heading) === 'sensitive') || markerOnly(section)) {
      out.push(section);
      continue;
    }
    for (const block of section.split(/\n\s*\n|\n(?=\s*[-*+]\s)/)) if (sensitivityOf(block) === 'sensitive') out.push(block);
  }
  return out;
}

/**
 * The layers as a model at `locality` may be given them, decided by label: for a hosted one,
 * a summary block, decision or quote labelled sensitive (its marker, written when it was made
 * from a sensitive message) is left out.
 */
export function releasableLayers(layers: MemoryLayers, locality: 'local' | 'hosted'): MemoryLayers {
  if (locality === 'local') return layers;
  let summary = layers.summary;
  for (const block of markedBlocks(layers.summary)) summary = summary.replace(block, '[withheld: a part of the summary marked sensitive]');
  return {
    summary,
    decisions: layers.decisions.filter((d) => sensitivityOf(d.text) !== 'sensitive'),
    quotes: layers.quotes.filter((q) => sensitivityOf(q.text) !== 'sensitive'),
  };
}

function layerRecords(layers: MemoryLayers, files: { summary: string; decisions: string; quotes: string }): SensitiveRecord[] {
  const out: SensitiveRecord[] = [];
  for (const block of markedBlocks(layers.summary)) out.push({ origin: files.summary, text: block });
  for (const d of layers.decisions) if (sensitivityOf(d.text) === 'sensitive') out.push({ origin: files.decisions, text: d.text });
  for (const q of layers.quotes) if (sensitivityOf(q.text) === 'sensitive') out.push({ origin: files.quotes, text: q.text });
  return out;
}

/** The names a sensitive page goes by, each a record of its own so a list line that shows one is withheld. */
function pageNames(note: { path: string; title: string; aliases: string[] }): string[] {
  const bare = note.path.replace(/\.md$/i, '');
  return [note.path, bare, bare.replace(/-/g, ' '), note.title, ...note.aliases].filter((n) => n.trim());
}

export function sensitiveRecords(store: ProjectStore, now: () => Date, privateStore: PrivateStore, privateRecords: PrivateRecords): SensitiveRecords {
  return {
    async list(scope: EgressScope): Promise<SensitiveRecord[]> {
      if (scope.kind === 'private') {
        const out = layerRecords(privateStore.readLayers(scope.userId), { summary: 'private memory', decisions: 'private memory', quotes: 'private memory' });
        for (const e of privateStore.sensitiveMessages(scope.userId)) out.push({ origin: 'a private message', text: e.text });
        // every typed record marked sensitive, held and superseded ones too
        for (const r of privateRecords.list(scope.userId, now())) if (isSensitive(r.sensitivity)) out.push({ origin: 'private memory', text: r.statement });
        return out;
      }
      const slug = scope.slug;
      const out: SensitiveRecord[] = [];
      for (const summary of await store.listNotes(slug)) {
        const note = await store.readNote(slug, summary.path);
        if (!note) continue;
        if (note.sensitivity === 'sensitive') {
          out.push({ origin: SENSITIVE_PAGE, text: note.body });
          for (const name of pageNames(note)) out.push({ origin: SENSITIVE_PAGE, text: name });
        } else for (const block of markedBlocks(note.body)) out.push({ origin: note.path, text: block });
      }
      // a page that cannot be read (its front matter is reported) fails closed: its names are withheld
      for (const path of await store.unreadableNotes(slug)) for (const name of pageNames({ path, title: '', aliases: [] })) out.push({ origin: SENSITIVE_PAGE, text: name });
      out.push(...layerRecords((await store.readLayers(slug)).layers, { summary: 'project.md', decisions: 'decisions.md', quotes: 'quotes.md' }));
      for (const e of await store.recentLog(slug, RECENT_LOG)) {
        if (isSensitive(labelOf(e))) out.push({ origin: `log/${e.time.slice(0, 10)}.md`, text: e.text });
      }
      return out;
    },
  };
}
