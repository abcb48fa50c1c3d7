/**
 * Picks the embedder from the configuration: a local transformers.js model, an
 * OpenAI-compatible `/v1/embeddings` server, or the built-in hashing embedder. When the
 * configured one cannot be used, says why and which fallback it uses.
 */
import { join } from 'node:path';
import type { Embedder, Logger } from '../core/ports/index.js';
import { HashingEmbedder } from '../memory/index/hashing-embedder.js';
import { OpenAIEmbedder } from './embeddings-openai.js';
import { publicUrl, urlIsLocal } from './locality.js';
import { TransformersEmbedder } from './embeddings-transformers.js';
import type { ModelDownloadStep } from './transformers-runtime.js';
import { errorMessage } from '../util/error-text.js';

/** The embedder's settings (src/config.ts parses them; the Config passes as one). Declared here so src/llm imports nothing of config.ts. */
export interface EmbedderConfig {
  EMBEDDER: 'auto' | 'transformers' | 'openai' | 'builtin';
  EMBEDDING_MODEL: string;
  EMBEDDING_MODEL_DIR?: string | undefined;
  EMBEDDING_BASE_URL?: string | undefined;
  EMBEDDING_LOCALITY: 'auto' | 'local' | 'hosted';
  EMBEDDING_API_KEY?: string | undefined;
  EMBEDDING_QUERY_PREFIX?: string | undefined;
  dataDir: string;
  EMBEDDING_TIMEOUT_MS?: number | undefined;
}

export interface EmbedderChoice {
  embedder: Embedder;
  /** A human sentence when the configured embedder could not be used, naming the fallback. */
  notice: string | null;
  /** Why the configured embedder could not be used, when the built-in one stands in for it. */
  fallbackReason?: string;
}

const BGE_PREFIX = 'Represent this sentence for searching relevant passages: ';

export async function selectEmbedder(config: EmbedderConfig, logger: Logger, onDownload?: (step: ModelDownloadStep) => void): Promise<EmbedderChoice> {
  const failures: string[] = [];
  const wantTransformers = config.EMBEDDER === 'transformers' || config.EMBEDDER === 'auto';
  const wantOpenAI = config.EMBEDDER === 'openai' || (config.EMBEDDER === 'auto' && !!config.EMBEDDING_BASE_URL);
  if (config.EMBEDDER === 'builtin') return { embedder: new HashingEmbedder(), notice: null };
  if (wantTransformers) {
    try {
      const embedder = await TransformersEmbedder.load({
        model: config.EMBEDDING_MODEL,
        cacheDir: join(config.dataDir, 'models'),
        modelDir: config.EMBEDDING_MODEL_DIR,
        queryPrefix: config.EMBEDDING_QUERY_PREFIX ?? (/bge/i.test(config.EMBEDDING_MODEL) ? BGE_PREFIX : ''),
        logger,
        ...(onDownload ? { onDownload } : {}),
      });
      return { embedder, notice: null };
    } catch (err) {
      failures.push(errorMessage(err));
    }
  }
  if (wantOpenAI) {
    if (!config.EMBEDDING_BASE_URL) {
      failures.push('EMBEDDER=openai needs EMBEDDING_BASE_URL (e.g. http://localhost:1234/v1)');
    } else {
      try {
        const locality = urlIsLocal(config.EMBEDDING_BASE_URL, config.EMBEDDING_LOCALITY) ? 'local' : 'hosted';
        const embedder = await OpenAIEmbedder.connect({
          baseUrl: config.EMBEDDING_BASE_URL,
          model: config.EMBEDDING_MODEL,
          apiKey: config.EMBEDDING_API_KEY,
          locality,
          ...(config.EMBEDDING_TIMEOUT_MS ? { timeoutMs: config.EMBEDDING_TIMEOUT_MS } : {}),
        });
        const notice =
          locality === 'hosted'
            ? `the embedder at ${publicUrl(config.EMBEDDING_BASE_URL)} is hosted: notes and messages are sent to it to be searched by meaning, except what is sensitive, which is found by keywords only (set EMBEDDING_LOCALITY=local if that server is yours)`
            : null;
        if (notice) logger.warn({ embedder: embedder.id }, notice);
        return { embedder, notice };
      } catch (err) {
        failures.push(`embeddings server: ${errorMessage(err)}`);
      }
    }
  }
  const embedder = new HashingEmbedder();
  const notice =
    `${failures.join('; ')} — using the built-in lexical embedder (${embedder.id}) instead: search still works, ` +
    `by wording rather than meaning. To use a real model, put it in EMBEDDING_MODEL_DIR or let Charlie download it once into ${join(config.dataDir, 'models')}, ` +
    `or set EMBEDDER=openai with EMBEDDING_BASE_URL.`;
  logger.warn({ embedder: embedder.id }, notice);
  return { embedder, notice, fallbackReason: failures.join('; ') };
}
