/**
 * `npm run bench:archive`: a project whose archive holds 250,000 entries, never distilled (its
 * cursor at the start) and never indexed, answers its first turn — one with a memory search —
 * within the turn deadline. Runs Charlie's real composition (`buildApp`) against a scripted model
 * server: the chat asks `search_memory`, then replies; the memory lane's distillation requests
 * get empty answers. Prints the time to the first reply and whether the catch-up was still going.
 *
 *   npm run bench:archive [-- --entries 250000 --deadline-ms 180000]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/core/ports/index.js';
import { formatLogEntry, logFileHeading } from '../src/memory/archive-format.js';
import { buildApp } from '../src/main.js';
import { startFakeModelServer } from '../test/support/fake-model-server.js';
import { offlineAppEnv } from '../test/support/web-fixture.js';

const { values } = parseArgs({ options: { entries: { type: 'string', default: '250000' }, 'deadline-ms': { type: 'string', default: '180000' } } });
const ENTRIES = Number(values.entries);
const DEADLINE = Number(values['deadline-ms']);
const PER_DAY = 400;
const REPLY = 'The boiler was serviced in March.';

const root = mkdtempSync(join(tmpdir(), 'charlie-bench-archive-'));
try {
  const projectsDir = join(root, 'projects');
  const dir = join(projectsDir, 'house');
  mkdirSync(join(dir, 'log'), { recursive: true });
  writeFileSync(
    join(dir, 'project.md'),
    '---\nschema: 1\nid: terminal:house\nname: house\nkeys:\n  - terminal:house\nstyle: ""\ndistill_every: 20\narchive: true\nrespond: always\ncreated: 2024-01-01T10:00:00.000Z\nupdated: 2026-11-01T10:00:00.000Z\n---\n',
  );
  const start = Date.parse('2024-01-01T00:00:00Z');
  let written = 0;
  for (let d = 0; written < ENTRIES; d++) {
    const day = new Date(start + d * 86_400_000);
    const file = `${day.toISOString().slice(0, 10)}.md`;
    let text = logFileHeading(file);
    for (let m = 0; m < PER_DAY && written < ENTRIES; m++, written++) {
      const time = new Date(day.getTime() + m * 120_000).toISOString();
      const user = m % 2 === 0;
      text += formatLogEntry({
        time,
        speaker: user ? 'Ann' : 'Charlie',
        source: `terminal:${String(day.getTime() + m)}`,
        text: user ? `The ${['boiler', 'garden', 'car', 'roof'][m % 4]} needs a look, entry ${String(written)}.` : 'Noted.',
        role: user ? 'user' : 'assistant',
      });
    }
    writeFileSync(join(dir, 'log', file), text);
  }
  let memoryCalls = 0;
  const model = await startFakeModelServer((body: { messages?: { role: string; content?: unknown }[]; tools?: unknown[] }) => {
    const msgs = body.messages ?? [];
    if (!body.tools?.length) {
      memoryCalls++;
      return { text: '{"summary":"","decisions":[],"quotes":[],"entities":[],"facts":[],"links":[]}' };
    }
    if (msgs.some((m) => m.role === 'tool')) return { text: REPLY };
    return { toolCalls: [{ name: 'search_memory', arguments: JSON.stringify({ query: 'boiler service' }) }] };
  });
  const config = loadConfig({ ...offlineAppEnv(model.url, projectsDir, join(root, 'data')), WEB_PORT: '0', TURN_DEADLINE_MS: String(DEADLINE) }, root);
  const t0 = performance.now();
  const app = await buildApp(config, silentLogger);
  const built = performance.now() - t0;
  const place = { kind: 'project' as const, origin: { name: 'house', key: 'terminal:house' } };
  const t1 = performance.now();
  const outcome = await app.assistant.conversation.handle({ place, speaker: 'Ann', text: 'When was the boiler serviced?', source: 'terminal:first' }, { tools: { user: { owner: true } } });
  const turn = performance.now() - t1;
  console.log(`archive: ${ENTRIES.toLocaleString('en')} entries in ${String(Math.ceil(ENTRIES / PER_DAY))} daily files, never distilled or indexed`);
  console.log(`  app build: ${(built / 1000).toFixed(1)} s`);
  console.log(
    `  first turn (with a memory search): ${(turn / 1000).toFixed(1)} s, ended ${outcome.reason}, reply ${outcome.reply === REPLY ? 'as scripted' : JSON.stringify(outcome.reply.slice(0, 120))}`,
  );
  console.log(`  memory-lane requests by then: ${String(memoryCalls)} (deadline ${String(DEADLINE / 1000)} s)`);
  if (outcome.reply !== REPLY || turn > DEADLINE) process.exitCode = 1;
  await model.close();
  process.exit();
} finally {
  rmSync(root, { recursive: true, force: true });
}
