/**
 * The web app's conversations of one place (a project, or one person's private conversation):
 * their titles, which were deleted, and how the turns of each hang together (the turn each one
 * follows, so an edited message or a regenerated answer starts a branch beside the old one, and
 * which alternative is shown). The messages themselves stay in the place's archive (`log/`, or the
 * private store), which Discord and the terminal share: this file is the web app's view state, one
 * append-only JSON-lines file per place under DATA_DIR/web/conversations/, named by a digest.
 *
 * The place's first conversation (`main`) always exists: it is everything of the archive that no
 * other conversation claims — the single conversation every project had before, Discord and the
 * terminal included. It can be renamed, not deleted.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const FIRST_CONVERSATION = 'main';
const FIRST_TITLE = 'Main conversation';
export const NEW_TITLE = 'New conversation';

/** A conversation's id (also in a request). */
export const conversationId = z.string().regex(/^[a-z0-9]{1,24}$/, 'conversation must be the id of a conversation');
const id = conversationId;
const op = z.discriminatedUnion('op', [
  z.object({ op: z.literal('new'), id, title: z.string().max(200), time: z.string().max(40) }),
  z.object({ op: z.literal('title'), id, title: z.string().max(200), manual: z.boolean() }),
  z.object({ op: z.literal('delete'), id, time: z.string().max(40) }),
  /** A turn of a conversation: its message's source and the turn it follows (null: the first). */
  z.object({ op: z.literal('turn'), id, s: z.string().max(300), after: z.string().max(300).nullable(), time: z.string().max(40) }),
  /** The alternative shown where there are several: the turn `s` among its siblings. */
  z.object({ op: z.literal('choose'), s: z.string().max(300) }),
]);
type Op = z.infer<typeof op>;

export interface ConversationInfo {
  id: string;
  title: string;
  /** The title was given by a person (an automatic one is never put over it). */
  renamed: boolean;
  created: string;
  /** The newest turn's time (or created). */
  updated: string;
}

/** A place's conversations as read from its file. */
export interface PlaceConversations {
  list: ConversationInfo[];
  deleted: Set<string>;
  /** The conversation of each web turn (by its message's source). */
  of: Map<string, string>;
  /** The turn each linked turn follows. */
  after: Map<string, string | null>;
  /** Turns chosen as the shown alternative, newest choice last. */
  chosen: string[];
}

/** A title from a first message: its first line, cut at a word near 60 characters. */
export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return NEW_TITLE;
  if (line.length <= 60) return line;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`;
}

/** A conversation's source prefix: its turns' sources are `web:<id>:<ms>` (the first's stay `web:<ms>`). */
export function sourceFor(conversation: string, ms: number): string {
  return conversation === FIRST_CONVERSATION ? `web:${ms}` : `web:${conversation}:${ms}`;
}

export class ConversationStore {
  constructor(private readonly dir: string) {}

  private file(place: string): string {
    return join(this.dir, `${createHash('sha256').update(place).digest('hex').slice(0, 32)}.jsonl`);
  }

  private append(place: string, entry: Op): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    appendFileSync(this.file(place), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  read(place: string): PlaceConversations {
    const out: PlaceConversations = { list: [], deleted: new Set(), of: new Map(), after: new Map(), chosen: [] };
    const byId = new Map<string, ConversationInfo>();
    const first: ConversationInfo = { id: FIRST_CONVERSATION, title: FIRST_TITLE, renamed: false, created: '', updated: '' };
    byId.set(first.id, first);
    const file = this.file(place);
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
    for (const line of lines) {
      if (!line) continue;
      let parsed: Op;
      try {
        const r = op.safeParse(JSON.parse(line));
        if (!r.success) continue;
        parsed = r.data;
      } catch {
        continue; // a torn last line (crash mid-write)
      }
      if (parsed.op === 'new') byId.set(parsed.id, { id: parsed.id, title: parsed.title, renamed: false, created: parsed.time, updated: parsed.time });
      else if (parsed.op === 'title') {
        const c = byId.get(parsed.id);
        if (c && (parsed.manual || !c.renamed)) Object.assign(c, { title: parsed.title, renamed: c.renamed || parsed.manual });
      } else if (parsed.op === 'delete') out.deleted.add(parsed.id);
      else if (parsed.op === 'turn') {
        out.of.set(parsed.s, parsed.id);
        out.after.set(parsed.s, parsed.after);
        out.chosen.push(parsed.s);
        const c = byId.get(parsed.id);
        if (c) c.updated = parsed.time;
      } else out.chosen.push(parsed.s);
    }
    out.list = [...byId.values()].filter((c) => !out.deleted.has(c.id));
    return out;
  }

  create(place: string, time: Date): ConversationInfo {
    const made = { id: randomBytes(6).toString('hex'), title: NEW_TITLE, time: time.toISOString() };
    this.append(place, { op: 'new', ...made });
    return { id: made.id, title: made.title, renamed: false, created: made.time, updated: made.time };
  }

  rename(place: string, conversation: string, title: string, manual = true): void {
    this.append(place, { op: 'title', id: conversation, title, manual });
  }

  delete(place: string, conversation: string, time: Date): void {
    this.append(place, { op: 'delete', id: conversation, time: time.toISOString() });
  }

  /** A new turn of `conversation` after the turn `after` (it becomes the shown alternative there). */
  link(place: string, conversation: string, source: string, after: string | null, time: Date): void {
    this.append(place, { op: 'turn', id: conversation, s: source, after, time: time.toISOString() });
  }

  choose(place: string, source: string): void {
    this.append(place, { op: 'choose', s: source });
  }

  /** Forgets a place's conversations: titles, branches, choices (a person's private ones, on `/private wipe`). */
  wipe(place: string): void {
    rmSync(this.file(place), { force: true });
  }
}
