/**
 * The knowledge-graph part of distillation: what the memory model is told (the page map, the
 * taxonomy, the staleness guidance), the JSON schema of its entities / facts / links, and the
 * item-by-item validation that turns its reply into a GraphWrite. Facts cite the exact message
 * that said them; a link is kept only with evidence (a quote found in the message it cites, or
 * a page whose text the writer checks) — co-occurrence in one batch is never evidence.
 */
import { z } from 'zod';
import { comparable as norm } from '../comparable.js';
import { formatSensitivity, isSensitive, labelOf, stricter } from '../privacy/sensitivity.js';
import type { GraphEntity, GraphLink, GraphWrite, JsonSchema, LogEntry, PageMapEntry } from '../ports/index.js';

export const STALENESS_GUIDE =
  'staleness (0-10) says how fast the information goes out of date, and is set once: 0 never (a birthday, a sibling, where someone was born); ' +
  '1-2 rarely (a long-held employer, a home town); 2-4 slowly (a job title, where someone lives, a lasting preference); ' +
  '5-7 within months (a project, a plan, an upcoming trip); 8-10 within days (waiting for a reply, feeling ill today, where someone is right now).';

const text = (max: number) => z.string().trim().min(1).max(max);
const index = z.coerce.number().int().min(1);
const staleness = z.coerce.number().int().min(0).max(10);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

/** The one set of bounds of the graph part of a reply: the zod schemas, the JSON Schema and the prompt all read them. */
export const GRAPH_BOUNDS = { entities: 8, facts: 16, links: 8, nameChars: 120, factChars: 300, quoteChars: 300 } as const;

export const entityItem = z.object({
  name: text(GRAPH_BOUNDS.nameChars),
  category: z.string().max(60).optional(),
  aliases: z.array(text(GRAPH_BOUNDS.nameChars)).max(10).optional(),
  description: z.string().max(300).optional(),
  staleness: staleness.optional(),
  new: z.boolean().optional(),
});

export const factItem = z.object({
  entity: text(GRAPH_BOUNDS.nameChars),
  text: text(GRAPH_BOUNDS.factChars),
  message: index,
  type: z.string().max(40).optional(),
  staleness: staleness.optional(),
  due: day,
  happened: day,
  about: z.string().max(40).optional().catch(undefined),
  sensitivity: z.enum(['public', 'personal', 'sensitive', 'sensitive/phi', 'sensitive/credential', 'sensitive/financial']).optional().catch(undefined),
});

export const linkItem = z.object({
  from: text(GRAPH_BOUNDS.nameChars),
  to: text(GRAPH_BOUNDS.nameChars),
  label: text(60),
  reverse_label: text(60),
  evidence: z.union([z.object({ message: index, quote: text(GRAPH_BOUNDS.quoteChars) }), z.object({ page: text(300), quote: text(GRAPH_BOUNDS.quoteChars) })]),
});

/** The graph part of a reply as one zod object: its JSON Schema is derived from it, never written by hand. */
export const graphReply = z.object({
  entities: z.array(entityItem).max(GRAPH_BOUNDS.entities),
  facts: z.array(factItem).max(GRAPH_BOUNDS.facts),
  links: z.array(linkItem).max(GRAPH_BOUNDS.links),
});

/**
 * A zod schema as JSON Schema for grammar-constrained generation: zod's own `z.toJSONSchema`,
 * read as the model's input (coercions and `.catch` fallbacks describe what it should write).
 */
export function replyJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
}

export function graphInstructions(taxonomy: readonly string[]): string[] {
  return [
    `- entities (at most ${GRAPH_BOUNDS.entities}): the people, places, organisations, events and topics the new messages say something lasting about. Use the exact title of an existing page when one is meant (see "Pages that may be concerned"); set "new": true only for a genuinely new entity of lasting significance (a person, an employer, a trip, a recurring bill, a wedding — not a passing mention), with a category from: ${taxonomy.join(', ')}; an optional short description and aliases; and its staleness.`,
    `- facts (at most ${GRAPH_BOUNDS.facts}): atomic facts, ONE statement each (at most ${GRAPH_BOUNDS.factChars} characters), about one entity, with the number of the message that said it (never an assistant message). Do not repeat facts the page already holds unless restated. Optional: type (identity, preference, commitment, episode, relationship, rule); due (YYYY-MM-DD) for a commitment; happened (YYYY-MM-DD) for an episode, when it took place; about (the attribute, e.g. employer, home); sensitivity (sensitive/phi, sensitive/credential, sensitive/financial) for health, secrets or money; staleness when it differs from the page's.`,
    `- ${STALENESS_GUIDE}`,
    `- links (at most ${GRAPH_BOUNDS.links}): a relationship between two entities, ONLY when a message or an existing page states it, with evidence: {"message": n, "quote": "words copied from that message"} or {"page": "path", "quote": "words copied from that page"}. label is what "to" is to "from" (employer), reverse_label what "from" is to "to" (employee). Being mentioned in the same conversation is not evidence.`,
  ];
}

export function pageMapText(map: readonly PageMapEntry[]): string {
  if (map.length === 0) return 'Pages that may be concerned:\n(none yet)';
  const lines = map.map((p) => {
    const aliases = p.aliases.length ? `; aliases: ${p.aliases.join(', ')}` : '';
    const who = p.why === 'speaker' ? '; speaks in these messages' : '';
    return `- ${p.title} (${p.path}${aliases}; updated ${p.updated.slice(0, 10) || '?'}; staleness ${p.staleness}${who})${p.description ? ` — ${p.description}` : ''}`;
  });
  return `Pages that may be concerned (${map.length}):\n${lines.join('\n')}`;
}

