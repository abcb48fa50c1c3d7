/**
 * `npm run bench:startup [-- --runs 5]`: start-up of the terminal chat on an empty project
 * (`WEB_PORT=0`, built-in embedder, a local fake model server) until its `— project` line, and
 * its RSS once idle, against `--version` through the same launcher, in one run:
 *   - build: what `npm start` runs, `node bin/charlie.mjs` (the esbuild output of bin/build.mjs,
 *     whose stack traces read a chunk's source map only when a stack passes through it);
 *   - build, Node's source maps: the same with Node's own support on (`--enable-source-maps`),
 *     which reads every loaded chunk's map as it loads: what the launcher did before;
 *   - tsx: what `npm start` ran before, `node --import tsx src/cli.ts`.
 * The runs interleave (one of each per round), so a change of load moves every row alike.
 * Prints the median of each and the difference chat − `--version`; the build is also asked one
 * question after its idle RSS is read, and its RSS 3 s after the answer is printed beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeModelServer } from '../test/support/fake-model-server.js';
import { chatStartEnv, percentile, timeStart } from './bench-util.js';
import { writeEmpty } from './bench-scale-data.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Math.max(1, Number(args.runs));
const root = mkdtempSync(join(tmpdir(), 'charlie-bench-startup-'));
writeEmpty(join(root, 'projects'));
const model = await startFakeModelServer(() => ({ text: 'ok' }));
const env = chatStartEnv(root, model.url);

const run = (argv: string[], until: RegExp | null, question?: { text: string; reply: RegExp }) => timeStart(argv, env, until, question);
/** The build (as `npm start`) is also asked one question: its RSS after the first answer. */
const QUESTION = { text: 'What do you remember about the boiler?', reply: /\bok\b/ };

try {
  // build once first (what the first `npm start` after an edit does), so the rounds time a current build
  const first = await run(['bin/charlie.mjs', '--version'], null);
  const ways: Record<string, string[]> = {
    build: ['bin/charlie.mjs'],
    "build, Node's source maps": ['--enable-source-maps', 'bin/charlie.mjs'],
    tsx: ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'src/cli.ts'],
  };
  const figures = Object.fromEntries(Object.keys(ways).map((k) => [k, { version: [] as number[], chat: [] as number[], rss: [] as number[], after: [] as number[] }]));
  for (let i = 0; i < runs; i++) {
    for (const [way, argv] of Object.entries(ways)) {
      const f = figures[way]!;
      f.version.push((await run([...argv, '--version'], null)).ms);
      const chat = await run([...argv, '--project', 'empty'], /— project /, way === 'build' ? QUESTION : undefined);
      f.chat.push(chat.ms);
      f.rss.push(chat.rss);
      if (Number.isFinite(chat.rssAfter)) f.after.push(chat.rssAfter);
    }
  }
  console.log(`first start after an edit (build + --version): ${first.ms.toFixed(0)} ms`);
  console.log(`\nmedians of ${runs} (terminal chat, empty project, WEB_PORT=0):`);
  console.log(`${'launcher'.padEnd(28)}${'--version'.padStart(11)}${'chat prompt'.padStart(13)}${'difference'.padStart(12)}${'idle RSS'.padStart(11)}${'after a question'.padStart(18)}`);
  for (const [way, f] of Object.entries(figures)) {
    const v = percentile(f.version, 50);
    const c = percentile(f.chat, 50);
    const rss = percentile(f.rss, 50) / 2 ** 20;
    const after = f.after.length ? `${(percentile(f.after, 50) / 2 ** 20).toFixed(0)} MB` : '';
    console.log(
      `${way.padEnd(28)}${`${v.toFixed(0)} ms`.padStart(11)}${`${c.toFixed(0)} ms`.padStart(13)}${`${(c - v).toFixed(0)} ms`.padStart(12)}${`${rss.toFixed(0)} MB`.padStart(11)}${after.padStart(18)}`,
    );
  }
} finally {
  await model.close();
  rmSync(root, { recursive: true, force: true });
}
