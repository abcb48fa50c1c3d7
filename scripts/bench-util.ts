/** Small helpers for the command-line scripts. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../src/core/ports/index.js';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** A Logger that prints to stderr at or above `level` (scripts do not need pino). */
export function consoleLogger(level: (typeof LEVELS)[number] = 'info', bindings: Record<string, unknown> = {}): Logger {
  const min = LEVELS.indexOf(level);
  const out = (lvl: (typeof LEVELS)[number]) => (obj: object | string, msg?: string) => {
    if (LEVELS.indexOf(lvl) < min) return;
    const text = typeof obj === 'string' ? obj : `${msg ?? ''} ${JSON.stringify({ ...bindings, ...obj })}`;
    process.stderr.write(`${new Date().toISOString().slice(11, 23)} [${lvl}] ${text}\n`);
  };
  return {
    debug: out('debug'),
    info: out('info'),
    warn: out('warn'),
    error: out('error'),
    child: (b) => consoleLogger(level, { ...bindings, ...b }),
  };
}

/** Deterministic uniform random numbers in [0, 1) (mulberry32): benchmarks and fixtures repeat exactly. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * How `npm start` runs Charlie's process, so a benchmark's child measures the same: a young
 * generation of at most 2 × 16 MB (V8 otherwise sizes it from the machine's memory: 128 MB
 * committed after a few turns here), at most 2 glibc malloc arenas (LanceDB's tokio threads
 * each get an arena otherwise, and freed native memory stays in them) and a fixed mmap threshold
 * (glibc otherwise raises it as large blocks are freed, and the buffers of reading a table stay
 * in the heap: 50 MB at 10,000 pages). See docs/performance.md.
 */
export const START_NODE_FLAGS = ['--max-semi-space-size=16'];
export const startEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...env,
  MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2',
  MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
});

/** The environment of a timed start of the terminal chat: an empty project under `root`, the scripted model at `modelUrl`, no web port, no logs. */
export const chatStartEnv = (root: string, modelUrl: string): NodeJS.ProcessEnv =>
  startEnv({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LLM_BASE_URL: modelUrl,
    LLM_MODEL: 'fake-model',
    EMBEDDER: 'builtin',
    PROJECTS_DIR: join(root, 'projects'),
    DATA_DIR: join(root, 'data'),
    WEB_PORT: '0',
    LOG_LEVEL: 'silent',
  });

/** Two to four distinct pages for page `i` of `nodes` to link to, three in ten drawn from the first 40: a few hubs collect many links, as real memories do. */
export function hubLinks(rand: () => number, i: number, nodes: number): Set<number> {
  const links = new Set<number>();
  const count = 2 + Math.floor(rand() * 3);
  while (links.size < count) {
    const j = rand() < 0.3 ? Math.floor(rand() * Math.min(40, nodes)) : Math.floor(rand() * nodes);
    if (j !== i) links.add(j);
  }
  return links;
}

/** Each phase's p50 / p95 (ms), in the order they were first heard: `embed 0.12 / 0.30, vector …`. */
export function phaseLine(phases: ReadonlyMap<string, number[]>): string {
  return [...phases].map(([name, ms]) => `${name} ${percentile(ms, 50).toFixed(2)} / ${percentile(ms, 95).toFixed(2)}`).join(', ');
}

/**
 * The arguments that run another script of this folder as a child process the way this one
 * runs: from the tools build (`bin/tool.mjs`, process.argv[1] is then a built `.js` file) or,
 * when run from the sources (`npx tsx scripts/…`), with tsx.
 */
export function scriptArgs(name: string): string[] {
  const running = process.argv[1] ?? '';
  if (running.endsWith('.js')) return [join(dirname(running), `${name}.js`)];
  return ['--import', 'tsx', join(import.meta.dirname, `${name}.ts`)];
}

/**
 * One timed start of Charlie (`node START_NODE_FLAGS ...argv` in the repo): until it exits
 * (`until` null; a non-zero exit fails) or prints `until`, then its RSS after 3 s idle, read from
 * /proc. Used by bench:startup and bench:scale's start-up step.
 */
export function timeStart(argv: string[], env: NodeJS.ProcessEnv, until: RegExp | null, question?: { text: string; reply: RegExp }): Promise<{ ms: number; rss: number; rssAfter: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, [...START_NODE_FLAGS, ...argv], { cwd: join(import.meta.dirname, '..'), env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let ms = NaN;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (until && Number.isNaN(ms) && until.test(out)) {
        ms = performance.now() - t;
        // idle: the prompt is shown; wait for start-up work to settle, then read the RSS
        const rssNow = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
        const end = (rss: number, rssAfter: number) => {
          child.stdin.end();
          child.once('close', () => resolve({ ms, rss, rssAfter }));
        };
        setTimeout(() => {
          const rss = rssNow();
          if (!question) {
            end(rss, NaN);
            return;
          }
          // then one question, and the RSS 3 s after its reply (the index and LanceDB are loaded by then)
          const mark = out.length;
          const asked = performance.now();
          const replied = setInterval(() => {
            const answered = question.reply.test(out.slice(mark));
            if (!answered && performance.now() - asked < 30_000) return;
            clearInterval(replied);
            if (answered) setTimeout(() => end(rss, rssNow()), 3000);
            else end(rss, NaN); // no answer within 30 s: no figure
          }, 20);
          child.stdin.write(`${question.text}\n`);
        }, 3000);
      }
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!until) {
        if (code === 0) resolve({ ms: performance.now() - t, rss: NaN, rssAfter: NaN });
        else reject(new Error(`exit ${code}: ${out}`));
      } else if (Number.isNaN(ms)) reject(new Error(`the chat did not start (exit ${code}): ${out}`));
    });
    if (!until) child.stdin.end();
  });
}
