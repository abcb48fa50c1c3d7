/**
 * The memory model's distillation reply, as tests script it: what a test does not name is an
 * empty list (or an empty summary), so each test writes only the entities, facts and links it is
 * about. Loose on purpose: hostile tests pass shapes the parser must refuse.
 */
export interface DistillReplyParts {
  summary?: string;
  decisions?: unknown[];
  quotes?: unknown[];
  entities?: unknown[];
  facts?: unknown[];
  links?: unknown[];
}

export function distillReply(parts: DistillReplyParts): Required<DistillReplyParts> {
  return { summary: '', decisions: [], quotes: [], entities: [], facts: [], links: [], ...parts };
}

/** An entity the memory model proposes as new, filed under `category`. */
export const newEntity = (name: string, category: string) => ({ name, category, new: true });

/** A fact the memory model draws about `entity` from message number `message`. */
export const fact = (entity: string, text: string, message: number, type: string) => ({ entity, text, message, type });
