/**
 * A scripted OpenAI-compatible model server for tests (node:http only, 127.0.0.1, port 0).
 *
 * POST /v1/chat/completions answers with the next scripted reply: streamed as SSE chunks in
 * the real OpenAI chunk format when the request has `stream: true`, else as one JSON
 * completion. GET /v1/models lists one model (or `options.models`, with fields such as
 * `context_length`). Every chat request body is kept in `requests`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ScriptedReply {
  /** Assistant text, streamed in a few chunks. */
  text?: string;
  /** Tool calls; `arguments` is raw text (may be invalid JSON). */
  toolCalls?: { name: string; arguments: string; id?: string }[];
  /** Write the tool calls inside the text instead, as `<tool_call>{"name":..,"arguments":{..}}</tool_call>`. */
  toolCallsInText?: boolean;
  /** Reply with this HTTP error status and a JSON error body. */
  status?: number;
  /** Accept the request and never answer. */
  hang?: boolean;
  /** Send the headers and the first chunk, then never answer again. */
  hangAfterFirstChunk?: boolean;
  /** Send this many chunks, then drop the connection (a model server that crashed mid-reply). */
  dieAfterChunks?: number;
  /** Default: `tool_calls` when there are tool calls, else `stop`. null = omit finish_reason entirely. */
  finishReason?: string | null;
  /** Delay between streamed chunks. */
  chunkDelayMs?: number;
  // ── extensions beyond the shared brief (all optional) ──
  /** Extra response headers, e.g. `{ 'retry-after': '1' }` with status 429. */
  headers?: Record<string, string>;
  /** Error body text for `status` replies (default: an OpenAI-style JSON error). */
  errorBody?: string;
  /** Answer with a plain JSON completion even when the request asked for a stream. */
  ignoreStream?: boolean;
  /** Do not send `data: [DONE]` at the end of the stream. */
  omitDone?: boolean;
  /** Send SSE comment lines (`: keepalive`) between chunks. */
  keepalive?: boolean;
  /** Delay before the response headers are sent. */
  delayMs?: number;
  // ── hostile servers ──
  /** Answer 200 with this raw body and content type (e.g. an HTML page). */
  raw?: { contentType: string; body: string };
  /**
   * Stream without end until the client goes away: `text` deltas, structured `tool_call`
   * argument deltas, or one `<tool_call>` written in the text that never closes
   * (`chunkDelayMs` between chunks: a model that trickles).
   */
  endless?: 'text' | 'tool_call' | 'text_tool_call';
}

export type Script = ScriptedReply[] | ((request: any, index: number) => ScriptedReply);

/** The part of a chat request body a script reads. */
export interface ChatBody {
  messages: { role: string; content: unknown }[];
}

/** The text of the last user message in a request (non-text content as JSON). */
export function lastUserText(body: ChatBody): string {
  const users = body.messages.filter((m) => m.role === 'user');
  const c = users[users.length - 1]?.content;
  return typeof c === 'string' ? c : JSON.stringify(c ?? '');
}

export interface FakeModelServerOptions {
  /** What GET /v1/models lists; default one model, `fake-model`. */
  models?: ({ id: string } & Record<string, unknown>)[];
  /** Answer 404 "model not found" to chat requests for a model that is not in `models`, as LM Studio and Ollama do. */
  rejectUnknownModels?: boolean;
  /** Other GET routes answered with this JSON, e.g. LM Studio's `/api/v0/models/<id>` or llama.cpp's `/props`. */
  getRoutes?: Record<string, unknown>;
}

export interface FakeModelServer {
  /** Base URL ending in /v1. */
  url: string;
  /** Parsed bodies of chat requests, in order. */
  requests: any[];
  /** Request headers of chat requests, in the same order as `requests`. */
  requestHeaders: IncomingHttpHeaders[];
  /** Endless streams: bytes written to each before the client went away (in order of ending). */
  endlessBytes: number[];
  /** Texts sent to POST /v1/embeddings, in order. */
  embedInputs: string[];
  close(): Promise<void>;
}

const MODEL = 'fake-model';
const EXHAUSTED: ScriptedReply = { text: '(script exhausted)' };

