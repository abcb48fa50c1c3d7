/** Tools over entity notes (Markdown pages under notes/). */
import { z } from 'zod';
import { recordIds, withoutHiddenRecords } from '../inspector/record-view.js';
import { clip, defineTool, type ToolContext, type ToolHome } from './tool.js';
import { SENSITIVE_PAGE } from '../privacy/egress.js';
import { markedBlocks, pageItem } from '../privacy/sensitive-records.js';
import { NO_RELEASE, releaseFactLines } from '../privacy/release.js';

/** The project's notes; throws in a private conversation, which has none. */
function shelf(ctx: ToolContext): NonNullable<ToolHome['notes']> {
  requireNotes(ctx);
  return ctx.home.notes!;
}

/** Refuses a tool call in a place without notes (a private conversation). */
function requireNotes(ctx: ToolContext): void {
  if (!ctx.home.notes) throw new Error('notes are not available in a private conversation');
}

export const listNotes = defineTool({
  name: 'list_notes',
  category: 'notes',
  projectOnly: true,
  description: 'List the entity notes of this project (path, title, tags), optionally only one category folder such as People.',
  params: z.object({ category: z.string().max(100).optional().describe('folder to list, e.g. People') }),
  async execute(args, ctx) {
    const notes = await shelf(ctx).list();
    const wanted = args.category?.toLowerCase();
    const shown = wanted ? notes.filter((n) => n.path.toLowerCase().startsWith(`${wanted}/`)) : notes;
    const content = shown.map((n) => `- ${n.path} — ${n.title}${n.tags.length ? ` [${n.tags.join(', ')}]` : ''} (updated ${n.updated})`).join('\n');
    return { content: clip(content || 'no notes yet'), summary: `${shown.length} ${shown.length === 1 ? 'note' : 'notes'}${wanted ? ` in ${args.category}` : ''}` };
  },
});

export const readNote = defineTool({
  name: 'read_note',
  category: 'notes',
  projectOnly: true,
  description: 'Open one note by its path (as given by list_notes or search_memory, e.g. People/Sarah-Chen.md).',
  params: z.object({ path: z.string().min(1).max(300) }),
  async execute(args, ctx) {
    const path = args.path.replace(/^notes\//, '');
    const notes = shelf(ctx);
    const note = await notes.read(path);
    if (!note) return { content: `no note at ${path}; use list_notes to see what exists`, summary: `no note ${path}` };
    const hosted = ctx.modelLocality === 'hosted';
    const release = ctx.release ?? NO_RELEASE;
    // a whole page marked sensitive goes to a hosted model only when its person let it (asked in the moment)
    const wholeReleased = note.sensitivity === 'sensitive' && hosted && (await release([{ item: pageItem(note.path, note.body, note.category), text: note.body }])).size > 0;
    if (note.sensitivity === 'sensitive' && hosted && !wholeReleased) {
      return { content: `${note.path} is marked sensitive and is never sent to a hosted model; tell the user to open it themselves`, summary: `withheld sensitive ${note.path}` };
    }
    notes.used(note, 'view');
    const body = hosted && !wholeReleased ? await releaseFactLines(withoutHiddenRecords(note.body), note.path, release) : withoutHiddenRecords(note.body);
    // a local model may read it; what it says next must not reach a hosted service
    if (note.sensitivity === 'sensitive') ctx.sawSensitive({ origin: SENSITIVE_PAGE, text: body });
    else for (const block of markedBlocks(body)) ctx.sawSensitive({ origin: note.path, text: block });
    return {
      content: clip(`# ${note.title}\n(tags: ${note.tags.join(', ') || 'none'}; updated ${note.updated})\n\n${body}`),
      summary: `opened ${note.path}`,
      pages: [`notes/${note.path}`],
      records: recordIds(body),
    };
  },
});

export const remember = defineTool({
  name: 'remember',
  category: 'notes',
  projectOnly: true,
  description:
    'Save or update a note about a person, place, thing or topic. If a note about it exists (by title, alias or first name), the text is added to it; each sentence becomes a dated fact citing this message.',
  params: z.object({
    title: z.string().min(1).max(120).describe('the entity, e.g. "Sarah Chen"'),
    text: z.string().min(1).max(20_000).describe('what to remember, in plain sentences'),
    category: z.string().max(60).optional().describe('folder such as People, Places, Topics'),
    tags: z.array(z.string().max(40)).max(10).optional(),
  }),
  async execute(args, ctx) {
    // the write goes through ctx.writes; the shelf is asked for only to refuse a private conversation
    requireNotes(ctx);
    const result = await ctx.writes.saveNote({ title: args.title, body: args.text, category: args.category, tags: args.tags, source: ctx.source });
    switch (result.kind) {
      case 'saved':
        return {
          content: `${result.created ? 'created' : 'updated'} notes/${result.path}${result.detail ? `: ${result.detail}` : ''}`,
          summary: `${result.created ? 'saved' : 'updated'} ${result.path}`,
          pages: [`notes/${result.path}`],
        };
      case 'requested': {
        const when = result.reviewer === 'memory-lane' ? 'when my local model runs' : 'once a local memory model is set up';
        return {
          content: `NOT saved yet: only the owner's local memory model writes memory from this answer (it came from a hosted model, or used an external tool's data). The request is kept as a candidate; the local model decides on it at the next distillation. Tell the user honestly, e.g. "noted — I'll file it ${when}", and do not say it is saved.`,
          summary: `kept "${args.title}" as a candidate for the local memory model`,
          notice: `noted — I'll file "${args.title}" ${when} (a hosted model does not write memory)`,
        };
      }
      case 'refused':
        return { content: `not saved: ${result.reason}`, summary: `not saved (${result.reason})` };
      case 'unchanged':
        return { content: 'already remembered: nothing new to add', summary: 'already remembered' };
    }
  },
});

export const searchNotes = defineTool({
  name: 'search_notes',
  category: 'notes',
  projectOnly: true,
  description: 'Plain text search over the notes: returns each matching line with its note path and line number.',
  params: z.object({ text: z.string().min(1).max(200), limit: z.number().int().min(1).max(50).default(10) }),
  async execute(args, ctx) {
    const hits = await shelf(ctx).grep(args.text, args.limit);
    // a line of a sensitive page is matched back to it: the egress boundary withholds it, not this tool
    for (const h of hits) if (h.sensitivity === 'sensitive') ctx.sawSensitive({ origin: SENSITIVE_PAGE, text: h.text });
    return {
      content: clip(hits.map((h) => `${h.path}:${h.line}: ${h.text}`).join('\n') || 'no match'),
      summary: `${hits.length} ${hits.length === 1 ? 'line matches' : 'lines match'} "${args.text}"`,
      hits: hits.length,
      pages: [...new Set(hits.map((h) => `notes/${h.path}`))],
    };
  },
});
