/**
 * The conformance run: does *this* model do what Charlie needs? Streaming, a tool-call round
 * trip, structured JSON, a long prompt, and an image when images are enabled. Tool calls, JSON
 * and the long prompt go through Charlie's own chat client (so its tolerance of local-model
 * quirks counts); streaming is checked on the wire, since the client hides a server that
 * ignores `stream`.
 */
import { z } from 'zod';
import { parseToolArguments } from '../core/turn/tool-args.js';
import type { ChatMessage, ChatModel, ToolCall } from '../core/ports/index.js';
import { fail, ok, skip, warn, type Check, type Verdict } from './check.js';
import type { ConformanceRecord } from './conformance-store.js';
import { headers, networkReason, request, trimSlash } from './http.js';
import type { Lane } from './lane.js';
import type { LaneState } from './model-server.js';
import { redSquarePng } from './png.js';
import { errorWithCause } from '../util/error-text.js';

/** Roughly what one Charlie turn needs: prompt, tools, history, recalled chunks. */
export const CONTEXT_NEEDED_TOKENS = 8192;
/** The long-prompt probe sends about this many tokens (≈ 4 characters each). */
const PROBE_TOKENS = 6000;

const TOOL_FIX =
  'use a model trained for tool calls (e.g. Qwen2.5 7B Instruct, Llama 3.1 8B Instruct, Mistral Nemo); LM Studio marks them with a tool badge; llama.cpp needs `--jinja`; vLLM needs `--enable-auto-tool-choice --tool-call-parser …`';
const JSON_FIX =
  'use a model that follows JSON instructions (Qwen2.5 7B Instruct or larger works); servers with JSON mode (LM Studio, llama.cpp, Ollama, vLLM) help — distillation and memory writes depend on it';
const CONTEXT_FIX = `load the model with a context of at least ${String(CONTEXT_NEEDED_TOKENS)} tokens (LM Studio: model settings → Context Length; Ollama: OLLAMA_CONTEXT_LENGTH=${String(CONTEXT_NEEDED_TOKENS)} or num_ctx; llama.cpp: -c ${String(CONTEXT_NEEDED_TOKENS)})`;

const EMBEDDED_FIX = 'set EMBEDDED_MODEL to an instruction-tuned model that calls tools and follows JSON (the default, Qwen3 4B Instruct, does), then `npm run models -- pull`';

const fixFor = (lane: Lane, serverFix: string): string => (lane.env === 'EMBEDDED' ? EMBEDDED_FIX : serverFix);

export interface ConformanceDeps {
  lane: Lane;
  state: LaneState;
  /** Charlie's chat client for this lane. */
  model: ChatModel;
  record: ConformanceRecord;
}

/** A probe's opening: a system instruction and one user message. */
function systemAndUser(system: string, user: string): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

async function collect(model: ChatModel, messages: ChatMessage[], signal: AbortSignal, extra: { tools?: Parameters<ChatModel['stream']>[0]['tools']; json?: boolean; maxTokens?: number } = {}) {
  let text = '';
  const calls: ToolCall[] = [];
  for await (const chunk of model.stream({ messages, temperature: 0, signal, ...extra })) {
    if (chunk.type === 'text') text += chunk.text;
    else if (chunk.type === 'tool_call') calls.push(chunk.call);
  }
  return { text, calls };
}

/** A failed request, in words and with a fix: a 404 usually means the model id is wrong. */
function requestFailure(lane: Lane, err: unknown): Verdict {
  const status = typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number' ? err.status : undefined;
  if (status === 404)
    return fail(`the server answered 404 for model "${lane.model}"`, `set ${lane.env}_MODEL to a model id the server has (GET ${lane.shownUrl}/models lists them) and load that model`);
  if (status === 401 || status === 403) return fail(`the server refused the key (${String(status)})`, `set ${lane.env}_API_KEY`);
  if (status === 400 && /context|token/i.test(errorWithCause(err))) return fail(`the server refused the prompt as too long: ${errorWithCause(err).slice(0, 160)}`, CONTEXT_FIX);
  return fail(errorWithCause(err).slice(0, 240), 'see the message; a model that fails here fails in conversations too');
}

