/**
 * The bounded tool loop. The model sees the tools of the offered categories plus
 * `request_tools` to load others; it may call tools over several steps. Max steps, max tool
 * calls, a deadline and a reply length bound the loop; unknown tools, bad arguments and tool
 * failures become tool results the model reads, never crashes. The one turn signal (caller's
 * cancellation + deadline) reaches the model and every tool.
 */
import { z } from 'zod';
import { REPLY_CUT, type TurnEndReason, type TurnEvent } from './events.js';
import type { GuardedModel } from '../privacy/egress.js';
import type { ChatMessage, ToolCall, ToolSpec } from '../ports/index.js';
import { withoutHostPaths } from '../privacy/public-text.js';
import { parseToolArguments } from './tool-args.js';
import { TOOL_CATEGORIES, toolSpec, type SourceCategory, type Tool, type ToolCategory, type ToolContext } from '../tools/tool.js';
import type { TurnToolSource } from './tool-source.js';
import { guardToolCall } from './tool-guard.js';
import { errorMessage } from '../../util/error-text.js';
import { labelExternalResult } from './external-result.js';

type AnyCategory = ToolCategory | SourceCategory;

export interface LoopLimits {
  maxSteps: number;
  maxToolCalls: number;
  deadlineMs: number;
  /** The reply is cut here: the model is stopped and the text ends with REPLY_CUT. */
  maxReplyChars: number;
}

export { REPLY_CUT };

export interface LoopInput {
  /** Only the egress guard makes one: every request below is scrubbed for a hosted model. */
  model: GuardedModel;
  messages: ChatMessage[];
  tools: Tool[];
  categories: AnyCategory[];
  /** Categories from tool sources (MCP servers): their tools load when the model requests them. */
  source?: TurnToolSource;
  ctx: ToolContext;
  limits: LoopLimits;
  turnId: string;
  emit: (event: TurnEvent) => void;
  temperature?: number;
  /** The caller's cancellation (a person said stop, the front door shut down). */
  signal?: AbortSignal;
  /** Already-elapsed turn deadline, when the caller owns it; otherwise `limits.deadlineMs` from now. */
  deadline?: AbortSignal;
}

export interface LoopResult {
  text: string;
  reason: TurnEndReason;
  pages: string[];
  /** Block ids of the records the tools showed the model, in the order they came. */
  records: string[];
  toolCalls: number;
  steps: number;
}

const REQUEST_TOOLS = 'request_tools';

function requestToolsSpec(missing: AnyCategory[], describe: (c: AnyCategory) => string): ToolSpec {
  return {
    name: REQUEST_TOOLS,
    description: `Load more tools for the next step. Available categories: ${missing.map((c) => `${c} (${describe(c)})`).join('; ')}.`,
    parameters: {
      type: 'object',
      properties: { categories: { type: 'array', items: { type: 'string', enum: missing } } },
      required: ['categories'],
    },
  };
}

const requestToolsArgs = z.object({ categories: z.array(z.string()).min(1) });

/** What a person is told when the model stopped at its own length limit. */
export const MODEL_CUT = 'the model stopped at its own length limit, so this answer may be incomplete: ask it to go on, or for a shorter answer';

interface StepResult {
  text: string;
  calls: ToolCall[];
  /** The reply reached its length limit during this step; the stream was abandoned. */
  cut: boolean;
  /** The model itself stopped at its own length limit (finish reason `length`): the reply may be incomplete. */
  modelCut: boolean;
}

