/**
 * `npm run bench:graph [-- --pages 5000]`: the knowledge graph at scale. Builds a project of
 * N pages (people, employers, places, trips; facts and two-way links) in a temp folder and
 * prints how long the deterministic parts take (model time excluded): the page map handed to
 * the memory writer, a distillation's graph part (page map + taxonomy + resolving and writing
 * a typical reply), and `memory check`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { graphView } from '../src/core/writing/distill.js';
import { toGraphWrite } from '../src/core/writing/graph-distill.js';
import { silentLogger, systemClock, type LogEntry } from '../src/core/ports/index.js';
import { runMemoryCheck } from '../src/memory/graph/check-run.js';
import { Wiki } from '../src/memory/graph/wiki.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '5000' } } });
const N = Math.max(10, Number(values.pages));
const FIRST = ['Ana', 'Ben', 'Chloé', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kai', 'Lea', 'Max', 'Noor', 'Omar', 'Pia'];
const FOLDERS = ['People/Friends', 'People/Professional', 'Work', 'Places', 'Travel'];

function titleOf(i: number): string {
  const folder = FOLDERS[i % FOLDERS.length]!;
  if (folder.startsWith('People')) return `${FIRST[i % FIRST.length]} Person${i}`;
  return `${folder} Thing ${i}`;
}
const pathOf = (i: number) => `${FOLDERS[i % FOLDERS.length]}/${titleOf(i).replace(/[^A-Za-z0-9]+/g, '-')}`;

async function build(root: string): Promise<void> {
  const notes = join(root, 'bench', 'notes');
  for (const f of FOLDERS) await mkdir(join(notes, f), { recursive: true });
  await writeFile(join(root, 'bench', 'project.md'), '---\nschema: 1\nid: bench\nname: bench\n---\n');
  const writes: Promise<void>[] = [];
  for (let i = 0; i < N; i++) {
    const a = (i + 1) % N;
    const b = (i + N - 1) % N;
    const body = [
      '---',
      'schema: 2',
      `title: ${titleOf(i)}`,
      `aliases: [alias-${i}]`,
      `category: ${FOLDERS[i % FOLDERS.length]}`,
      'created: 2026-01-01',
      'updated: 2026-06-01',
      `staleness: ${i % 11}`,
      'sensitivity: personal',
      '---',
      '',
      `Page number ${i}, generated for the benchmark.`,
      '',
      '## Facts',
      ...[0, 1, 2].map((k) => `- Fact ${k} about page ${i}. [said:: 2026-05-0${k + 1}] [source:: [msg](https://discord.com/channels/1/2/${i * 10 + k})] ^r-${i}-${k}`),
      '',
      '## Related',
      `- [[${pathOf(a)}]] (next) [source:: [msg](https://discord.com/channels/1/2/${i})]`,
      `- [[${pathOf(b)}]] (previous) [source:: [msg](https://discord.com/channels/1/2/${b})]`,
      '',
    ].join('\n');
    writes.push(writeFile(join(notes, `${pathOf(i)}.md`), body));
    if (writes.length >= 200) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await fn();
  return [out, performance.now() - t];
}

const root = await mkdtemp(join(tmpdir(), 'charlie-bench-graph-'));
try {
  await build(root);
  const entries: LogEntry[] = [
    {
      time: '2026-06-20T10:00:00Z',
      speaker: 'Ana Person0',
      source: 'https://discord.com/channels/1/2/900001',
      role: 'user',
      text: `${titleOf(5)} started at ${titleOf(7)}; ${titleOf(11)}'s trip to ${titleOf(13)} is booked.`,
    },
    {
      time: '2026-06-20T10:01:00Z',
      speaker: 'Ben Person1',
      source: 'https://discord.com/channels/1/2/900002',
      role: 'user',
      text: `alias-42 and Hana moved to ${titleOf(23)}. A new friend, Zed Newman, joined Work Thing 2.`,
    },
  ];
  const speakers = [{ name: 'Ana Person0', discordId: '100' }, { name: 'Ben Person1' }];
  const cold = new Wiki({ projectsDir: root, clock: systemClock, logger: silentLogger });
  const graph = (wiki: Wiki) => ({
    taxonomy: () => wiki.taxonomy('bench'),
    pageMap: (r: Parameters<Wiki['pageMap']>[1]) => wiki.pageMap('bench', r),
    write: (w: Parameters<Wiki['write']>[1]) => wiki.write('bench', w),
    related: async () => [`notes/${pathOf(99)}.md`, `notes/${pathOf(100)}.md`],
  });
  const [view, mapCold] = await timed(() => graphView(graph(cold), entries, speakers));
  const [, mapWarm] = await timed(() => graphView(graph(cold), entries, speakers));
  const reply = {
    entities: [{ name: 'Zed Newman', category: 'People/Friends', new: true, staleness: 3 }],
    facts: [
      { entity: titleOf(5), text: `Started at ${titleOf(7)}.`, message: 1, staleness: 3 },
      { entity: titleOf(11), text: `Trip to ${titleOf(13)} is booked.`, message: 1, staleness: 6 },
      { entity: 'alias-42', text: `Moved to ${titleOf(23)}.`, message: 2 },
      { entity: 'Zed Newman', text: 'Joined Work Thing 2.', message: 2 },
    ],
    links: [{ from: titleOf(5), to: titleOf(7), label: 'employer', reverse_label: 'employee', evidence: { message: 1, quote: `${titleOf(5)} started at ${titleOf(7)}` } }],
  };
  const { write } = toGraphWrite(reply, entries, speakers, 'distillation');
  const [report, writeMs] = await timed(() => cold.write('bench', write));
  const fresh = new Wiki({ projectsDir: root, clock: systemClock, logger: silentLogger });
  const [, distilCold] = await timed(async () => {
    await graphView(graph(fresh), entries, speakers);
    await fresh.write('bench', toGraphWrite(reply, entries, speakers, 'distillation').write);
  });
  const lines: string[] = [];
  const [code, checkMs] = await timed(() => runMemoryCheck({ projectsDir: root, project: 'bench', write: (l) => lines.push(l) }));
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`knowledge graph, ${N} pages (${process.platform}, ${(await import('node:os')).cpus().length} cores)`);
  console.log(`page map (${view.map.length} pages handed over): cold ${ms(mapCold)}, warm ${ms(mapWarm)}`);
  console.log(
    `distillation, deterministic part: page map + write of ${report.created.length + report.updated.length} pages (${report.factsAdded} facts, ${report.linksAdded} link sides): warm ${ms(mapWarm + writeMs)}, cold ${ms(distilCold)}`,
  );
  console.log(`memory check: ${ms(checkMs)} (exit ${code}; ${lines.at(-1) ?? ''})`);
} finally {
  await rm(root, { recursive: true, force: true });
}