export async function startFakeModelServer(script: Script, options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const models = options.models ?? [{ id: MODEL }];
  const requests: any[] = [];
  const requestHeaders: IncomingHttpHeaders[] = [];
  const endlessBytes: number[] = [];
  const embedInputs: string[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const pick = (body: any, index: number): ScriptedReply => (typeof script === 'function' ? script(body, index) : (script[index] ?? EXHAUSTED));

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, { object: 'list', data: models.map((m) => ({ object: 'model', created: 0, owned_by: 'fake', ...m })) });
      return;
    }
    const extra = req.method === 'GET' && path !== undefined ? options.getRoutes?.[path] : undefined;
    if (extra !== undefined) {
      sendJson(res, 200, extra);
      return;
    }
    if (req.method === 'POST' && path === '/v1/embeddings') {
      // an embeddings server: a small deterministic vector per text, every input recorded
      const body = JSON.parse(await readBody(req)) as { input?: string | string[] };
      const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
      embedInputs.push(...inputs);
      const vector = (t: string) => Array.from({ length: 8 }, (_, i) => 1 + ((t.charCodeAt(i % Math.max(1, t.length)) || 0) % 7));
      sendJson(res, 200, { object: 'list', data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: vector(t) })) });
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
      return;
    }
    const raw = await readBody(req);
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      sendJson(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
      return;
    }
    if (options.rejectUnknownModels && !models.some((m) => m.id === body.model)) {
      sendJson(res, 404, { error: { message: `model '${String(body.model)}' not found`, type: 'invalid_request_error', code: 'model_not_found' } });
      return;
    }
    const index = requests.length;
    requests.push(body);
    requestHeaders.push(req.headers);
    const reply = pick(body, index);

    if (reply.hang) return; // never answer; close() destroys the socket
    if (reply.delayMs) await sleep(reply.delayMs);
    if (closed || res.destroyed) return;
    if (reply.status !== undefined && reply.status >= 400) {
      const text = reply.errorBody ?? JSON.stringify({ error: { message: `scripted error ${reply.status}`, type: reply.status === 429 ? 'rate_limit_exceeded' : 'server_error', code: reply.status } });
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
      return;
    }
    if (reply.raw) {
      res.writeHead(200, { 'content-type': reply.raw.contentType, ...reply.headers });
      res.end(reply.raw.body);
      return;
    }
    if (reply.endless) return streamEndless(res, reply.endless, reply.chunkDelayMs ?? 0);
    if (body.stream === true && !reply.ignoreStream) return streamReply(res, reply);
    sendJson(res, 200, completion(reply), reply.headers);
  }

  async function streamReply(res: ServerResponse, reply: ScriptedReply): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...reply.headers });
    const chunks = streamChunks(reply);
    for (let i = 0; i < chunks.length; i++) {
      if (closed || res.destroyed) return;
      if (i > 0 && reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
      // the server may have closed (or the client gone) while we slept
      if (closed || res.destroyed) return;
      if (reply.keepalive) res.write(': keepalive\n\n');
      res.write(`data: ${JSON.stringify(chunks[i])}\n\n`);
      if (i === 0 && reply.hangAfterFirstChunk) return;
      if (reply.dieAfterChunks !== undefined && i + 1 >= reply.dieAfterChunks) {
        res.socket?.destroy();
        return;
      }
      if (!reply.chunkDelayMs) await new Promise((r) => setImmediate(r)); // separate TCP writes
    }
    if (closed || res.destroyed) return;
    if (!reply.omitDone) res.write('data: [DONE]\n\n');
    res.end();
  }

  /** Writes chunks until the client disconnects or the server closes, respecting backpressure. */
  async function streamEndless(res: ServerResponse, kind: NonNullable<ScriptedReply['endless']>, delayMs: number): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: MODEL, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
    const first =
      kind === 'tool_call'
        ? chunk({ tool_calls: [{ index: 0, id: 'call_endless', type: 'function', function: { name: 'current_time', arguments: '{"zone": "' } }] })
        : chunk({ role: 'assistant', content: kind === 'text_tool_call' ? '<tool_call>{"name": "current_time", "arguments": {"zone": "' : '' });
    let bytes = first.length;
    res.once('close', () => endlessBytes.push(bytes));
    res.write(first);
    const next =
      kind === 'tool_call' ? chunk({ tool_calls: [{ index: 0, function: { arguments: 'aaaaaaaaaaaaaaaa' } }] }) : chunk({ content: kind === 'text' ? 'and on and on ' : 'zzzzzzzzzzzzzzzz' });
    for (let i = 0; ; i++) {
      if (closed || res.destroyed || res.writableEnded) return;
      const ok = res.write(next);
      bytes += next.length;
      if (!ok)
        await new Promise<void>((r) => {
          res.once('drain', r);
          res.once('close', r);
        });
      else if (delayMs) await sleep(delayMs);
      else if (i % 64 === 0) await new Promise((r) => setImmediate(r));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fake model server has no port');

  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    requestHeaders,
    endlessBytes,
    embedInputs,
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ───────────────────────────── reply shapes ─────────────────────────────

function visibleText(reply: ScriptedReply): string {
  let text = reply.text ?? '';
  if (reply.toolCallsInText && reply.toolCalls?.length) {
    for (const call of reply.toolCalls) {
      let args: unknown = call.arguments;
      try {
        args = JSON.parse(call.arguments);
      } catch {
        // keep the raw string
      }
      text += `${text ? '\n' : ''}<tool_call>\n${JSON.stringify({ name: call.name, arguments: args })}\n</tool_call>`;
    }
  }
  return text;
}

function structuredCalls(reply: ScriptedReply) {
  if (reply.toolCallsInText || !reply.toolCalls?.length) return [];
  return reply.toolCalls.map((c, i) => ({ ...c, id: c.id ?? `call_fake_${i}` }));
}

function finishReasonOf(reply: ScriptedReply): string | null {
  if (reply.finishReason !== undefined) return reply.finishReason;
  return structuredCalls(reply).length ? 'tool_calls' : 'stop';
}

function completion(reply: ScriptedReply) {
  const calls = structuredCalls(reply);
  const text = visibleText(reply);
  const message: Record<string, unknown> = { role: 'assistant', content: text || (calls.length ? null : '') };
  if (calls.length) {
    message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  const choice: Record<string, unknown> = { index: 0, message };
  const finish = finishReasonOf(reply);
  if (finish !== null) choice.finish_reason = finish;
  return { id: 'chatcmpl-fake', object: 'chat.completion', created: 0, model: MODEL, choices: [choice], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
}

/** Split into up to `parts` non-empty pieces. */
function split(text: string, parts: number): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function streamChunks(reply: ScriptedReply): object[] {
  const chunk = (delta: object, finish?: string) => {
    const choice: Record<string, unknown> = { index: 0, delta };
    if (finish !== undefined || reply.finishReason !== null) choice.finish_reason = finish ?? null;
    return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: MODEL, choices: [choice] };
  };
  const out: object[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(visibleText(reply), 4)) out.push(chunk({ content: piece }));
  structuredCalls(reply).forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of split(call.arguments, 3)) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  const finish = finishReasonOf(reply);
  if (finish !== null) out.push(chunk({}, finish));
  return out;
}

// ───────────────────────────── http helpers ─────────────────────────────

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
