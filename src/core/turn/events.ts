/** Events the core emits during a turn; every front door renders them its own way. */
import type { ModelErrorKind } from '../errors.js';

export type TurnEndReason = 'done' | 'max_steps' | 'max_tool_calls' | 'deadline' | 'cancelled' | 'error';

export type TurnEvent =
  | { type: 'turn_start'; turnId: string; project: string; mode: 'text' | 'voice' }
  | {
      type: 'tool_call';
      turnId: string;
      callId: string;
      name: string;
      args: unknown;
      /** Set for a tool of an MCP server: the server and its own name of the tool. */
      source?: { server: string; tool: string };
    }
  | {
      type: 'tool_result';
      turnId: string;
      callId: string;
      name: string;
      ok: boolean;
      /** One human line, e.g. `3 hits for "jwt refresh"` or the error message. */
      summary: string;
      /** Pages the tool found or opened (relative to the project folder). */
      pages?: string[];
      /** Set when the tool was a search: how many hits it found. */
      hits?: number;
    }
  | { type: 'text_delta'; turnId: string; text: string }
  | { type: 'notice'; turnId: string; level: 'info' | 'warn'; text: string }
  | { type: 'turn_end'; turnId: string; reason: TurnEndReason; text: string; error?: string; failure?: TurnFailure };

/**
 * Why a turn failed, by property, for a front door to say in its own words: a model error's kind
 * (with the model server's own message when it sent one), memory that could not be read or
 * written, or anything else inside Charlie.
 */
export interface TurnFailure {
  kind: ModelErrorKind | 'memory' | 'internal';
  modelMessage?: string;
}

export type TurnEventListener = (event: TurnEvent) => void;

/** Ends, visibly, a reply that reached its length limit (in the core or in a front door). */
export const REPLY_CUT = '(reply cut: too long)';
