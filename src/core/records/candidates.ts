/**
 * The promotion gate's waiting candidates: what one is (with the gate's four factors), the port
 * of their store, and how they are kept (a JSON file per project, a row per DM user in
 * private.db): one parser for both stores, validated, so a bad or old entry reads as nothing
 * rather than as a candidate. Pure.
 */
import { z } from 'zod';
import type { GraphFact } from '../ports/knowledge-graph.js';

export interface ScoreParts {
  recency: number;
  salience: number;
  identity: number;
  source: number;
}

export interface Candidate {
  /** From entity + normalised statement: the same fact proposed again has the same key. */
  key: string;
  entity: string;
  /** The category the memory model proposed for the entity's page (People/Friends …), kept for a promotion by hand. */
  category?: string;
  fact: GraphFact;
  /** The exact message the fact came from. */
  message: string;
  /** Where it was seen (gate-factors.ts conversationOf); seen again elsewhere, it is promoted. */
  conversation?: string;
  score: number;
  parts: ScoreParts;
  firstSeen: string;
  expires: string;
}

/** Waiting candidates of one project (or one private conversation). */
export interface CandidateStore {
  list(): Promise<Candidate[]>;
  replace(candidates: Candidate[]): Promise<void>;
}

const candidateSchema = z.object({
  key: z.string(),
  entity: z.string(),
  category: z.string().optional(),
  fact: z.object({
    text: z.string(),
    type: z.string().optional(),
    said: z.string(),
    source: z.string(),
    staleness: z.number().optional(),
    // a waiting commitment keeps its due date, an episode its day, a fact its attribute and sensitivity
    due: z.string().optional(),
    happened: z.string().optional(),
    about: z.string().optional(),
    sensitivity: z.string().optional(),
  }),
  message: z.string(),
  conversation: z.string().optional(),
  score: z.number(),
  // a candidate kept before salience replaced novelty reads with a middling salience
  parts: z
    .object({ recency: z.number(), salience: z.number().optional(), novelty: z.number().optional(), identity: z.number(), source: z.number() })
    .transform(({ recency, salience, identity, source }) => ({ recency, salience: salience ?? 0.5, identity, source })),
  firstSeen: z.string(),
  expires: z.string(),
});

/** The waiting candidates stored as JSON text: one bad entry does not lose the others. */
export function parseCandidates(text: string | null | undefined): Candidate[] {
  if (!text) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  return (Array.isArray(data) ? data : []).flatMap((c) => {
    const p = candidateSchema.safeParse(c);
    return p.success ? [p.data] : [];
  });
}
