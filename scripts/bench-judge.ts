/**
 * The built-in judge by meaning (src/core/privacy/meaning-judge.ts), measured on sentences it was
 * not chosen on:
 *   - held-out sensitive sentences: a canary file of an outside privacy sweep (`--canaries`, an
 *     ES module exporting CANARIES: { text, control?, pairOnly? }[]); the fourth sweep's were kept
 *     out of the examples. The share labelled by the rules alone, by the judge, and by either;
 *     and the sweep's controls labelled (they must not be);
 *   - ordinary talk: LoCoMo's messages (`--data`, locomo-dev.json or, to report only,
 *     locomo-test.json) and the gate's noise set: the share labelled sensitive (the cost: such a
 *     message is kept from a hosted model);
 *   - the time to load the encoder, per text, and the memory it adds.
 *
 *   npm run bench:judge -- --data ../shared/bench-data/locomo-dev.json [--canaries FILE] [--noise FILE]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { MeaningJudge, type Nearness } from '../src/core/privacy/meaning-judge.js';
import { classifyText } from '../src/core/privacy/sensitivity.js';
import { readsAsEnglish } from '../src/core/privacy/language.js';
import { UniversalSentenceEncoder } from '../src/llm/sentence-encoder.js';
import { consoleLogger, percentile } from './bench-util.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, canaries: { type: 'string' }, noise: { type: 'string', default: 'test/fixtures/gate/noise.txt' } } });
if (!values.data) {
  console.error('usage: npm run bench:judge -- --data PATH/locomo-dev.json [--canaries FILE.mjs] [--noise FILE]');
  process.exit(2);
}

interface Canary {
  text: string;
  control?: boolean;
  pairOnly?: boolean;
}
const rulesSay = (t: string) => classifyText(t)?.sensitivity === 'sensitive';
const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)} %`;

const rssBefore = process.memoryUsage().rss;
let started = performance.now();
const judge = new MeaningJudge(new UniversalSentenceEncoder(consoleLogger('warn')));
await judge.warm();
const loadMs = performance.now() - started;
const rssAdded = process.memoryUsage().rss - rssBefore;

const perText: number[] = [];
/** How near each text lands, and whether the judge labels it as the product asks it (`labels`: one word left to the rules, a request's frame read apart). */
type Reading = Nearness & { labelled: boolean };
async function read(texts: string[]): Promise<Reading[]> {
  const out: Reading[] = [];
  for (const t of texts) {
    started = performance.now();
    const [label] = await judge.labels([t]);
    perText.push(performance.now() - started);
    const [near] = await judge.nearness([t]);
    out.push({ ...near!, labelled: label?.sensitivity === 'sensitive' });
  }
  return out;
}

const lines: string[] = [`encoder loaded with its examples in ${loadMs.toFixed(0)} ms; RSS +${(rssAdded / 1e6).toFixed(0)} MB`];
if (values.canaries) {
  const { CANARIES } = (await import(pathToFileURL(resolve(values.canaries)).href)) as { CANARIES: Canary[] };
  const held = CANARIES.filter((c) => !c.control && !c.pairOnly).map((c) => c.text.replace(/^- /, ''));
  const controls = CANARIES.filter((c) => c.control).map((c) => c.text);
  const h = await read(held);
  const c = await read(controls);
  const judged = (t: string, n: Reading) => readsAsEnglish(t) && n.labelled;
  const home = held.filter((t, i) => rulesSay(t) || judged(t, h[i]!) || !readsAsEnglish(t)).length;
  lines.push(
    `held-out sensitive (${values.canaries}, ${String(held.length)}): rules ${pct(held.filter(rulesSay).length, held.length)}, judge ${pct(held.filter((t, i) => judged(t, h[i]!)).length, held.length)}, not read (another language: kept as unjudged) ${pct(held.filter((t) => !readsAsEnglish(t)).length, held.length)}; kept home by any ${pct(home, held.length)} (${String(home)} of ${String(held.length)})`,
    `  missed: ${held.filter((t, i) => !rulesSay(t) && !judged(t, h[i]!) && readsAsEnglish(t)).join(' | ')}`,
    `controls kept home: ${String(c.filter((n, i) => judged(controls[i]!, n) || rulesSay(controls[i]!) || !readsAsEnglish(controls[i]!)).length)} of ${String(controls.length)}`,
  );
}
interface Sample {
  conversation: Record<string, unknown>;
}
const samples = JSON.parse(readFileSync(values.data, 'utf8')) as Sample[];
const talk = samples.flatMap((s) => Object.values(s.conversation).flatMap((v) => (Array.isArray(v) ? (v as { text?: string }[]).flatMap((t) => (t.text ? [t.text] : [])) : [])));
const t = await read(talk);
const noise = readFileSync(values.noise, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter(Boolean);
const n = await read(noise);
const labelled = (texts: string[], near: Reading[]) => texts.filter((x, i) => !rulesSay(x) && readsAsEnglish(x) && near[i]!.labelled).length;
const unread = (texts: string[]) => texts.filter((x) => !rulesSay(x) && !readsAsEnglish(x)).length;
lines.push(
  `ordinary talk (${values.data}, ${String(talk.length)} messages): rules label ${pct(talk.filter(rulesSay).length, talk.length)}; the judge adds ${pct(labelled(talk, t), talk.length)}, and ${pct(unread(talk), talk.length)} it does not read`,
  `  what the judge labels, nearest first: ${talk
    .map((x, i) => ({ x, near: t[i]! }))
    .filter(({ x, near }) => !rulesSay(x) && readsAsEnglish(x) && near.labelled)
    .sort((a, b) => b.near.sensitive - a.near.sensitive)
    .slice(0, 5)
    .map(({ x }) => x.slice(0, 80))
    .join(' | ')}`,
  `noise set (${values.noise}, ${String(noise.length)} lines): the judge adds ${pct(labelled(noise, n), noise.length)}, and ${pct(unread(noise), noise.length)} it does not read`,
  `per text: p50 ${percentile(perText, 50).toFixed(1)} ms, p95 ${percentile(perText, 95).toFixed(1)} ms (${String(perText.length)} texts, one at a time)`,
);
console.log(lines.join('\n'));
