/**
 * Child process for the kill -9 chaos test: writes memory through the real FileProjectStore and
 * knowledge graph as fast as it can (archive appends, layer rewrites, entity pages, cursor and settings updates)
 * and prints one line per acknowledged write ("log 12", "decision 12", "note 12") only after the
 * store's promise resolved. The parent kills it with SIGKILL at random moments.
 *
 *     node --import tsx test/chaos/memory-writer.ts PROJECTS_DIR FIRST_INDEX
 */
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { writePage } from '../support/pages.js';

const [dir, first] = process.argv.slice(2);
if (!dir || !first) throw new Error('usage: memory-writer.ts PROJECTS_DIR FIRST_INDEX');
const store = new FileProjectStore({ projectsDir: dir, clock: systemClock });
const graph = new Wiki({ projectsDir: dir, clock: systemClock, logger: silentLogger });
const ack = (what: string) => new Promise<void>((resolve) => process.stdout.write(`${what}\n`, () => resolve()));

const { slug } = await store.ensureProject({ key: 'terminal:chaos', name: 'chaos' });
await ack('ready');
for (let i = Number(first); ; i++) {
  const time = new Date(Date.parse('2026-11-29T23:59:00.000Z') + i * 1000).toISOString();
  await store.appendLog(slug, { time, speaker: 'Ann', source: `chaos:${i}`, text: `message ${i}\nwith a second line`, role: 'user' });
  await ack(`log ${i}`);
  if (i % 3 === 0) {
    const snap = await store.readLayers(slug);
    const next = { ...snap.layers, summary: `summary after ${i}`, decisions: [...snap.layers.decisions, { date: time.slice(0, 10), text: `decision ${i}`, source: `chaos:${i}` }] };
    const out = await store.writeLayers(slug, next, snap.versions);
    if (out.ok) await ack(`decision ${i}`);
  }
  if (i % 4 === 0) {
    await writePage(graph, slug, { title: `Topic ${i % 5}`, category: 'Topics', facts: [`fact ${i}`], source: `chaos:${i}` });
    await ack(`note ${i}`);
  }
  if (i % 5 === 0) {
    const tail = await store.readLogSince(slug, await store.getDistillCursor(slug));
    if (tail.cursor) await store.setDistillCursor(slug, tail.cursor);
  }
  if (i % 7 === 0) await store.updateProject(slug, { style: `style ${i}` });
}
