/** A tool the model may call: zod parameters, a category for pre-suggestion, and execute. */
import { z } from 'zod';
import type { MemoryWrites } from '../write-requests.js';
import type { Home, NoteShelf, ProjectGraph } from '../home.js';
import type { Clock, Logger, ToolSpec } from '../ports.js';
import type { Asker, ReminderDesk } from '../time/reminder-desk.js';
import type { CalendarDesk } from '../time/calendar.js';

export type ToolCategory = 'memory' | 'notes' | 'time';

export const TOOL_CATEGORIES: Record<ToolCategory, string> = {
  memory: 'search and read what this project remembers (summary, decisions, quotes, past conversation)',
  notes: 'list, read and save entity notes (people, places, topics)',
  time: 'the current date and time; set, list and cancel reminders; the calendar (agenda, new events)',
};

/**
 * What tools see of the turn's home: everything to read, nothing to write. Tools write memory
 * only through `ToolContext.writes`, which a hosted chat model turns into candidates.
 */
export type ToolHome = Omit<Home, 'archive' | 'editLayers' | 'setStyle' | 'setRespond' | 'distillTarget' | 'notes' | 'graph'> & {
  readonly notes: Omit<NoteShelf, 'save' | 'remove'> | null;
  /** The graph to walk; writing to it goes through `writes` like any other write. */
  readonly graph: Omit<ProjectGraph, 'write'> | null;
};

export interface ToolContext {
  /** Where the turn runs, resolved once by the assistant: a shared project or a private DM (read-only). */
  home: ToolHome;
  /**
   * The one way a tool writes memory: straight to the Markdown store when the chat model is
   * local; a saved candidate for the memory lane when it is hosted (a hosted model never writes).
   */
  writes: MemoryWrites;
  clock: Clock;
  /** Source link of the message being answered, for provenance of anything saved. */
  source: string;
  logger: Logger;
  signal?: AbortSignal;
  /** Where the model that reads tool results runs: sensitive pages never go to a hosted one. */
  modelLocality: 'local' | 'hosted';
  /** Reminders (and later the calendar) for the person asking, where a scheduler runs. */
  time?: { desk: ReminderDesk; asker: Asker; calendar?: CalendarDesk };
}

export interface ToolOutput {
  /** What the model reads. */
  content: string;
  /** One human line for the front door's trace. */
  summary: string;
  /** Pages found or opened, relative to the project folder (e.g. `notes/People/Ann.md`). */
  pages?: string[];
  /** Set by search tools: how many hits the search found (the trace shows it). */
  hits?: number;
  /** Block ids of the records the model was shown (a reply's "why?" explains them). */
  records?: string[];
  /** A line the front door shows the user whatever the model says (e.g. "noted — filed later"). */
  notice?: string;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  category: ToolCategory;
  description: string;
  params: S;
  /** Tools that only make sense in shared projects (notes live in Markdown). */
  projectOnly?: boolean;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
}

export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

export function toolSpec(tool: Tool): ToolSpec {
  const schema = z.toJSONSchema(tool.params) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, parameters: schema };
}

/** Cuts long tool output so one tool cannot flood the context. */
export function clip(text: string, max = 6000): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters not shown)`;
}
