/**
 * `npm run models -- list`            what is on disk: the chat (embedded), embedding and Whisper
 *                                     models, their size, where, and which job uses each
 * `npm run models -- pull [JOB…]`     fetch them (JOB: chat, embedding, whisper; default all), so
 *                                     Charlie afterwards runs without the network
 *
 * The chat model download resumes where an interrupted one stopped and is verified (size,
 * SHA-256 when the Hub announces it, GGUF header). The embedding and Whisper models are fetched
 * by transformers.js, exactly as Charlie would on first use.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type Config } from '../src/config.js';
import type { Logger } from '../src/core/ports/index.js';
import { silentLogger } from '../src/core/ports/index.js';
import { downloadModel } from '../src/llm/embedded/download.js';
import { gb, progressPrinter, type DownloadProgress } from '../src/terminal/progress.js';
import { embeddedModelFile, modelsDir } from '../src/llm/embedded/model-file.js';
import { TransformersEmbedder } from '../src/llm/embeddings-transformers.js';
import { localWhisper } from '../src/speech/stt/create.js';
import { errorMessage } from '../src/util/error-text.js';

type Job = 'chat' | 'embedding' | 'whisper';
const JOBS: Job[] = ['chat', 'embedding', 'whisper'];

interface Row {
  job: string;
  model: string;
  path: string;
  present: boolean;
  bytes: number;
  used: string;
}

function dirBytes(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + dirBytes(join(path, name)), 0);
}

export function modelRows(config: Config): Row[] {
  const chat = embeddedModelFile(config);
  const embeddingDir = config.EMBEDDING_MODEL_DIR ? join(config.EMBEDDING_MODEL_DIR, config.EMBEDDING_MODEL) : join(modelsDir(config.dataDir), config.EMBEDDING_MODEL);
  const whisper = localWhisper(config, { allowDownload: false }).locate();
  return [
    {
      job: 'chat (embedded)',
      model: chat.ref,
      path: chat.path,
      present: existsSync(chat.path),
      bytes: dirBytes(chat.path),
      used:
        config.LLM_PROVIDER === 'server'
          ? 'not used (LLM_PROVIDER=server)'
          : config.LLM_PROVIDER === 'embedded'
            ? 'answers and writes memory'
            : 'answers and writes memory when no model server answers',
    },
    {
      job: 'embedding',
      model: config.EMBEDDING_MODEL,
      path: embeddingDir,
      present: existsSync(join(embeddingDir, 'config.json')),
      bytes: dirBytes(embeddingDir),
      used: config.EMBEDDER === 'auto' || config.EMBEDDER === 'transformers' ? 'semantic search of memory' : `not used (EMBEDDER=${config.EMBEDDER})`,
    },
    {
      job: 'speech to text',
      model: config.STT_MODEL,
      path: whisper.where,
      present: whisper.present,
      bytes: dirBytes(whisper.where),
      used: config.STT === 'openai' || config.STT_BASE_URL ? 'not used (a Whisper server is set)' : 'voice channels and voice messages',
    },
  ];
}

function list(config: Config): void {
  for (const r of modelRows(config)) {
    process.stdout.write(`${r.present ? '✓' : '·'} ${r.job.padEnd(16)} ${r.present ? gb(r.bytes).padStart(9) : 'missing'.padStart(9)}  ${r.model}\n`);
    process.stdout.write(`  ${''.padEnd(16)} ${''.padStart(9)}  ${r.path}\n  ${''.padEnd(16)} ${''.padStart(9)}  ${r.used}\n`);
  }
  const total = modelRows(config).reduce((s, r) => s + r.bytes, 0);
  process.stdout.write(`on disk: ${gb(total)} under ${modelsDir(config.dataDir)}${modelRows(config).some((r) => !r.present) ? ' — `npm run models -- pull` fetches what is missing' : ''}\n`);
}

/** transformers.js reports per-file progress; show it like the chat model's. */
function transformersProgress(label: string): Logger {
  const show = new Map<string, (p: DownloadProgress) => void>();
  const log: Logger = {
    ...silentLogger,
    info(obj, msg) {
      if (typeof obj !== 'object' || !msg?.startsWith('downloading')) return;
      const p = obj as { file?: string; percent?: number };
      const file = p.file ?? '';
      let printer = show.get(file);
      if (!printer) show.set(file, (printer = progressPrinter(`${label} ${file}`)));
      printer({ downloaded: p.percent ?? 0, total: 100 });
    },
    child: () => log,
  };
  return log;
}

async function pull(config: Config, jobs: Job[]): Promise<void> {
  for (const job of jobs) {
    if (job === 'chat') {
      const file = embeddedModelFile(config);
      process.stdout.write(`chat model ${file.ref}\n`);
      const r = await downloadModel(file, { onProgress: progressPrinter('chat model') });
      process.stdout.write(
        r.downloaded
          ? `  ✓ ${gb(r.bytes)} at ${r.path}${r.resumedFrom ? ` (resumed at ${gb(r.resumedFrom)})` : ''}${r.shaVerified ? ', SHA-256 verified' : ', size and GGUF header verified (no SHA-256 announced)'}\n`
          : `  ✓ already here: ${r.path}\n`,
      );
    } else if (job === 'embedding') {
      process.stdout.write(`embedding model ${config.EMBEDDING_MODEL}\n`);
      await TransformersEmbedder.load({
        model: config.EMBEDDING_MODEL,
        cacheDir: modelsDir(config.dataDir),
        ...(config.EMBEDDING_MODEL_DIR ? { modelDir: config.EMBEDDING_MODEL_DIR } : {}),
        logger: transformersProgress('embedding'),
      });
      process.stdout.write('  ✓ loads\n');
    } else {
      process.stdout.write(`Whisper model ${config.STT_MODEL}\n`);
      const whisper = localWhisper(config, { allowDownload: true, logger: transformersProgress('whisper') });
      await whisper.load();
      process.stdout.write(`  ✓ loads from ${whisper.locate().where}\n`);
    }
  }
}

async function main(): Promise<void> {
  const [command = 'list', ...rest] = process.argv.slice(2);
  const config = loadConfig();
  if (command === 'list') {
    list(config);
    return;
  }
  if (command === 'pull') {
    const unknown = rest.filter((j) => !JOBS.includes(j as Job));
    if (unknown.length) throw new Error(`unknown model job ${unknown.join(', ')} — use ${JOBS.join(', ')}`);
    const jobs = rest.length ? (rest as Job[]) : JOBS;
    let failed = 0;
    for (const job of jobs) {
      try {
        await pull(config, [job]);
      } catch (err) {
        failed++;
        process.stdout.write(`  ✗ ${errorMessage(err)}\n`);
      }
    }
    if (failed) process.exitCode = 1;
    return;
  }
  throw new Error(`usage: npm run models -- list | pull [${JOBS.join('|')} …]`);
}

main().catch((err: unknown) => {
  process.stderr.write(`models: ${errorMessage(err)}\n`);
  process.exit(1);
});