/** One model call. Stops reading at `room` characters of text and keeps at most `maxCalls` calls. */
async function runStep(input: LoopInput, messages: ChatMessage[], specs: ToolSpec[] | undefined, signal: AbortSignal, room: number): Promise<StepResult> {
  let text = '';
  const calls: ToolCall[] = [];
  let dropped = 0;
  let modelCut = false;
  for await (const chunk of input.model.stream({ messages, tools: specs, temperature: input.temperature, signal })) {
    if (chunk.type === 'text') {
      const piece = chunk.text.slice(0, Math.max(0, room - text.length));
      text += piece;
      if (piece) input.emit({ type: 'text_delta', turnId: input.turnId, text: piece });
      if (piece.length < chunk.text.length) return { text, calls: [], cut: true, modelCut: false }; // leaving the loop closes the stream
    } else if (chunk.type === 'tool_call') {
      if (calls.length < input.limits.maxToolCalls) calls.push(chunk.call);
      else dropped++;
    } else modelCut = chunk.finishReason === 'length';
  }
  if (dropped) input.ctx.logger.warn({ dropped, kept: calls.length }, 'the model asked for more tool calls in one step than a turn allows; the rest were ignored');
  return { text, calls, cut: false, modelCut };
}

export async function runToolLoop(input: LoopInput): Promise<LoopResult> {
  const { limits, emit, turnId } = input;
  const deadline = input.deadline ?? AbortSignal.timeout(limits.deadlineMs);
  const signal = input.signal ? AbortSignal.any([input.signal, deadline]) : deadline;
  const loopInput: LoopInput = { ...input, ctx: { ...input.ctx, signal } };
  const room = () => limits.maxReplyChars - texts.reduce((n, t) => n + t.length + 2, 0);
  const messages = [...input.messages];
  const offered = new Set<AnyCategory>(input.categories);
  const groups = new Map((input.source?.groups ?? []).map((g) => [g.category, g]));
  const allCategories = [...new Set<AnyCategory>([...input.tools.map((t) => t.category), ...groups.keys()])];
  const describe = (c: AnyCategory) => groups.get(c as SourceCategory)?.description ?? TOOL_CATEGORIES[c as ToolCategory];
  const tools = [...input.tools];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const loader: Loader = { source: input.source, groups, tools, byName, loaded: new Set() };
  const maxDefinitions = input.source?.maxDefinitions ?? Infinity;
  const pages: string[] = [];
  const records: string[] = [];
  const texts: string[] = [];
  const findings: string[] = [];
  let toolCalls = 0;
  let steps = 0;

  const finish = (reason: TurnEndReason, text: string): LoopResult => ({ text, reason, pages: [...new Set(pages)], records: [...new Set(records)], toolCalls, steps });
  const cutShort = (text: string): LoopResult => {
    emit({ type: 'text_delta', turnId, text: `\n\n${REPLY_CUT}` });
    emit({ type: 'notice', turnId, level: 'warn', text: `the reply was cut at ${limits.maxReplyChars} characters (REPLY_MAX_CHARS)` });
    return finish('done', `${text}\n\n${REPLY_CUT}`);
  };

  try {
    // Source categories the pre-suggestion pass offered load now; one that cannot is left for the model to request (and read why).
    const early = await loadCategories(
      input.categories.filter((c): c is SourceCategory => groups.has(c as SourceCategory)),
      loader,
      signal,
    );
    for (const problem of early.failed) {
      offered.delete(problem.slice(0, problem.indexOf(': ')) as SourceCategory);
      input.ctx.logger.warn({ problem }, 'a tool server could not be loaded for this turn');
    }
    while (true) {
      signal.throwIfAborted(); // a tool may have returned after the deadline passed
      const budgetLeft = steps < limits.maxSteps && toolCalls < limits.maxToolCalls;
      if (!budgetLeft) break;
      const missing = allCategories.filter((c) => !offered.has(c));
      const specs = tools.filter((t) => offered.has(t.category)).map(toolSpec);
      // Tool definitions cost tokens: built-in tools first, then source tools in the order they loaded.
      if (specs.length > maxDefinitions) specs.length = maxDefinitions;
      if (missing.length > 0) specs.push(requestToolsSpec(missing, describe));
      steps++;
      const step = await runStep(loopInput, messages, specs.length ? specs : undefined, signal, room());
      if (step.text.trim()) texts.push(step.text.trim());
      if (step.cut) return cutShort(texts.join('\n\n'));
      // the model ran out of its own room: say so in plain words (the text it wrote stays)
      if (step.modelCut && step.calls.length === 0) emit({ type: 'notice', turnId, level: 'warn', text: MODEL_CUT });
      if (step.calls.length === 0) return finish('done', texts.join('\n\n'));

      messages.push({ role: 'assistant', content: step.text || null, toolCalls: step.calls });
      for (const call of step.calls) {
        const result = await executeCall(call, loopInput, loader, offered, toolCalls >= limits.maxToolCalls);
        if (result.counted) toolCalls++;
        if (result.pages) pages.push(...result.pages);
        if (result.records) records.push(...result.records);
        if (result.ok && call.name !== REQUEST_TOOLS) findings.push(`${call.name}: ${result.summary}`);
        messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.content });
      }
    }
    signal.throwIfAborted();
    // Out of budget: one last call without tools, so the user still gets a useful answer.
    const reason: TurnEndReason = toolCalls >= limits.maxToolCalls ? 'max_tool_calls' : 'max_steps';
    messages.push({
      role: 'system',
      content: 'The tool budget for this message is used up. Answer the user now from what the tools returned above; do not call tools.',
    });
    const last = await runStep(loopInput, messages, undefined, signal, room());
    const finalText = last.text.trim() || fallbackText(findings);
    texts.push(finalText);
    if (last.cut) return cutShort(texts.join('\n\n'));
    if (last.modelCut) emit({ type: 'notice', turnId, level: 'warn', text: MODEL_CUT });
    return finish(reason, texts.join('\n\n'));
  } catch (error) {
    if (signal.aborted) {
      const reason: TurnEndReason = input.signal?.aborted ? 'cancelled' : 'deadline';
      const partial = texts.join('\n\n');
      const text = reason === 'cancelled' ? partial : `${partial ? `${partial}\n\n` : ''}(I ran out of time for this answer.${findings.length ? ` What I found: ${findings.join('; ')}` : ''})`;
      emit({ type: 'notice', turnId, level: 'warn', text: reason === 'deadline' ? 'turn deadline reached' : 'cancelled' });
      return finish(reason, text);
    }
    throw error;
  }
}

