import { loadTransformers } from '../../src/llm/transformers-runtime.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/ports/index.js';
import { ModelHttpError, ModelUnavailableError } from '../../src/core/errors.js';
import { OpenAIEmbedder } from '../../src/llm/embeddings-openai.js';
import { selectEmbedder, type EmbedderConfig } from '../../src/llm/embeddings.js';

/** A fake `/v1/embeddings`: 3-dimensional vectors derived from the text length. */
let server: Server;
let baseUrl: string;
const requests: { auth?: string; body: { model: string; input: string[] } }[] = [];
const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await read(req)) as { model: string; input: string[] };
    requests.push({ auth: req.headers.authorization, body });
    if (req.url !== '/v1/embeddings') return void res.writeHead(404).end('not found');
    if (body.model === 'broken') return void res.writeHead(500).end('model crashed');
    // answer in reverse order to check that `index` is honoured
    const data = body.input.map((t, index) => ({ index, embedding: [t.length, 1, 0] })).reverse();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const recorder = () => {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (o, m) => void warnings.push(typeof o === 'string' ? o : (m ?? '')), error() {}, child: () => logger };
  return { logger, warnings };
};

describe('OpenAI-compatible embedder', () => {
  it('learns the dimension, keeps input order, normalises, sends the key', async () => {
    const e = await OpenAIEmbedder.connect({ baseUrl, model: 'nomic-embed', apiKey: 'sk-test', locality: 'local' });
    expect(e.id).toBe('nomic-embed@openai:3');
    expect(e.dimensions).toBe(3);
    const [a, b] = await e.embed(['abc', 'a']);
    expect(a![0]! / a![1]!).toBeCloseTo(3, 5);
    expect(b![0]! / b![1]!).toBeCloseTo(1, 5);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(requests.at(-1)).toMatchObject({ auth: 'Bearer sk-test', body: { model: 'nomic-embed', input: ['abc', 'a'] } });
  });

  it('reports a server error and a missing server as typed errors', async () => {
    await expect(OpenAIEmbedder.connect({ baseUrl, model: 'broken', locality: 'local' })).rejects.toBeInstanceOf(ModelHttpError);
    await expect(OpenAIEmbedder.connect({ baseUrl: 'http://127.0.0.1:9/v1', model: 'x', timeoutMs: 2000, locality: 'local' })).rejects.toBeInstanceOf(ModelUnavailableError);
  });
});

describe('choosing the embedder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charlie-embedders-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const base: EmbedderConfig = {
    EMBEDDER: 'auto',
    EMBEDDING_MODEL: 'Xenova/all-MiniLM-L6-v2',
    EMBEDDING_LOCALITY: 'auto',
    EMBEDDING_MODEL_DIR: undefined,
    EMBEDDING_BASE_URL: undefined,
    EMBEDDING_API_KEY: undefined,
    EMBEDDING_QUERY_PREFIX: undefined,
    dataDir,
  };

  it('uses the built-in embedder when asked', async () => {
    const { embedder, notice } = await selectEmbedder({ ...base, EMBEDDER: 'builtin' }, recorder().logger);
    expect(embedder.id).toBe('builtin-hash-v2:384');
    expect(notice).toBeNull();
  });

  it('says why a local model could not be loaded and which fallback it uses', async () => {
    const emptyModels = mkdtempSync(join(tmpdir(), 'charlie-no-model-'));
    try {
      const { logger, warnings } = recorder();
      const { embedder, notice } = await selectEmbedder({ ...base, EMBEDDER: 'transformers', EMBEDDING_MODEL_DIR: emptyModels }, logger);
      expect(embedder.id).toBe('builtin-hash-v2:384');
      expect(notice).toContain('Xenova/all-MiniLM-L6-v2 could not be loaded');
      expect(notice).toContain(emptyModels);
      expect(notice).toContain('built-in lexical embedder');
      expect(warnings).toEqual([notice]);
    } finally {
      rmSync(emptyModels, { recursive: true, force: true });
    }
  });

  it('an embedding model folder does not switch off downloads for other models (Whisper)', async () => {
    const { env } = await loadTransformers();
    const before = { allowRemoteModels: env.allowRemoteModels, localModelPath: env.localModelPath, cacheDir: env.cacheDir };
    const emptyModels = mkdtempSync(join(tmpdir(), 'charlie-no-model-'));
    try {
      await selectEmbedder({ ...base, EMBEDDER: 'transformers', EMBEDDING_MODEL_DIR: emptyModels }, recorder().logger);
      expect({ allowRemoteModels: env.allowRemoteModels, localModelPath: env.localModelPath, cacheDir: env.cacheDir }).toEqual(before);
      expect(env.allowRemoteModels).toBe(true);
    } finally {
      rmSync(emptyModels, { recursive: true, force: true });
    }
  });

  it('uses the embeddings server when configured, and falls back when it is down', async () => {
    const up = await selectEmbedder({ ...base, EMBEDDER: 'openai', EMBEDDING_BASE_URL: baseUrl, EMBEDDING_MODEL: 'nomic-embed' }, recorder().logger);
    expect(up.embedder.id).toBe('nomic-embed@openai:3');
    const down = await selectEmbedder({ ...base, EMBEDDER: 'openai', EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1' }, recorder().logger);
    expect(down.embedder.id).toBe('builtin-hash-v2:384');
    expect(down.notice).toMatch(/no model server at http:\/\/127\.0\.0\.1:9\/v1/);
  });
});
