/**
 * The sensitive records of a project or a private conversation, read through the core's
 * ports: notes whose front matter says `sensitivity: sensitive` (the whole page), and blocks
 * carrying the marker in any note, in the summary, decisions and quotes, in the recent
 * archive, and private-memory rows and typed private records stored as sensitive. The egress guard withholds them.
 */
import { sensitivityOf, type EgressScope, type SensitiveRecord, type SensitiveRecords } from './egress.js';
import type { MemoryLayers, PrivateRecords, PrivateStore, ProjectStore } from './ports.js';
import { isSensitiveRecord } from './private-records.js';

/** How far back the archive is read for marked entries (older ones reach a model only through search, which is tapped). */
const RECENT_LOG = 500;

/** Blocks of a Markdown body that carry the marker: a marked dated entry whole, else the marked paragraph or list item. */
export function markedBlocks(body: string): string[] {
  const out: string[] = [];
  const sections = body.split(/\n(?=#{1,6}\s)/);
  for (const section of sections) {
    const [heading = ''] = section.split('\n', 1);
    if (sensitivityOf(heading) === 'sensitive' || /^\s*\[sensitivity::\s*sensitive\s*\]\s*$/im.test(section)) {
      out.push(section);
      continue;
    }
    for (const block of section.split(/\n\s*\n|\n(?=\s*[-*+]\s)/)) if (sensitivityOf(block) === 'sensitive') out.push(block);
  }
  return out;
}

function layerRecords(layers: MemoryLayers, files: { summary: string; decisions: string; quotes: string }): SensitiveRecord[] {
  const out: SensitiveRecord[] = [];
  for (const block of markedBlocks(layers.summary)) out.push({ origin: files.summary, text: block });
  for (const d of layers.decisions) if (sensitivityOf(d.text) === 'sensitive') out.push({ origin: files.decisions, text: d.text });
  for (const q of layers.quotes) if (sensitivityOf(q.text) === 'sensitive') out.push({ origin: files.quotes, text: q.text });
  return out;
}

export function sensitiveRecords(store: ProjectStore, privateStore?: PrivateStore, privateRecords?: PrivateRecords): SensitiveRecords {
  return {
    async list(scope: EgressScope): Promise<SensitiveRecord[]> {
      if (scope.kind === 'private') {
        if (!privateStore) return [];
        const out = layerRecords(privateStore.readLayers(scope.userId), { summary: 'private memory', decisions: 'private memory', quotes: 'private memory' });
        for (const e of privateStore.sensitiveMessages(scope.userId)) out.push({ origin: 'a private message', text: e.text });
        // every typed record marked sensitive, held and superseded ones too
        for (const r of privateRecords?.list(scope.userId, new Date()) ?? []) if (isSensitiveRecord(r)) out.push({ origin: 'private memory', text: r.statement });
        return out;
      }
      const slug = scope.slug;
      const out: SensitiveRecord[] = [];
      for (const summary of await store.listNotes(slug)) {
        const note = await store.readNote(slug, summary.path);
        if (!note) continue;
        if (note.sensitivity === 'sensitive') out.push({ origin: note.path, text: note.body });
        else for (const block of markedBlocks(note.body)) out.push({ origin: note.path, text: block });
      }
      out.push(...layerRecords((await store.readLayers(slug)).layers, { summary: 'project.md', decisions: 'decisions.md', quotes: 'quotes.md' }));
      for (const e of await store.recentLog(slug, RECENT_LOG)) {
        if (e.sensitivity === 'sensitive' || sensitivityOf(e.text) === 'sensitive') out.push({ origin: `log/${e.time.slice(0, 10)}.md`, text: e.text });
      }
      return out;
    },
  };
}
