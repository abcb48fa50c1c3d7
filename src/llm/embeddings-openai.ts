/**
 * Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint (LM Studio, Ollama,
 * llama.cpp server, vLLM). The dimension is learnt from a first probe request.
 */
import { ModelHttpError, ModelTimeoutError, ModelUnavailableError } from '../core/errors.js';
import type { Embedder, Locality } from '../core/ports/index.js';
import { embedderId, normalize } from '../memory/index/embedder.js';

export interface OpenAIEmbedderOptions {
  baseUrl: string;
  /** From the address (as for the model lanes), unless EMBEDDING_LOCALITY says. */
  locality: Locality;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Texts per request. */
  batchSize?: number;
  fetch?: typeof fetch;
}

interface EmbeddingsResponse {
  data?: { embedding?: number[]; index?: number }[];
}

export class OpenAIEmbedder implements Embedder {
  readonly semantic = true;
  readonly id: string;
  readonly locality: Locality;

  private constructor(
    private readonly options: OpenAIEmbedderOptions,
    readonly dimensions: number,
  ) {
    this.id = embedderId(`${options.model}@openai`, dimensions);
    this.locality = options.locality;
  }

  /** Connects and learns the dimension; throws a typed error when the server is not usable. */
  static async connect(options: OpenAIEmbedderOptions): Promise<OpenAIEmbedder> {
    const [probe] = await request(options, ['dimension probe']);
    if (!probe || probe.length === 0) throw new ModelHttpError(200, endpoint(options), 'the server returned no embedding');
    return new OpenAIEmbedder(options, probe.length);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const size = this.options.batchSize ?? 64;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += size) {
      const vectors = await request(this.options, texts.slice(i, i + size));
      for (const v of vectors) {
        if (v.length !== this.dimensions) {
          throw new ModelHttpError(200, endpoint(this.options), `embedding of ${v.length} dimensions, expected ${this.dimensions}; did the model change? run npm run reindex`);
        }
        out.push(v);
      }
    }
    return out;
  }
}

function endpoint(options: OpenAIEmbedderOptions): string {
  return `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
}

async function request(options: OpenAIEmbedderOptions, input: string[]): Promise<Float32Array[]> {
  const url = endpoint(options);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify({ model: options.model, input }),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw new ModelTimeoutError(url, timeoutMs, { cause: err });
    throw new ModelUnavailableError(options.baseUrl, { cause: err, detail: 'embeddings' });
  }
  const body = await res.text();
  if (!res.ok) throw new ModelHttpError(res.status, url, body);
  let parsed: EmbeddingsResponse;
  try {
    parsed = JSON.parse(body) as EmbeddingsResponse;
  } catch (err) {
    throw new ModelHttpError(res.status, url, `not JSON: ${body.slice(0, 200)}`, { cause: err });
  }
  const data = [...(parsed.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  if (data.length !== input.length || data.some((d) => !Array.isArray(d.embedding))) {
    throw new ModelHttpError(res.status, url, `expected ${input.length} embeddings, got ${data.length}`);
  }
  return data.map((d) => normalize(Float32Array.from(d.embedding!)));
}