function gate(deps: ConformanceDeps): Verdict | null {
  if (!deps.state.reachable) return skip('no server');
  if (!deps.state.modelUsable) return skip(`model "${deps.lane.model}" is not on the server`);
  return null;
}

/**
 * A check that asks the lane's model: skipped while the server or the model is missing, and a
 * request that fails is a verdict with its fix (a 404 model id, a refused key, a too-long prompt).
 */
function modelCheck(deps: ConformanceDeps, what: string, timeoutMs: number, ask: (signal: AbortSignal) => Promise<Verdict>): Check {
  return {
    name: `${deps.lane.name}: ${what}`,
    timeoutMs,
    async run(signal) {
      const blocked = gate(deps);
      if (blocked) return blocked;
      try {
        return await ask(signal);
      } catch (err) {
        return requestFailure(deps.lane, err);
      }
    },
  };
}

export function streamingCheck(deps: ConformanceDeps): Check {
  const { lane, record } = deps;
  return modelCheck(deps, 'streaming', 30_000, async (signal) => {
    const body = { model: lane.model, stream: true, max_tokens: 24, temperature: 0, messages: [{ role: 'user', content: 'Count from 1 to 10, separated by spaces.' }] };
    let answer;
    try {
      answer = await request(`${trimSlash(lane.baseUrl)}/chat/completions`, { method: 'POST', headers: headers(lane.apiKey, true), body: JSON.stringify(body), timeoutMs: 28_000, signal });
    } catch (err) {
      return fail(`no answer: ${networkReason(err)}`, 'is the model loaded? a first request can take long while it loads');
    }
    if (answer.status >= 400) return requestFailure(lane, { status: answer.status, message: answer.text });
    const events = answer.text.split('\n').filter((l) => l.startsWith('data:') && !l.includes('[DONE]')).length;
    if (answer.contentType.includes('text/event-stream') && events >= 2) {
      record.streaming = 'ok';
      return ok(`streams (${String(events)} events)`);
    }
    record.streaming = 'ignored';
    return warn(
      'the server ignores `stream` and sends the whole reply at once: Charlie copes, but replies appear only when complete',
      'update the server, or use one that streams (LM Studio, Ollama, llama.cpp server, vLLM all do)',
    );
  });
}

const SECRET = 'pelican-47';
const lookupTool = {
  name: 'get_secret_word',
  description: "Returns today's secret word. Call it whenever the user asks for the secret word.",
  parameters: { type: 'object', properties: { day: { type: 'string', description: 'which day, e.g. today' } }, required: [] },
};

export function toolCallCheck(deps: ConformanceDeps): Check {
  const { lane, model, record } = deps;
  return modelCheck(deps, 'tool calls', 60_000, async (signal) => {
    const messages = systemAndUser('You are a helpful assistant. Use the tools you are given.', 'What is the secret word today? Use the get_secret_word tool, then tell me the word.');
    const first = await collect(model, messages, signal, { tools: [lookupTool], maxTokens: 200 });
    const call = first.calls.find((c) => c.name === lookupTool.name);
    if (!call) {
      record.tools = 'none';
      return fail(`the model answered without calling the tool ("${first.text.slice(0, 60)}"): it could not search or write Charlie's memory`, fixFor(lane, TOOL_FIX));
    }
    const argsOk = parseToolArguments(call.arguments).ok;
    messages.push({ role: 'assistant', content: null, toolCalls: [call] }, { role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify({ word: SECRET }) });
    const second = await collect(model, messages, signal, { tools: [lookupTool], maxTokens: 200 });
    if (!second.text.toLowerCase().includes('pelican')) {
      record.tools = 'partial';
      return warn('the model called the tool but did not use its result in the answer', fixFor(lane, TOOL_FIX));
    }
    record.tools = 'ok';
    return argsOk ? ok('called the tool and used its result') : warn('round trip works, but the arguments were not valid JSON (Charlie repairs simple cases)', fixFor(lane, TOOL_FIX));
  });
}

