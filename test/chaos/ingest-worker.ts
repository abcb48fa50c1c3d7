/**
 * Child process for the kill -9 ingestion test: runs the real IngestService (inbox, checkpoints,
 * graph writer) over two projects' inboxes, side by side as Charlie's startup scan does. The memory
 * model is a stand-in that turns every 1000th row into a fact ("Item 5000 is on shelf 2."), so the
 * records on the pages say exactly which rows reached the graph. Prints `ready`; once the big
 * file's first checkpoint is written it scans the small project too and prints `small <rows of the
 * big file checkpointed by then>` when its file is read; `done` when the big file is.
 *
 *     node --import tsx test/chaos/ingest-worker.ts PROJECTS_DIR
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger, systemClock, type ChatChunk, type ChatRequest, type LocalChatModel } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { IngestService } from '../../src/memory/ingest/ingest-service.js';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: ingest-worker.ts PROJECTS_DIR');

const EVERY = 1000;
const SHELVES = 7;

const model: LocalChatModel = {
  id: 'shelf-model',
  locality: 'local',
  acceptsImages: false,
  async *stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    const content = String(request.messages[1]?.content ?? '');
    const facts: { entity: string; text: string; message: number }[] = [];
    for (const line of content.split('\n')) {
      const m = /^\[(\d+)\] id: (\d+);/.exec(line);
      if (m && Number(m[2]) % EVERY === 0)
        facts.push({ entity: `Shelf ${String(Number(m[2]) % SHELVES)}`, text: `Item ${m[2]} is on shelf ${String(Number(m[2]) % SHELVES)}.`, message: Number(m[1]) });
      const note = /^\[(\d+)\] (Remember that .*)$/.exec(line);
      if (note) facts.push({ entity: 'Boiler', text: note[2]!.replace(/^Remember that /, ''), message: Number(note[1]) });
    }
    const entities = [...new Set(facts.map((f) => f.entity))].map((name) => ({ name, category: 'Topics', new: true }));
    yield { type: 'text', text: JSON.stringify({ entities, facts, links: [] }) };
    yield { type: 'done', finishReason: 'stop' };
  },
};

const wiki = new Wiki({ projectsDir: dir, clock: systemClock, logger: silentLogger });
const ingest = new IngestService({ projectsDir: dir, graph: wiki, recall: { recall: async () => [] }, memoryModel: model, clock: systemClock, logger: silentLogger, stream: { bytes: 1, batch: 300 } });
const say = (what: string) => new Promise<void>((resolve) => process.stdout.write(`${what}\n`, () => resolve()));
const bigDone = async () => {
  const text = await readFile(join(dir, 'big', 'inbox', '.progress.json'), 'utf8').catch(() => '{}');
  return (JSON.parse(text) as Record<string, { done?: number }>)['rows.csv']?.done ?? -1;
};

await say('ready');
const big = ingest.scan('big').then(() => say('done'));
// the small file is dropped in once the big one is under way (as the inbox watcher would scan it)
while ((await bigDone()) < 0) await new Promise((resolve) => setTimeout(resolve, 20));
await Promise.all([big, ingest.scan('small').then(async () => say(`small ${String(await bigDone())}`))]);
