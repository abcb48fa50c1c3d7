/** The shapes of forgetting (see tombstones.ts), apart from its hashing so that type-only users (ports, the web client) need no Node types. */

export type ForgottenKind = 'note' | 'entry' | 'decision' | 'quote' | 'record';

export interface Tombstone {
  kind: ForgottenKind;
  /** Short, without the forgotten text: "note People/Sarah-Chen.md", "decision of 2026-11-20". */
  description: string;
  keys: string[];
  /** ISO time. */
  when: string;
  by: string;
}

/**
 * What to forget in a project. `entry` counts the dated entries (### headings) of a note from 1;
 * `record` is one typed record (a `## Facts` line) of a note, by its block id.
 */
export type ForgetTarget =
  | { kind: 'note'; path: string }
  | { kind: 'entry'; path: string; entry: number }
  | { kind: 'record'; path: string; id: string }
  | { kind: 'decision'; index: number }
  | { kind: 'quote'; index: number };

export interface ForgetOutcome {
  forgotten: boolean;
  /** What was forgotten, for the reply (same as the tombstone's description). */
  description: string;
  /** Archive entries redacted (when asked to remove the messages that said it). */
  redacted: number;
}
