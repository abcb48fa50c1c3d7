/**
 * One row of the rules table (src/core/privacy/sensitive-words.ts): its kind, its pattern, the
 * spellings it must catch and the everyday sentences it must leave alone, and the helpers that
 * write a row of each kind. The rows live by concern: health in health-words.ts, the rest in
 * sensitive-words.ts.
 */
/** The kinds a sensitive text can be of (declared here, beside the words of each; sensitivity.ts re-exports them). */
export const SENSITIVE_KINDS = ['phi', 'credential', 'financial'] as const;
export type SensitiveKind = (typeof SENSITIVE_KINDS)[number];

export interface SensitiveWord {
  /** The label's kind; null = sensitive without a kind (legal matters). */
  kind: SensitiveKind | null;
  /** A regular expression source, matched whole-word and case-insensitively. */
  match: string;
  /** Spellings the pattern must catch (the generated test's cases). */
  forms: readonly string[];
  /** Everyday sentences that share the row's words and must stay ordinary (the generated test checks each). */
  ordinary?: readonly string[];
}

export const phi = (match: string, ...forms: string[]): SensitiveWord => ({ kind: 'phi', match, forms });
export const money = (match: string, ...forms: string[]): SensitiveWord => ({ kind: 'financial', match, forms });
export const secret = (match: string, ...forms: string[]): SensitiveWord => ({ kind: 'credential', match, forms });
export const legal = (match: string, ...forms: string[]): SensitiveWord => ({ kind: null, match, forms });
/** Who someone is (their faith, sexuality, gender identity): sensitive without a kind, as legal matters are. */
export const identity = (match: string, ...forms: string[]): SensitiveWord => ({ kind: null, match, forms });
/** `row`, with the everyday sentences it must leave alone. */
export const butNot = (row: SensitiveWord, ...ordinary: string[]): SensitiveWord => ({ ...row, ordinary });
