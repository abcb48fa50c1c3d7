/** Ports owned by the core: knowledge graph. Adapters implement them; nothing here imports infrastructure. */
import type { Provenance, RecordRef } from '../records/provenance.js';
import type { MemoryRecord } from '../records/record.js';
import type { Sensitivity } from '../privacy/sensitivity.js';
import type { DecayState } from '../records/decay.js';

/** What the memory writer and traversal see of a page (never its whole text). */
export interface PageCard {
  /** Relative to the project's notes/ folder, e.g. `People/Professional/Sarah-Chen.md`. */
  path: string;
  title: string;
  aliases: string[];
  category: string;
  description: string;
  updated: string;
  staleness: number;
  sensitivity: Sensitivity;
  discordId?: string;
}

export interface PageMapEntry extends PageCard {
  /** Why the page is in the map: named in the messages, a speaker's own page, or found by recall. */
  why: 'named' | 'speaker' | 'related';
}

export interface PageMapRequest {
  /** The new messages (or source items) the writer will read. */
  texts: string[];
  speakers: { name: string; discordId?: string }[];
  /** Page paths recall found relevant, best first. */
  related?: string[];
  limit?: number;
}

/** One atomic fact, with the exact message (or source item) that said it. */
export interface GraphFact {
  text: string;
  type?: string;
  /** YYYY-MM-DD */
  said: string;
  source: string;
  /** 0 (never goes stale) … 10 (stale in a day), set by the writer from the nature of the fact. */
  staleness?: number;
  /** Set by the promotion gate: how sure Charlie is (0–1), how it came (chat, voice, ingest). */
  confidence?: number;
  via?: string;
  /** `sensitive/phi|credential|financial` when the text says so; left out = the page's. */
  sensitivity?: string;
  /** YYYY-MM-DD: a commitment's due date; an episode's day. */
  due?: string;
  happened?: string;
  /** The attribute the fact is about (employer, home …), for contradictions. */
  about?: string;
  /** How it was let in (the promotion gate's verdict and score), kept in the record's history (`_log.md`). */
  gate?: string;
  /** Set by the graph writer: the centre pages (`Users/Ann/USER`) of the people the fact names. */
  person?: string[];
}

export interface GraphEntity {
  /** A name, alias or page path; resolved against the project's pages. */
  name: string;
  category?: string;
  aliases?: string[];
  description?: string;
  /** For a new page: set once, never recomputed. */
  staleness?: number;
  discordId?: string;
  /** A speaker's web identity (the name they sign in to the web app with), kept on their USER.md. */
  webUser?: string;
  facts: GraphFact[];
  /** May a new page be created for it (lasting significance, or a speaker)? */
  create: boolean;
  /** A person who talks to Charlie: their page is their centre page, `Users/<Name>/USER.md`. */
  centre?: boolean;
}

/** Evidence for a relationship: a message that states it, or a page whose text states it. */
export type LinkEvidence = { kind: 'message'; source: string } | { kind: 'page'; page: string; quote: string };

export interface GraphLink {
  from: string;
  to: string;
  /** What `to` is to `from` (on `from`'s page), e.g. `employer`. */
  label: string;
  /** What `from` is to `to` (on `to`'s page), e.g. `employee`. */
  reverseLabel: string;
  evidence: LinkEvidence;
}

export interface GraphWrite {
  entities: GraphEntity[];
  links: GraphLink[];
  /** For `_log.md`: what produced this write (`distillation`, `inbox/calendar.ics`). */
  origin: string;
}

export interface GraphWriteReport {
  created: string[];
  updated: string[];
  factsAdded: number;
  factsRefreshed: number;
  linksAdded: number;
  /** Items not written, with why (unresolved, ambiguous, no evidence, forgotten, conflict). */
  refused: { item: string; reason: string }[];
}

export interface LinkedPage extends PageCard {
  label: string;
  /** The page the link was followed from. */
  from: string;
  depth: number;
}

export interface KnowledgeGraph {
  /** The project's category folders for new pages (project.md `taxonomy`, or the defaults). */
  taxonomy(project: string): Promise<readonly string[]>;
  pageMap(project: string, request: PageMapRequest): Promise<PageMapEntry[]>;
  write(project: string, write: GraphWrite): Promise<GraphWriteReport>;
  /** Pages linked from a page (path or name), optionally only links whose label matches, 1–2 hops. */
  follow(project: string, start: string, options: { label?: string; depth: number }): Promise<{ start: PageCard; linked: LinkedPage[] } | null>;
  /** Pairs of records that disagree, waiting for a person. */
  reviewList(project: string): Promise<ReviewPair[]>;
  /** A person's choice about a record in review, or `hold`; false when no page has the record. */
  review(project: string, id: string, choice: ReviewChoice): Promise<boolean>;
  /** The records asked for, each with its provenance chain (src/core/inspector/why.ts). */
  provenance(project: string, refs: readonly RecordRef[]): Promise<Provenance>;
  /** Every typed record of the project's pages (only of `pages`, paths under notes/, when given), with its decay read at `now`. */
  records(project: string, now: Date, pages?: readonly string[]): Promise<RecordView[]>;
  /** The pages and their labelled `## Related` links (a front door's graph view). */
  pageLinks(project: string): Promise<PageLinks>;
  /** Notes on records that Charlie asked about them (`[asked:: date]`) or mentioned their review (`[raised:: date]`). */
  markRecords(project: string, ids: readonly string[], what: 'asked' | 'raised', date: string): Promise<void>;
  /** A person rewrote a record's statement: provenance `manual`, confidence 1; false when no page has the record. */
  editRecord(project: string, id: string, statement: string): Promise<boolean>;
  /** A person rewrote a page's text (front matter kept): source `manual`, confidence 1; false when there is no such page. */
  editPage(project: string, path: string, body: string): Promise<boolean>;
}

/** A project's pages and the labelled links between them, as read from the pages. */
export interface PageLinks {
  /** Paths relative to notes/. */
  /** `sensitivity`: the page's label (its front matter), so a reader for a hosted service leaves it and the links to it out. */
  pages: { path: string; title: string; category: string; sensitivity: Sensitivity }[];
  /** `to` is the page the link resolves to, or null when no page has that name yet (`target` as written). */
  links: { from: string; to: string | null; target: string; label: string }[];
}

/**
 * A typed record as a front door shows it (e.g. the Memory Inspector): the one MemoryRecord of
 * src/core/records with its page's title and category and its decay read at the time of reading.
 * A record of a private conversation has no page: `page` is '' and `pageTitle` the entity.
 */
export interface RecordView extends MemoryRecord {
  pageTitle: string;
  pageCategory: string;
  /** Confidence after decay at the time of reading (0–1). */
  effective: number;
  decay: DecayState;
}

export type ReviewChoice = 'keep-new' | 'keep-old' | 'keep-both' | 'hold';

export interface ReviewPair {
  page: string;
  title: string;
  /** The older and the newer record (by `said`, then by place on the page). */
  old: { id: string; statement: string; said: string };
  new: { id: string; statement: string; said: string };
}
