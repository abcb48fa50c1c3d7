/**
 * Suggested-note buttons under replies, the ephemeral note view with its tag buttons, and the
 * list of notes sharing a tag. Custom ids are short (`note:<n>`, `tag:<n>`) and index into a
 * bounded per-instance map that also remembers which place a button belongs to, so a button
 * never shows a note outside its own project. Every press records a usage signal
 * (accepted suggestion, view, tag interaction) through `AssistantApi.memory.readNote`.
 */
import { ButtonStyle, ComponentType, MessageFlags, type ButtonInteraction } from 'discord.js';
import { type AssistantApi } from '../core/assistant-api.js';
import { placeKey, type Place } from '../core/place.js';
import type { Note } from '../core/ports/index.js';
import { pageName } from './tool-trace.js';

type Entry = { kind: 'note'; placeKey: string; path: string; reason: 'view' | 'suggestion_accepted' } | { kind: 'tag'; placeKey: string; tag: string; from: string };

export const NOTE_PREFIX = 'note';
export const TAG_PREFIX = 'tag';

export interface ButtonRow {
  type: ComponentType.ActionRow;
  components: { type: ComponentType.Button; style: ButtonStyle; label: string; custom_id: string }[];
}

export class NoteBoard {
  private readonly entries = new Map<string, Entry>();
  private counter = 0;

  constructor(
    private readonly assistant: Pick<AssistantApi, 'memory'>,
    private readonly capacity = 2000,
  ) {}

  /** Up to three "suggested note" buttons for a reply, or null when there are none. */
  suggestionRow(place: Place, related: readonly string[]): ButtonRow | null {
    const paths = [...new Set(related)].filter((p) => p.endsWith('.md')).slice(0, 3);
    if (!paths.length) return null;
    return row(paths.map((path) => ({ label: `📝 ${pageName(path)}`, id: this.add({ kind: 'note', placeKey: placeKey(place), path, reason: 'suggestion_accepted' }) })));
  }

  /** Handles `note:` and `tag:` buttons; returns false for other ids. */
  async handle(interaction: ButtonInteraction, place: Place): Promise<boolean> {
    const [prefix] = interaction.customId.split(':');
    if (prefix !== NOTE_PREFIX && prefix !== TAG_PREFIX) return false;
    const entry = this.entries.get(interaction.customId);
    if (!entry || entry.placeKey !== placeKey(place)) {
      await interaction.reply({ content: 'That button has expired — ask again or use `/memory search`.', flags: MessageFlags.Ephemeral });
      return true;
    }
    if (entry.kind === 'note') await this.showNote(interaction, place, entry.path, entry.reason);
    else await this.showTag(interaction, place, entry.tag, entry.from);
    return true;
  }

  private async showNote(interaction: ButtonInteraction, place: Place, path: string, reason: 'view' | 'suggestion_accepted'): Promise<void> {
    const note = await this.assistant.memory.readNote(place, path, reason);
    if (!note) {
      await interaction.reply({ content: `The note \`${pageName(path)}\` is gone.`, flags: MessageFlags.Ephemeral });
      return;
    }
    const key = placeKey(place);
    const tagRow = note.tags.length
      ? [row(note.tags.slice(0, 5).map((tag) => ({ label: `#${tag}`.slice(0, 80), id: this.add({ kind: 'tag', placeKey: key, tag, from: note.path }), secondary: true })))]
      : [];
    await interaction.reply({ content: renderNote(note), components: tagRow, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  }

  private async showTag(interaction: ButtonInteraction, place: Place, tag: string, from: string): Promise<void> {
    await this.assistant.memory.readNote(place, from, 'tag'); // the tag interaction is the signal
    const notes = (await this.assistant.memory.listNotes(place)).filter((n) => n.tags.includes(tag) && n.path !== from.replace(/^notes\//, ''));
    const key = placeKey(place);
    const rows = notes.length
      ? [row(notes.slice(0, 5).map((n) => ({ label: n.title.slice(0, 80) || pageName(n.path), id: this.add({ kind: 'note', placeKey: key, path: n.path, reason: 'view' }) })))]
      : [];
    const content = notes.length ? `Notes tagged **#${tag}**:` : `No other notes are tagged **#${tag}**.`;
    await interaction.reply({ content, components: rows, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  }

  private add(entry: Entry): string {
    const prefix = entry.kind === 'note' ? NOTE_PREFIX : TAG_PREFIX;
    const id = `${prefix}:${(this.counter++).toString(36)}`;
    this.entries.set(id, entry);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return id;
  }
}

function row(buttons: { label: string; id: string; secondary?: boolean }[]): ButtonRow {
  return {
    type: ComponentType.ActionRow,
    components: buttons.map((b) => ({ type: ComponentType.Button, style: b.secondary ? ButtonStyle.Secondary : ButtonStyle.Primary, label: b.label.slice(0, 80), custom_id: b.id })),
  };
}

export function renderNote(note: Note): string {
  const head = `**${note.title}** · \`${note.path}\`\n-# updated ${note.updated.slice(0, 10)}${note.tags.length ? ` · ${note.tags.map((t) => `#${t}`).join(' ')}` : ''}`;
  const room = 1900 - head.length;
  const body = note.body.length > room ? `${note.body.slice(0, room - 1)}…` : note.body;
  return `${head}\n${body}`;
}
