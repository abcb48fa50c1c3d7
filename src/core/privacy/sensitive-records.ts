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
import type { LogEntry, MemoryLayers, PrivateRecords, PrivateStore, ProjectStore } from '../ports/index.js';
import { classifyText, isSensitive, markedSensitivity, labelOf } from './sensitivity.js';
import { createHash } from 'node:crypto';
import type { ConsentItem } from './consent.js';
import { blocksOf, entrySpeakers, firstFieldValue, firstRecordId, isFieldOnlyLine, isHeading, sectionsOf } from '../records/line-syntax.js';

/** How far back the archive is read for marked entries (older ones reach a model only through search, which is tapped). */
const RECENT_LOG = 500;

/** A line that is nothing but a marker (`[sensitivity:: sensitive/phi]`) marks its whole section. */
function markerOnly(section: string): boolean {
  return section.split('\n').some((l) => isFieldOnlyLine(l, 'sensitivity') && isSensitive(markedSensitivity(l)));
}

/**
 * Whether a block of a layer or a page is sensitive by its label: its own marker, or the rules on
 * its words (a hand-added decision about an abortion consult is labelled by what it says, as it
 * would have been had Charlie written it).
 */
function labelledSensitive(text: string): boolean {
  return labelOf({ text }).sensitivity === 'sensitive';
}

/** Blocks of a Markdown body that are sensitive by their label: a marked section whole, else the sensitive paragraph or list item. */
export function markedBlocks(body: string): string[] {
  const out: string[] = [];
  const sections = sectionsOf(body);
  for (const section of sections) {
    const [heading = ''] = section.split('\n', 1);
    if ((isHeading(heading) && labelledSensitive(heading)) || markerOnly(section)) {
      out.push(section);
      continue;
    }
    for (const block of blocksOf(section)) if (labelledSensitive(block)) out.push(block);
  }
  return out;
}

/**
 * The layers as a model at `locality` may be given them, decided by label: for a hosted one,
 * a summary block, decision or quote labelled sensitive (its marker, written when it was made
 * from a sensitive message, or the rules on its words) is left out.
 */
export function releasableLayers(layers: MemoryLayers, locality: 'local' | 'hosted'): MemoryLayers {
  if (locality === 'local') return layers;
  let summary = layers.summary;
  for (const block of markedBlocks(layers.summary)) summary = summary.replace(block, '[withheld: a part of the summary marked sensitive]');
  return {
    summary,
    decisions: layers.decisions.filter((d) => !labelledSensitive(d.text)),
    quotes: layers.quotes.filter((q) => !labelledSensitive(q.text)),
  };
}

/** Whether `layers` hold anything labelled sensitive (what `releasableLayers` withholds from a hosted model). */
export function holdsLabelled(layers: MemoryLayers): boolean {
  return markedBlocks(layers.summary).length > 0 || layers.decisions.some((d) => labelledSensitive(d.text)) || layers.quotes.some((q) => labelledSensitive(q.text));
}

/** A stable id for an item without a block id of its own: where it lives and a hash of its words. */
function itemId(where: string, text: string): string {
  return `${where}#${createHash('sha1').update(text.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 8)}`;
}

/** The kind a label or the rules give a text (shown in a question), if any. */
function kindOf(text: string): ConsentItem['kind'] {
  return markedSensitivity(text)?.kind ?? classifyText(text)?.kind;
}

