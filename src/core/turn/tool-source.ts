/**
 * The port through which tools from outside (MCP servers) reach the tool loop. A source offers
 * categories cheaply (no server is started to list them) and loads a category's tools only when
 * the model asks for it. A source that fails to load says so in a line; it never fails the turn.
 */
import type { SourceCategory, Tool } from '../tools/tool.js';

/** Who is asking, as the front door knows it: the owner, or another household member. */
export interface ToolUser {
  owner: boolean;
  /** The member's stable id (a Discord user id), when known. */
  id?: string;
}

export interface ToolGroup {
  category: SourceCategory;
  /** One line for `request_tools`: what this category is for. */
  description: string;
  /** The pre-suggestion pass offers the category when the message names one of these (server and tool names)… */
  names: readonly string[];
  /** …or two of these (lower-case words of the tools' descriptions, learnt when the server listed them). */
  words: readonly string[];
}

export interface ToolSource {
  /** The categories this person may use now. Cheap: starts nothing. */
  groups(user: ToolUser): ToolGroup[];
  /** The tools of one category; may start its server. Throws with a one-line message when it cannot. */
  load(category: SourceCategory, signal?: AbortSignal): Promise<Tool[]>;
}

/** What the turn knows about tool sources: the categories it may load, and how. */
export interface TurnToolSource {
  groups: ToolGroup[];
  load: ToolSource['load'];
  /** At most this many tool definitions go into one model request (they cost tokens). */
  maxDefinitions: number;
}
