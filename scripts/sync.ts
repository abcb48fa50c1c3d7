/**
 * Sync the Markdown memory across the household's devices (docs/sync.md):
 *   npm run sync -- setup     make this device's sync repository, point it at SYNC_REMOTE, sync once
 *   npm run sync -- status    the devices, the last sync, what is waiting, review items from merges
 *   npm run sync -- now       sync now (then the changed pages are re-indexed here)
 */
import { execFileSync } from 'node:child_process';
import { applyIndexRuntime, loadConfig } from '../src/config.js';
import { dataFiles } from '../src/data-files.js';
import { selectEmbedder } from '../src/llm/embeddings.js';
import { createRecall, recallSettings } from '../src/memory/recall.js';
import { Wiki } from '../src/memory/graph/wiki.js';
import { graphTombstoneCheck } from '../src/memory/tombstones.js';
import { openUsageStore } from '../src/storage/usage-store.js';
import { systemClock } from '../src/core/ports/index.js';
import { createSync, reindexChanged } from '../src/sync/create.js';
import { renderSyncStatus } from '../src/core/sync/render-status.js';
import { consoleLogger } from './bench-util.js';

const command = process.argv[2] ?? 'status';
const config = loadConfig();
const sync = createSync(config);
const say = (line: string) => process.stdout.write(`${line}\n`);

function has(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function now(): Promise<void> {
  const report = await sync.syncNow();
  say(`synced ${config.SYNC_DEVICE}: ${String(report.changed.length)} file(s) arrived or merged here${report.pushed ? ', sent' : ''}`);
  for (const n of report.notes) say(`· ${n}`);
  for (const r of report.review) say(`· into review: ${r.path} ^${r.ids[0]} vs ^${r.ids[1]} (${r.why})`);
  if (!report.changed.length) return;
  applyIndexRuntime(config);
  const logger = consoleLogger('warn');
  const { embedder } = await selectEmbedder(config, logger);
  const usage = openUsageStore(dataFiles(config.dataDir).usage, logger);
  const retrieval = createRecall({ projectsDir: config.projectsDir, dataDir: config.dataDir, embedder, usage, ...recallSettings(config), logger });
  const graph = new Wiki({ projectsDir: config.projectsDir, clock: systemClock, logger, isForgotten: graphTombstoneCheck(config.projectsDir) });
  try {
    const projects = await reindexChanged(report.changed, { reconcile: (p, c) => graph.reconcile(p, c), changed: (p, paths) => retrieval.changed(p, paths) });
    say(`re-indexed ${String(projects.length)} project(s): ${projects.join(', ')}`);
  } finally {
    await retrieval.close();
    usage.close();
  }
}

async function setup(): Promise<void> {
  say(`1. git: ${has('git') ? 'found' : 'missing — install it (Debian: apt-get install git)'}`);
  if (config.SYNC_ENCRYPT_TO) say(`   git-remote-gcrypt: ${has('git-remote-gcrypt') ? 'found' : 'missing — apt-get install git-remote-gcrypt gnupg'}`);
  if (!config.SYNC_REMOTE) {
    say('2. SYNC_REMOTE is not set. Make a bare repository the household owns and name it in .env, e.g.');
    say('     ssh nas git init --bare /srv/charlie.git    then    SYNC_REMOTE=ssh://nas/srv/charlie.git');
    say('   A machine the household does not own: also SYNC_ENCRYPT_TO=<your GPG key> (docs/sync.md). Then run this again.');
    process.exitCode = 1;
    return;
  }
  say(`2. remote: ${sync.remoteUrl}${config.SYNC_ENCRYPT_TO ? '' : ' (not encrypted: only for a machine the household owns)'}`);
  await sync.setup();
  say(`3. this device: ${config.SYNC_DEVICE}, background jobs ${config.SYNC_BACKGROUND ? 'here' : 'elsewhere'} (SYNC_BACKGROUND)`);
  await now();
  say(renderSyncStatus(await sync.status()));
}

if (command === 'setup') await setup();
else if (command === 'now') await now();
else if (command === 'status') say(renderSyncStatus(await sync.status()));
else {
  process.stderr.write('usage: npm run sync -- setup|status|now\n');
  process.exitCode = 2;
}