function fallbackText(findings: string[]): string {
  return findings.length ? `I looked this up but could not put an answer together. What I found: ${findings.join('; ')}.` : 'I could not finish this answer.';
}

interface CallOutcome {
  ok: boolean;
  content: string;
  summary: string;
  pages?: string[];
  hits?: number;
  records?: string[];
  counted: boolean;
}

/** The turn's tools, growing as the model requests source categories. */
interface Loader {
  source: TurnToolSource | undefined;
  groups: Map<SourceCategory, unknown>;
  tools: Tool[];
  byName: Map<string, Tool>;
  loaded: Set<SourceCategory>;
}

/** Loads requested source categories; a server that cannot start is a line for the model, never a crash. */
async function loadCategories(wanted: SourceCategory[], loader: Loader, signal: AbortSignal | undefined): Promise<{ loaded: SourceCategory[]; failed: string[] }> {
  const loaded: SourceCategory[] = [];
  const failed: string[] = [];
  for (const category of wanted) {
    if (loader.loaded.has(category)) {
      loaded.push(category);
      continue;
    }
    try {
      const list = (await loader.source?.load(category, signal)) ?? [];
      for (const tool of list) {
        if (loader.byName.has(tool.name)) continue;
        loader.byName.set(tool.name, tool);
        loader.tools.push(tool);
      }
      loader.loaded.add(category);
      loaded.push(category);
    } catch (error) {
      failed.push(`${category}: ${errorMessage(error)}`);
    }
  }
  return { loaded, failed };
}

