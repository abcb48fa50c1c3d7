/** Embeddings: which embedder Charlie will use (the same choice start-up makes), its model, dimensions, and one embedding. */
import { publicUrl } from '../core/privacy/public-url.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { silentLogger } from '../core/ports/index.js';
import { selectEmbedder } from '../llm/embeddings.js';
import { fail, ok, warn, type Check, type Part } from './check.js';

function modelPresence(config: Config): string {
  if (config.EMBEDDER === 'builtin') return 'no model needed';
  if (config.EMBEDDER === 'openai') return `served by ${config.EMBEDDING_BASE_URL ? publicUrl(config.EMBEDDING_BASE_URL) : '(EMBEDDING_BASE_URL not set)'}`;
  const dir = config.EMBEDDING_MODEL_DIR ?? join(config.dataDir, 'models');
  return existsSync(join(dir, config.EMBEDDING_MODEL, 'config.json')) ? `model files present in ${dir}` : `model files not in ${dir}`;
}

function embedderCheck(config: Config): Check {
  return {
    name: 'embedder',
    timeoutMs: 30_000,
    async run() {
      const presence = modelPresence(config);
      const { embedder, notice } = await selectEmbedder(config, silentLogger);
      const [vector] = await embedder.embed(['Charlie remembers the trip to Lisbon.']);
      if (vector?.length !== embedder.dimensions) return fail(`${embedder.id} returned a vector of the wrong size`, 'run `npm run reindex` after fixing the embedder settings');
      const what = `${embedder.id} (${String(embedder.dimensions)} dimensions, ${embedder.semantic ? 'by meaning' : 'by wording'}); ${presence}; one embedding ok`;
      if (notice !== null) {
        return warn(
          `${what} — the configured embedder could not be used: ${notice.split(' — ')[0] ?? notice}`,
          'put the model in EMBEDDING_MODEL_DIR or let Charlie download it once into data/models, or set EMBEDDER=openai with EMBEDDING_BASE_URL (EMBEDDER=builtin silences this)',
        );
      }
      return ok(what);
    },
  };
}

export function embeddingsPart(config: Config): Part {
  return { name: 'embeddings', checks: [embedderCheck(config)] };
}
