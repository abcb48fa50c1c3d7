/**
 * Peak memory of streaming a 1,000,000-row CSV through the inbox (src/memory/ingest/inbox.ts):
 * a bank export (summed per month and payee) and a plain table (read a batch at a time with a
 * checkpoint per batch), each in a fresh process-wide peak so the figures do not mix. The memory
 * lane is a stand-in that only counts items, so the figure is the inbox's own cost.
 *
 *   npm run bench:ingest [-- --rows 1000000 --kind bank|rows]
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { silentLogger, systemClock } from '../src/core/ports/index.js';
import { Wiki } from '../src/memory/graph/wiki.js';
import { Inbox } from '../src/memory/ingest/inbox.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, kind: { type: 'string', default: 'bank' } } });
const rows = Number(values.rows);
const kind = values.kind === 'rows' ? 'rows' : 'bank';
const root = await mkdtemp(join(tmpdir(), 'charlie-bench-ingest-'));
try {
  const dir = join(root, 'home', 'inbox');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${kind}.csv`);
  const out = createWriteStream(file);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'vo', 'ri', 'da', 'pe', 'xu', 'bo', 'fi', 'go', 'ha'];
  const payees = Array.from({ length: 300 }, (_, i) => `${syllables[i % 15] ?? ''}${syllables[Math.floor(i / 15) % 15] ?? ''} Market`);
  out.write(kind === 'bank' ? 'Date,Description,Amount\n' : 'id,name,note\n');
  for (let i = 0; i < rows; i++) {
    const line =
      kind === 'bank'
        ? `2026-${String(1 + Math.floor((i * 12) / rows)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')},"Card payment, ${payees[i % payees.length] ?? ''}",-${String((i % 5000) / 100)}\n`
        : `${String(i)},"Row ${String(i)}","some text that a person wrote, with a comma"\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const size = (await stat(file)).size;
  const baseline = process.resourceUsage().maxRSS;
  const wiki = new Wiki({ projectsDir: root, clock: systemClock, logger: silentLogger });
  const inbox = new Inbox({ projectsDir: root, log: wiki, logger: silentLogger });
  let items = 0;
  let batches = 0;
  let rounds = 0;
  const started = performance.now();
  for (;;) {
    rounds++;
    const [r] = await inbox.scan('home', async (_p, _s, batch) => {
      items += batch.length;
      batches++;
      return { facts: 0 };
    });
    if (r?.outcome !== 'partial') {
      if (r?.outcome !== 'ingested') throw new Error(`ended ${r?.outcome ?? '?'}: ${r?.message ?? ''}`);
      break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(`${kind} CSV: ${rows.toLocaleString('en')} rows, ${(size / 1e6).toFixed(0)} MB`);
  console.log(`  items the memory lane saw: ${items.toLocaleString('en')} in ${batches.toLocaleString('en')} batches over ${String(rounds)} scan rounds`);
  console.log(`  time: ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en')} rows/s)`);
  console.log(`  peak RSS: ${peak.toFixed(0)} MB (before ingesting: ${(baseline / 1024).toFixed(0)} MB; bound: 300 MB)`);
  if (peak > 300) process.exitCode = 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