async function requestTools(value: unknown, loader: Loader, offered: Set<AnyCategory>, signal: AbortSignal | undefined): Promise<CallOutcome> {
  const args = requestToolsArgs.safeParse(value);
  const asked = args.success ? args.data.categories : [];
  const known = asked.filter((c): c is ToolCategory => c in TOOL_CATEGORIES);
  const external = asked.filter((c): c is SourceCategory => loader.groups.has(c as SourceCategory));
  known.forEach((c) => offered.add(c));
  const { loaded, failed } = await loadCategories(external, loader, signal);
  loaded.forEach((c) => offered.add(c));
  const names = [...known, ...loaded];
  const problems = failed.length ? ` Not available now: ${failed.join('; ')}.` : '';
  if (names.length)
    return {
      ok: true,
      content: `loaded: ${names.join(', ')}. Their tools are available now.${problems}`,
      summary: `loaded ${names.join(', ')}${failed.length ? ` (${failed.length} unavailable)` : ''}`,
      counted: false,
    };
  if (failed.length) return { ok: false, content: `error:${problems} Answer without these tools.`, summary: `unavailable: ${failed.join('; ').slice(0, 120)}`, counted: true };
  const all = [...Object.keys(TOOL_CATEGORIES), ...loader.groups.keys()];
  return { ok: false, content: `error: categories must be some of ${all.join(', ')}`, summary: 'bad categories', counted: true };
}

async function executeCall(call: ToolCall, input: LoopInput, loader: Loader, offered: Set<AnyCategory>, overBudget: boolean): Promise<CallOutcome> {
  const { emit, turnId } = input;
  const byName = loader.byName;
  const parsed = parseToolArguments(call.arguments);
  const origin = byName.get(call.name)?.origin;
  emit({ type: 'tool_call', turnId, callId: call.id, name: call.name, args: parsed.ok ? parsed.value : call.arguments, ...(origin ? { source: { server: origin.server, tool: origin.tool } } : {}) });
  const outcome = await (async (): Promise<CallOutcome> => {
    if (overBudget) return { ok: false, content: 'not run: the tool-call limit for this message is reached; answer now', summary: 'skipped (limit)', counted: false };
    if (!parsed.ok) return { ok: false, content: `error: ${parsed.error}. Call ${call.name} again with a valid JSON object.`, summary: 'bad arguments', counted: true };
    if (call.name === REQUEST_TOOLS) return requestTools(parsed.value, loader, offered, input.ctx.signal);
    const tool = byName.get(call.name);
    if (!tool) {
      return { ok: false, content: `error: there is no tool named "${call.name}". Available: ${[...byName.keys()].join(', ')}.`, summary: `unknown tool ${call.name}`, counted: true };
    }
    offered.add(tool.category);
    const args = tool.params.safeParse(parsed.value);
    if (!args.success) {
      const detail = args.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
      return { ok: false, content: `error: invalid arguments for ${call.name}: ${detail}`, summary: 'bad arguments', counted: true };
    }
    try {
      const guarded = await guardToolCall(tool, args.data, input.ctx);
      if (!guarded.ok) return { ok: false, content: guarded.content, summary: guarded.summary, counted: true };
      // from now on this turn has read untrusted data: what it asks to remember goes through the gate
      if (tool.origin) input.ctx.writes = input.ctx.candidateWrites ?? { saveNote: async () => ({ kind: 'refused', reason: 'not saved: this answer used an external tool' }) };
      // an external tool's result (MCP or SSH: it has an origin) is labelled when it arrives: a sensitive one taints the turn and is not given to a hosted model
      const out = await labelExternalResult(tool, await tool.execute(guarded.args, input.ctx), input.ctx);
      if (out.notice) emit({ type: 'notice', turnId, level: 'info', text: out.notice });
      return { ok: true, content: out.content, summary: out.summary, pages: out.pages, hits: out.hits, records: out.records, counted: true };
    } catch (error) {
      const home = input.ctx.home;
      const message = withoutHostPaths(errorMessage(error), home.private ? undefined : home.key);
      input.ctx.logger.warn({ tool: call.name, err: error }, 'tool failed');
      return { ok: false, content: `error: ${call.name} failed: ${message}`, summary: `failed: ${message.slice(0, 120)}`, counted: true };
    }
  })();
  emit({ type: 'tool_result', turnId, callId: call.id, name: call.name, ok: outcome.ok, summary: outcome.summary, pages: outcome.pages, hits: outcome.hits });
  return outcome;
}
