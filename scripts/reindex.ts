/**
 * Rebuilds the search index from `projects/` from scratch: `npm run reindex`.
 * Deleting `data/` and running this brings back every search result (DM history excepted).
 */
import { join } from 'node:path';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { dataFiles } from '../src/data-files.js';
import { selectEmbedder } from '../src/llm/embeddings.js';
import { createRecall, recallSettings } from '../src/memory/recall.js';
import { openUsageStore } from '../src/storage/usage-store.js';
import { consoleLogger } from './bench-util.js';

const config = loadConfig();
applyIndexRuntime(config);
const logger = consoleLogger('info');
const { embedder, notice } = await selectEmbedder(config, logger);
if (notice) console.log(notice);
const usage = openUsageStore(dataFiles(config.dataDir).usage, logger);
const service = createRecall({ projectsDir: config.projectsDir, dataDir: config.dataDir, embedder, usage, ...recallSettings(config), logger });
try {
  console.log(`reindexing ${config.projectsDir} with ${embedder.id} into ${join(config.dataDir, 'index')} …`);
  const stats = await service.reindexAll();
  console.log(`${stats.projects} projects, ${stats.pages} pages, ${stats.chunks} chunks (${stats.embedded} embedded) in ${(stats.ms / 1000).toFixed(1)} s`);
} finally {
  await service.close();
  usage.close();
}
