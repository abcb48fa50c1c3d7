/** A tool the model may call: zod parameters, a category for pre-suggestion, and execute. */
import { z } from 'zod';
import type { MemoryWrites } from '../writing/write-requests.js';
import type { Home } from '../home.js';
import type { NoteShelf, ProjectGraph } from '../home-shelves.js';
import type { Clock, Logger, ToolSpec } from '../ports/index.js';
import type { SensitiveRecord } from '../privacy/egress.js';
import type { SensitivityValue } from '../privacy/sensitivity.js';
import type { Release } from '../privacy/release.js';
import type { Asker, ReminderDesk } from '../time/reminder-desk.js';
import type { CalendarDesk } from '../time/calendar.js';
import type { MachineDesk } from '../machines/desk.js';

export type ToolCategory = 'memory' | 'notes' | 'time' | 'machines';

/** A category a tool source contributes (one per MCP server: `mcp:<server>`), loaded when requested. */
export type SourceCategory = `${string}:${string}`;

export const TOOL_CATEGORIES: Record<ToolCategory, string> = {
  memory: 'search and read what this project remembers (summary, decisions, quotes, past conversation)',
  notes: 'list, read and save entity notes (people, places, topics)',
  time: 'the current date and time; set, list and cancel reminders; the calendar (agenda, new events)',
  machines: "connect to the person's machines over SSH (NAS, Raspberry Pi, VPS): run a command, read a file, list a folder, copy a file",
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
  /**
   * Writes that always file candidates for the memory lane's gate. Once an external (MCP) tool
   * returned in a turn, the loop uses these instead of `writes`: tool results never become
   * memory without the gate.
   */
  candidateWrites?: MemoryWrites;
  clock: Clock;
  /** Source link of the message being answered, for provenance of anything saved. */
  source: string;
  logger: Logger;
  signal?: AbortSignal;
  /** Where the model that reads tool results runs: sensitive pages never go to a hosted one. */
  modelLocality: 'local' | 'hosted';
  /**
   * The label of text that arrived from outside in this turn (an external tool's result) by the
   * privacy precheck, when it applies (the memory lane, or the judge by meaning); never throws:
   * what it could not judge is sensitive. Absent: the rules alone label it.
   */
  judgeArrival?: (text: string, signal?: AbortSignal) => Promise<SensitivityValue>;
  /** A tool showed the model something sensitive (a local model may read it): the turn is tainted. */
  sawSensitive(record: SensitiveRecord): void;
  /** Whether the turn has drawn on sensitive context so far: then no hosted tool server gets arguments. */
  tainted?: () => boolean;
  /**
   * Asks the person before a tool with side effects runs (a button, a y/N), with the exact
   * arguments. Absent: the front door cannot ask, so such a tool does not run.
   */
  confirm?: ToolConfirm;
  /**
   * Ask in the moment: which labelled items a hosted chat model may read in this turn (their
   * person said yes). Absent or nobody to ask: none, and the tools withhold them as always.
   */
  release?: Release;
  /** Withholds what is sensitive in this turn's scope from text bound for a hosted tool server (what its person released to `server` left alone). */
  scrubForHosted?: (text: string, server?: string) => Promise<string>;
  /**
   * Ask in the moment, for a hosted tool server in a turn that drew on sensitive items: whether
   * the person lets what the chat model was given go on to `server` as well. False when nothing
   * was released to the model, or someone says no.
   */
  releaseToTool?: (server: string) => Promise<boolean>;
  /** Reminders and the calendars for the person asking (every turn has them: production always builds both). */
  time: { desk: ReminderDesk; asker: Asker; calendar: CalendarDesk };
  /** The person's machines over SSH, where a desk runs: `owner` is whose vault their handles resolve in. */
  machines?: { desk: MachineDesk; owner: string; ownerName: string; project: string | null };
}

/** What the person is asked before a tool with side effects runs. */
export interface ConfirmRequest {
  /** The server (tool source) and its own name of the tool. */
  server: string;
  tool: string;
  /** Exactly what will be sent. */
  args: unknown;
  /** Why it asks: not annotated read-only, or annotated destructive. */
  reason: string;
}

/** Resolves true when the person allowed the call; false when refused or unanswered. */
export type ToolConfirm = (request: ConfirmRequest, signal?: AbortSignal) => Promise<boolean>;

export interface ToolOutput {
  /** What the model reads. */
  content: string;
  /** Of an external tool: the text that arrived from outside, without the frame `content` puts round it (what the privacy precheck judges). */
  arrived?: string;
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
  category: ToolCategory | SourceCategory;
  description: string;
  params: S;
  /** The JSON Schema the model sees, when the tool brings its own (an MCP tool's `inputSchema`). */
  inputSchema?: Record<string, unknown>;
  /** Set for tools of a tool source (MCP): the trace shows server and tool; the loop applies the rules below. */
  origin?: ToolOrigin;
  /** Tools that only make sense in shared projects (notes live in Markdown). */
  projectOnly?: boolean;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
}

export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** Where an external tool comes from and what the loop must do before running it. */
export interface ToolOrigin {
  server: string;
  /** The server's own name of the tool (the model sees `Tool.name`). */
  tool: string;
  /** A hosted server: string arguments pass the egress guard's scrub first. */
  locality: 'local' | 'hosted';
  /** Not annotated read-only, or annotated destructive (and not in the server's alwaysAllow): ask first. */
  confirm: string | null;
}

/**
 * JSON Schema of each parameter schema, converted once: zod schemas are immutable, and converting
 * every tool's on every step of every turn was about 1 % of a turn's CPU in a bench:scale profile.
 * Keyed weakly by the schema object, so a tool that goes (an MCP server's) takes its entry along.
 */
const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

export function toolSpec(tool: Tool): ToolSpec {
  if (tool.inputSchema) return { name: tool.name, description: tool.description, parameters: tool.inputSchema };
  let schema = jsonSchemas.get(tool.params);
  if (!schema) {
    schema = z.toJSONSchema(tool.params);
    delete schema.$schema;
    jsonSchemas.set(tool.params, schema);
  }
  return { name: tool.name, description: tool.description, parameters: structuredClone(schema) };
}

/** Cuts long tool output so one tool cannot flood the context. */
export function clip(text: string, max = 6000): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters not shown)`;
}