export interface GraphItems {
  entities: unknown[];
  facts: unknown[];
  links: unknown[];
}

export interface Speaker {
  name: string;
  discordId?: string;
  /** Set when they spoke through the web app: the name they signed in with. */
  webUser?: string;
}

/** Validates every item on its own; returns the write and what was dropped, with why. */
/** Where the centre pages of the people who talk to Charlie live (`Users/Ann/USER.md`). */
export const USERS_CATEGORY = 'Users';

export function toGraphWrite(items: GraphItems, entries: readonly LogEntry[], speakers: readonly Speaker[], origin: string): { write: GraphWrite; dropped: { item: string; reason: string }[] } {
  const dropped: { item: string; reason: string }[] = [];
  const drop = (item: unknown, reason: string) => dropped.push({ item: (JSON.stringify(item) as string | undefined)?.slice(0, 200) ?? String(item), reason });
  const byName = new Map<string, GraphEntity>();
  const entity = (name: string): GraphEntity => {
    const key = norm(name);
    let e = byName.get(key);
    if (!e) byName.set(key, (e = { name, facts: [], create: false }));
    return e;
  };
  for (const s of speakers) {
    const e = entity(s.name);
    e.create = true;
    e.centre = true;
    e.category = USERS_CATEGORY;
    if (s.discordId) e.discordId = s.discordId;
    if (s.webUser) e.webUser = s.webUser;
  }
  const capped = (list: unknown[], max: number, what: string): unknown[] => {
    for (const raw of list.slice(max)) drop(raw, `${what} beyond the ${max} a reply may hold`);
    return list.slice(0, max);
  };
  for (const raw of capped(items.entities, GRAPH_BOUNDS.entities, 'entity')) {
    const p = entityItem.safeParse(raw);
    if (!p.success) {
      drop(raw, `entity does not fit: ${p.error.issues[0]?.message ?? ''}`);
      continue;
    }
    const e = entity(p.data.name);
    if (p.data.new) e.create = true;
    // a speaker's page is their centre page, whatever category the model guesses
    if (p.data.category && !e.centre) e.category = p.data.category;
    if (p.data.aliases?.length) e.aliases = p.data.aliases;
    if (p.data.description) e.description = p.data.description;
    if (p.data.staleness !== undefined) e.staleness = p.data.staleness;
  }
  for (const raw of capped(items.facts, GRAPH_BOUNDS.facts, 'fact')) {
    const p = factItem.safeParse(raw);
    if (!p.success) {
      drop(raw, `fact does not fit: ${p.error.issues[0]?.message ?? ''}`);
      continue;
    }
    const said = entries[p.data.message - 1];
    if (!said || said.role !== 'user') {
      drop(raw, `fact cites message ${p.data.message}, which is not a person's message in this batch`);
      continue;
    }
    // a record made from a message carries the message's label (stored, raised by the lane, or the rules'), whatever the model says
    const label = labelOf(said);
    const sensitivity = isSensitive(label) ? stricter(p.data.sensitivity, formatSensitivity(label)) : p.data.sensitivity;
    entity(p.data.entity).facts.push({
      text: p.data.text,
      said: said.time.slice(0, 10),
      source: said.source,
      ...(p.data.type ? { type: p.data.type } : {}),
      ...(p.data.staleness !== undefined ? { staleness: p.data.staleness } : {}),
      ...(p.data.due ? { due: p.data.due } : {}),
      ...(p.data.happened ? { happened: p.data.happened } : {}),
      ...(p.data.about ? { about: p.data.about } : {}),
      ...(sensitivity ? { sensitivity } : {}),
    });
  }
  const links: GraphLink[] = [];
  for (const raw of capped(items.links, GRAPH_BOUNDS.links, 'link')) {
    const p = linkItem.safeParse(raw);
    if (!p.success) {
      drop(raw, `link refused: ${p.error.issues[0]?.message ?? 'no evidence'}`);
      continue;
    }
    const l = p.data;
    const base = { from: l.from, to: l.to, label: l.label, reverseLabel: l.reverse_label };
    if ('message' in l.evidence) {
      const said = entries[l.evidence.message - 1];
      if (!said || said.role !== 'user' || !` ${norm(said.text)} `.includes(` ${norm(l.evidence.quote)} `)) {
        // by position, never by its words: the reason is logged, and the quote may restate a private message
        drop(raw, `link refused: message ${l.evidence.message} does not say what the link quotes`);
        continue;
      }
      links.push({ ...base, evidence: { kind: 'message', source: said.source } });
    } else links.push({ ...base, evidence: { kind: 'page', page: l.evidence.page, quote: l.evidence.quote } });
  }
  // new entities first, so a later short name ("Sarah") resolves to the page just created
  const entities = [...byName.values()].sort((a, b) => Number(b.create) - Number(a.create));
  // a new page needs something lasting: a fact, an evidenced relationship, or being a speaker
  const linked = new Set(links.flatMap((l) => [norm(l.from), norm(l.to)]));
  for (const e of entities) {
    const lasting = e.facts.length > 0 || linked.has(norm(e.name)) || !!e.discordId || speakers.some((s) => norm(s.name) === norm(e.name));
    if (e.create && !lasting) e.create = false;
  }
  return { write: { entities, links, origin }, dropped };
}