/** Whom a page is about, when it is one person's: `Users/Ann/USER.md` and `People/Bob.md` (or a page of category people). */
export function pageSubject(path: string, category?: string): string | undefined {
  const user = /^Users\/([^/]+)\/USER\.md$/i.exec(path);
  if (user?.[1]) return user[1].replace(/-\d+$/, '').replace(/-/g, ' ');
  if (/^people\//i.test(path) || /^people(\/|$)/i.test(category ?? '')) return (path.split('/').pop() ?? path).replace(/\.md$/i, '').replace(/-/g, ' ');
  return undefined;
}

/** The item a marked block of a page is, named by its record's id and attribute when it has them. */
export function blockItem(path: string, block: string, subject: string | undefined): ConsentItem {
  const where = path.replace(/\.md$/i, '');
  const id = firstRecordId(block);
  const about = firstFieldValue(block, 'about');
  const kind = kindOf(block);
  return { id: id ?? itemId(where, block), where, ...(about ? { name: about } : {}), ...(kind ? { kind } : {}), ...(subject ? { subject } : {}) };
}

/** The item of a search hit that showed something sensitive: the record it shows, or its page, or the archived message. */
export function foundItem(page: string, text: string): ConsentItem {
  const path = page.replace(/^notes\//, '');
  if (!page.startsWith('notes/')) {
    // an archive chunk: its speaker's, when it has one
    const speaker = chunkSpeaker(text);
    const file = path.replace(/\.md$/i, '');
    return { ...layerItem(file, text, speaker), where: `the conversation of ${file.replace(/^log\//, '')}`, name: speaker ? `${speaker}'s message` : 'archived messages' };
  }
  if (firstRecordId(text) !== undefined) return blockItem(path, text, pageSubject(path));
  return pageItem(path, text);
}

/** A page marked sensitive as a whole, as one item: its body and the names it goes by go together. */
export function pageItem(path: string, body: string, category?: string): ConsentItem {
  const kind = kindOf(body);
  const subject = pageSubject(path, category);
  return { id: `page:${path}`, where: path.replace(/\.md$/i, ''), name: 'the whole page', ...(kind ? { kind } : {}), ...(subject ? { subject } : {}) };
}

/** The one speaker of an archive chunk (`### 10:02:00 · Ann · [↗](…)`), if it has exactly one. */
export function chunkSpeaker(text: string): string | undefined {
  const speakers = new Set(entrySpeakers(text));
  return speakers.size === 1 ? [...speakers][0] : undefined;
}

/**
 * A stored message as an item: in a project, an archived message is its speaker's and a reply
 * (labelled from what it drew on) the project's; in a private conversation, everything is its owner's.
 */
export function entryItem(e: Pick<LogEntry, 'time' | 'speaker' | 'text' | 'role'>, scope: EgressScope): ConsentItem {
  if (scope.kind === 'private') return { ...layerItem('your private messages', e.text, scope.userId), name: `your message of ${e.time.slice(0, 10)}` };
  const who = e.role === 'user' ? `${e.speaker}'s message` : 'a reply';
  const day = e.time.slice(0, 10);
  // the id keeps the archive's day file; the name a person reads says "the conversation", not a path
  return { ...layerItem(`log/${day}`, e.text, e.role === 'user' ? e.speaker : undefined), where: `the conversation of ${day}`, name: `${who} at ${e.time.slice(11, 16)}` };
}

function layerItem(file: string, text: string, subject: string | undefined): ConsentItem {
  const kind = kindOf(text);
  return { id: itemId(file, text), where: file, ...(kind ? { kind } : {}), ...(subject ? { subject } : {}) };
}

function layerRecords(layers: MemoryLayers, files: { summary: string; decisions: string; quotes: string }, subject?: string): SensitiveRecord[] {
  const out: SensitiveRecord[] = [];
  const add = (origin: string, text: string) => out.push({ origin, text, item: layerItem(origin, text, subject) });
  for (const block of markedBlocks(layers.summary)) add(files.summary, block);
  for (const d of layers.decisions) if (labelledSensitive(d.text)) add(files.decisions, d.text);
  for (const q of layers.quotes) if (labelledSensitive(q.text)) add(files.quotes, q.text);
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
        // everything here is the owner's own
        const mine = scope.userId;
        const out = layerRecords(privateStore.readLayers(mine), { summary: 'your private memory', decisions: 'your private memory', quotes: 'your private memory' }, mine);
        for (const e of privateStore.sensitiveMessages(mine)) out.push({ origin: 'a private message', text: e.text, item: entryItem(e, scope) });
        // every typed record marked sensitive, held and superseded ones too
        for (const r of privateRecords.list(mine, now())) {
          if (!isSensitive(r.sensitivity)) continue;
          const kind = kindOf(`[sensitivity:: ${r.sensitivity}]`) ?? kindOf(r.statement);
          const item: ConsentItem = { id: r.id, where: `your private memory › ${r.entity}`, ...(r.about ? { name: r.about } : {}), ...(kind ? { kind } : {}), subject: mine };
          out.push({ origin: 'private memory', text: r.statement, item });
        }
        return out;
      }
      const slug = scope.slug;
      const out: SensitiveRecord[] = [];
      for (const summary of await store.listNotes(slug)) {
        const note = await store.readNote(slug, summary.path);
        if (!note) continue;
        const subject = pageSubject(note.path, note.category);
        if (note.sensitivity === 'sensitive') {
          const item = pageItem(note.path, note.body, note.category);
          out.push({ origin: SENSITIVE_PAGE, text: note.body, item });
          for (const name of pageNames(note)) out.push({ origin: SENSITIVE_PAGE, text: name, item });
        } else for (const block of markedBlocks(note.body)) out.push({ origin: note.path, text: block, item: blockItem(note.path, block, subject) });
      }
      // a page that cannot be read (its front matter is reported) fails closed: its names are withheld
      for (const path of await store.unreadableNotes(slug)) for (const name of pageNames({ path, title: '', aliases: [] })) out.push({ origin: SENSITIVE_PAGE, text: name });
      out.push(...layerRecords((await store.readLayers(slug)).layers, { summary: 'project.md', decisions: 'decisions.md', quotes: 'quotes.md' }));
      for (const e of await store.recentLog(slug, RECENT_LOG)) {
        if (!isSensitive(labelOf(e))) continue;
        out.push({ origin: `log/${e.time.slice(0, 10)}.md`, text: e.text, item: entryItem(e, scope) });
      }
      return out;
    },
  };
}