const cityReply = z.object({ city: z.string().min(1), colors: z.array(z.string().min(1)).length(3) });

export function jsonCheck(deps: ConformanceDeps): Check {
  const { lane, model, record } = deps;
  return modelCheck(deps, 'JSON output', 45_000, async (signal) => {
    const messages = systemAndUser('Reply with one JSON object and nothing else.', 'Return {"city": string, "colors": [three strings]} for Paris: the city name and three colours of its flag.');
    const { text } = await collect(model, messages, signal, { json: true, maxTokens: 200 });
    const parsed = parseToolArguments(text);
    if (!parsed.ok) {
      record.json = 'broken';
      return fail(`the reply is not valid JSON ("${text.slice(0, 60)}"): distillation would fail`, fixFor(lane, JSON_FIX));
    }
    const fit = cityReply.safeParse(parsed.value);
    if (!fit.success) {
      record.json = 'schema';
      return warn(`valid JSON that does not fit the schema (${fit.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`, fixFor(lane, JSON_FIX));
    }
    record.json = 'ok';
    return ok('valid JSON that fits a small schema');
  });
}

function filler(tokens: number): string {
  const sentence = 'The archive lists ordinary notes about gardens, trains and weather. ';
  return sentence.repeat(Math.ceil((tokens * 4) / sentence.length));
}

export function contextCheck(deps: ConformanceDeps): Check {
  const { model, record, state } = deps;
  return modelCheck(deps, 'context length', 90_000, async (signal) => {
    const declared = state.declaredContext;
    record.contextTokens = declared;
    const said = declared === undefined ? 'the server does not say its context length' : `declared ${String(declared)} tokens`;
    if (declared !== undefined && declared < CONTEXT_NEEDED_TOKENS) return fail(`${said}; Charlie needs about ${String(CONTEXT_NEEDED_TOKENS)}`, CONTEXT_FIX);
    const messages: ChatMessage[] = [
      { role: 'user', content: `Remember this passphrase: ORCHID-93.\n\n${filler(PROBE_TOKENS)}\n\nWhat was the passphrase at the very beginning? Answer with the passphrase only.` },
    ];
    const { text } = await collect(model, messages, signal, { maxTokens: 20 });
    if (!/orchid/i.test(text)) {
      return warn(`${said}; a ~${String(PROBE_TOKENS)}-token prompt lost its beginning — the server seems to cut long prompts`, CONTEXT_FIX);
    }
    record.contextTokens = declared ?? PROBE_TOKENS;
    return ok(`${said}; a ~${String(PROBE_TOKENS)}-token prompt was read to the start`);
  });
}

export function imageCheck(deps: ConformanceDeps): Check {
  const { lane, model, record } = deps;
  return {
    name: `${lane.name}: image input`,
    timeoutMs: 45_000,
    async run(signal) {
      if (!lane.acceptsImages) {
        record.images = 'off';
        return skip(`${lane.env}_ACCEPTS_IMAGES=false: images are not sent to this model`);
      }
      const blocked = gate(deps);
      if (blocked) return blocked;
      const url = `data:image/png;base64,${redSquarePng().toString('base64')}`;
      const messages: ChatMessage[] = [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What colour is this image? Answer with one word.' },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ];
      const fix = `load a vision model (e.g. Qwen2.5-VL, Gemma 3, Llama 3.2 Vision), or set ${lane.env}_ACCEPTS_IMAGES=false`;
      try {
        const { text } = await collect(model, messages, signal, { maxTokens: 10 });
        if (!/red/i.test(text)) {
          record.images = 'no';
          return warn(`the model did not see the image (answered "${text.slice(0, 40)}")`, fix);
        }
        record.images = 'ok';
        return ok('recognised a red test image');
      } catch (err) {
        record.images = 'no';
        const verdict = requestFailure(lane, err);
        return verdict.status === 'fail' && !/404/.test(verdict.detail) ? fail(`image input refused: ${verdict.detail}`, fix) : verdict;
      }
    },
  };
}
