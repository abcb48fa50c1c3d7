/**
 * The promotion gate and "why?" by question, measured on facts nobody here chose (issue 39):
 *
 *   1. LoCoMo's annotated observations (per-session facts with the dialog turn each came from)
 *      fed to the real gate (gateWrite) as the candidates distillation would produce: one batch
 *      per session, the fact about its speaker, its turn as the message and source, no type
 *      (the gate reads the kind from the statement), memory so far as what novelty is judged
 *      against. Reported: the share that reaches memory at first mention, by kind.
 *   2. A noise set (test/fixtures/gate/noise.txt: greetings, thanks, small talk, weather,
 *      filler), each line as message and fact about its speaker: the share that reaches memory.
 *   3. Why-by-question: LoCoMo's questions (categories 1–4) whose evidence turns produced
 *      records, asked of the conversation's records at its full size with the one ranking every
 *      front door uses (core/records/match.ts): the share where a record from an evidence turn
 *      comes first. Reported twice: as a project's `/memory why` ranks them (the best 100 ranked
 *      again with the archive messages that said them, core/inspector/why.ts), and on the
 *      records' own words alone (the figure before the messages were read, and a DM's ranking).
 *      A project's ranking ends with the best 30 ranked again by meaning (core/records/meaning.ts,
 *      the Universal Sentence Encoder in node_modules: its load time and memory are reported);
 *      `--words` leaves that out (the ranking by words alone, as when the model cannot load).
 *
 *   npm run bench:gate -- --data ../shared/bench-data/locomo-dev.json [--noise FILE] [--json] [--misses] [--words]
 *
 * `--misses` prints each question whose answering record was not first, with the record that was,
 * the place the first answering record took (in the best 100) and whether the record first came
 * from a turn next to an evidence turn (one or two turns away in the same session: the same
 * exchange, often the question it answered or the speaker's next line), then a count of both.
 *
 * The data is read where it is, never copied into the project.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { kindOf } from '../src/core/writing/gate-significance.js';
import type { GraphFact, GraphWrite, LogEntry } from '../src/core/ports/index.js';
import { gateWrite, restates, type KnownRecord } from '../src/core/writing/promotion.js';
import { type Candidate, type CandidateStore } from '../src/core/records/candidates.js';
import { rankRecords } from '../src/core/records/match.js';
import { scoreWithMessages, type MessagesOn } from '../src/core/inspector/why.js';
import { byMeaning } from '../src/core/records/meaning.js';
import type { Embedder } from '../src/core/ports/index.js';
import { UniversalSentenceEncoder } from '../src/llm/sentence-encoder.js';
import { silentLogger } from '../src/core/ports/index.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    noise: { type: 'string', default: 'test/fixtures/gate/noise.txt' },
    json: { type: 'boolean', default: false },
    misses: { type: 'boolean', default: false },
    words: { type: 'boolean', default: false },
  },
});
if (!values.data) {
  console.error('usage: npm run bench:gate -- --data PATH/locomo-dev.json [--noise FILE] [--json]');
  process.exit(2);
}

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
  /** The source is one turn, or (a few) a list of turns: the first is the fact's message. */
  observation: Record<string, Record<string, [string, string | string[]][]>>;
}

class Waiting implements CandidateStore {
  items: Candidate[] = [];
  list(): Promise<Candidate[]> {
    return Promise.resolve(this.items);
  }
  replace(c: Candidate[]): Promise<void> {
    this.items = c;
    return Promise.resolve();
  }
}

/** "1:56 pm on 8 May, 2023" → ISO; the turn's minute is its place in the session. */
function sessionTime(text: string): number {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s*on\s*(\d{1,2})\s+(\w+),?\s*(\d{4})/i.exec(text);
  if (!m) return Date.parse('2023-01-01T00:00:00Z');
  const [, h, min, ap, d, month, y] = m;
  const hour = (Number(h) % 12) + ((ap ?? '').toLowerCase() === 'pm' ? 12 : 0);
  return Date.parse(`${d ?? '1'} ${month ?? 'Jan'} ${y ?? '2023'} ${String(hour)}:${min ?? '00'} UTC`);
}

/** Evidence ids as the bench-data README normalises them. */
function evidenceOf(raw: readonly string[] = []): string[] {
  return raw
    .flatMap((e) => e.split(/[;,\s]+/))
    .map((e) => /^D:?(\d+):0*(\d+)$/.exec(e.trim()))
    .flatMap((m) => (m ? [`D${m[1] ?? ''}:${m[2] ?? ''}`] : []));
}

interface Tally {
  seen: number;
  reached: number;
}
const tally = (t: Map<string, Tally>, kind: string, reached: boolean) => {
  const x = t.get(kind) ?? { seen: 0, reached: 0 };
  x.seen++;
  if (reached) x.reached++;
  t.set(kind, x);
};

interface HeldRecord {
  statement: string;
  /** The day it was said (the session's): a question naming a day or month finds the records said then. */
  said: string;
  pageTitle: string;
  status: string;
  dia: string;
  /** The message it came from (the turn's archive entry). */
  provenance: { source: string };
}

async function observations(sample: Sample, kinds: Map<string, Tally>, archive: LogEntry[]): Promise<HeldRecord[]> {
  const conv = sample.conversation;
  const speakers = [String(conv.speaker_a), String(conv.speaker_b)];
  const store = new Waiting();
  const held: HeldRecord[] = [];
  const known: KnownRecord[] = [];
  for (let n = 1; Array.isArray(conv[`session_${String(n)}`]); n++) {
    const turns = conv[`session_${String(n)}`] as Turn[];
    const start = sessionTime(String(conv[`session_${String(n)}_date_time`]));
    const entries: LogEntry[] = turns.map((t, i) => ({
      time: new Date(start + i * 60_000).toISOString(),
      speaker: t.speaker,
      source: `locomo:${sample.sample_id}:${t.dia_id}`,
      text: t.blip_caption ? `${t.text} [shared ${t.blip_caption}]` : t.text,
      role: 'user',
    }));
    archive.push(...entries);
    const byDia = new Map(turns.map((t, i) => [t.dia_id, entries[i]]));
    const obs = sample.observation[`session_${String(n)}_observation`] ?? {};
    const write: GraphWrite = { origin: 'distillation', links: [], entities: [] };
    const dias = new Map<GraphFact, string>();
    for (const [speaker, facts] of Object.entries(obs)) {
      const list: GraphFact[] = [];
      for (const [text, source] of facts) {
        const dia = (Array.isArray(source) ? (source[0] ?? '') : source).trim();
        const entry = byDia.get(dia);
        if (!entry) continue;
        const f: GraphFact = { text, said: entry.time.slice(0, 10), source: entry.source };
        dias.set(f, dia);
        list.push(f);
      }
      write.entities.push({ name: speaker, create: true, facts: list });
    }
    const now = new Date(start + turns.length * 60_000 + 3_600_000);
    const out = await gateWrite(write, entries, { now, tracked: speakers, known, lastReflection: null }, store);
    const promoted = new Set(out.report.promoted.map((p) => `${p.entity}\n${p.text}`));
    const fresh: HeldRecord[] = [];
    for (const e of write.entities)
      for (const f of e.facts) {
        // told again in other words: the gate refreshed the record memory holds (the same judgement it made)
        const restated = restates(e.name, f.text, known) !== null;
        const reached = restated || promoted.has(`${e.name}\n${f.text}`);
        tally(kinds, kindOf(f.text) || 'untyped', reached);
        if (reached && !restated) fresh.push({ statement: f.text, said: f.said, pageTitle: e.name, status: 'active', dia: dias.get(f) ?? '', provenance: { source: f.source } });
      }
    held.push(...fresh);
    known.push(...fresh.map((r) => ({ names: [r.pageTitle], statement: r.statement })));
  }
  return held;
}

async function noise(file: string): Promise<{ seen: number; reached: number; promoted: string[] }> {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const store = new Waiting();
  const promoted: string[] = [];
  for (const [i, text] of lines.entries()) {
    const time = new Date(Date.parse('2026-11-02T09:00:00Z') + i * 60_000).toISOString();
    const entry: LogEntry = { time, speaker: 'Ann', source: `noise:${String(i + 1)}`, text, role: 'user' };
    const write: GraphWrite = { origin: 'distillation', links: [], entities: [{ name: 'Ann', create: true, facts: [{ text, said: time.slice(0, 10), source: entry.source }] }] };
    const out = await gateWrite(write, [entry], { now: new Date(Date.parse(time) + 60_000), tracked: ['Ann', 'Ben'], lastReflection: null }, store);
    if (out.write.entities.some((e) => e.facts.length > 0)) promoted.push(text);
  }
  return { seen: lines.length, reached: promoted.length, promoted };
}

/** LoCoMo's question categories (bench-data README). */
const CATEGORY: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain inference', 4: 'single-hop' };
type Why = { asked: number; first: number; shown: number; byCategory: Record<string, { asked: number; first: number }> };
/** For `--misses`: where each missed question's first answering record stood (0: not in the best 100), and whether the record first was from a turn next to an evidence turn. */
const missPlaces: { place: number; near: boolean }[] = [];
/** Two turns ("D3:7", "D3:9") of one session, one or two turns apart. */
function nextTo(a: string, b: string): boolean {
  const [sa, ta] = a.slice(1).split(':').map(Number);
  const [sb, tb] = b.slice(1).split(':').map(Number);
  return sa === sb && ta !== undefined && tb !== undefined && ta !== tb && Math.abs(ta - tb) <= 2;
}
/** Each question's time (ms) ranking as `/memory why` does, at the conversation's full size. */
const whyTimes: number[] = [];
/** The sentence model `/memory why` ranks by meaning with (none with `--words`: the ranking by words alone). */
const meaning: Embedder | undefined = values.words ? undefined : new UniversalSentenceEncoder(silentLogger);
/** The records that answer a question as a project's `/memory why` ranks them: with their messages, then by meaning. */
async function whyRanked(records: readonly HeldRecord[], question: string, limit: number, messages: MessagesOn): Promise<HeldRecord[]> {
  const scored = await scoreWithMessages(records, question, messages);
  return (meaning && scored.length > 1 ? await byMeaning(scored, question, meaning) : scored).slice(0, limit).map((s) => s.record);
}
async function whyByQuestion(sample: Sample, records: readonly HeldRecord[], misses: boolean, messages?: MessagesOn): Promise<Why> {
  const withRecords = new Set(records.map((r) => r.dia));
  let asked = 0;
  let first = 0;
  let shown = 0;
  const byCategory: Why['byCategory'] = {};
  for (const q of sample.qa) {
    if (q.category < 1 || q.category > 4) continue;
    const gold = evidenceOf(q.evidence);
    if (!gold.some((d) => withRecords.has(d))) continue;
    asked++;
    const category = (byCategory[CATEGORY[q.category] ?? '?'] ??= { asked: 0, first: 0 });
    category.asked++;
    const started = performance.now();
    const three = messages ? await whyRanked(records, q.question, 3, messages) : rankRecords(records, q.question, 3);
    if (messages) whyTimes.push(performance.now() - started);
    const top = three[0];
    if (three.some((r) => gold.includes(r.dia))) shown++;
    if (top && gold.includes(top.dia)) {
      first++;
      category.first++;
    } else if (misses) {
      const place = messages ? (await whyRanked(records, q.question, 100, messages)).findIndex((r) => gold.includes(r.dia)) + 1 : 0;
      const near = top !== undefined && gold.some((g) => nextTo(g, top.dia));
      missPlaces.push({ place, near });
      console.error(
        `MISS [${CATEGORY[q.category] ?? '?'}] ${q.question}${place ? ` (answer at place ${String(place)})` : ' (answer not in the best 100)'}${near ? ' (top from a turn next to an evidence turn)' : ''}\n  top: ${top?.statement ?? '-'}\n  gold: ${records
          .filter((r) => gold.includes(r.dia))
          .map((r) => r.statement)
          .join(' / ')}`,
      );
    }
  }
  return { asked, first, shown, byCategory };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');
const samples = JSON.parse(readFileSync(values.data, 'utf8')) as Sample[];
const kinds = new Map<string, Tally>();
const add = (a: Why, b: Why): Why => {
  const byCategory = { ...a.byCategory };
  for (const [k, v] of Object.entries(b.byCategory)) byCategory[k] = { asked: (byCategory[k]?.asked ?? 0) + v.asked, first: (byCategory[k]?.first ?? 0) + v.first };
  return { asked: a.asked + b.asked, first: a.first + b.first, shown: a.shown + b.shown, byCategory };
};
const none = (): Why => ({ asked: 0, first: 0, shown: 0, byCategory: {} });
let why = none();
let ownWords = none();
const perConversation: string[] = [];
/** The sentence model's load: its time and the memory it added (before any question, so nothing else is counted). */
const rss = process.memoryUsage().rss;
const loadStarted = performance.now();
await meaning?.embed(['load']);
const load = { ms: performance.now() - loadStarted, mb: (process.memoryUsage().rss - rss) / 1e6 };
/** Every conversation's records and messages together (about 1,000 records on dev): the time a question takes at that size. */
const together: { records: HeldRecord[]; archive: LogEntry[]; questions: string[] } = { records: [], archive: [], questions: [] };
for (const s of samples) {
  const archive: LogEntry[] = [];
  const records = await observations(s, kinds, archive);
  const w = await whyByQuestion(s, records, values.misses || !!process.env.BENCH_GATE_MISSES, (days) => Promise.resolve(archive.filter((e) => days.includes(e.time.slice(0, 10)))));
  const alone = await whyByQuestion(s, records, false);
  together.records.push(...records);
  together.archive.push(...archive);
  together.questions.push(...s.qa.filter((q) => q.category >= 1 && q.category <= 4).map((q) => q.question));
  why = add(why, w);
  ownWords = add(ownWords, alone);
  perConversation.push(`  ${s.sample_id}: ${String(records.length)} records; why first ${pct(w.first, w.asked)} of ${String(w.asked)} (${pct(alone.first, alone.asked)} on the records' own words)`);
}
const { asked, first, shown } = why;
const largeTimes: number[] = [];
const onDays = (days: readonly string[]) => Promise.resolve(together.archive.filter((e) => days.includes(e.time.slice(0, 10))));
for (const q of together.questions.slice(0, 200)) {
  const started = performance.now();
  await whyRanked(together.records, q, 3, onDays);
  largeTimes.push(performance.now() - started);
}
const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const timing = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms`;
const all = [...kinds.values()].reduce((a, t) => ({ seen: a.seen + t.seen, reached: a.reached + t.reached }), { seen: 0, reached: 0 });
const n = await noise(values.noise);
if (values.json) {
  console.log(
    JSON.stringify({
      observations: all,
      kinds: Object.fromEntries(kinds),
      noise: { seen: n.seen, reached: n.reached },
      why,
      whyOwnWords: ownWords,
      meaning: meaning ? { id: meaning.id, loadMs: load.ms, rssMb: load.mb } : null,
      whyMs: { p50: quantile(whyTimes, 0.5), p95: quantile(whyTimes, 0.95), records: together.records.length, largeP50: quantile(largeTimes, 0.5), largeP95: quantile(largeTimes, 0.95) },
    }),
  );
} else {
  console.log(`data: ${values.data} (${String(samples.length)} conversations)`);
  console.log(`observations reaching memory at first mention: ${pct(all.reached, all.seen)} (${String(all.reached)} of ${String(all.seen)})`);
  for (const [kind, t] of [...kinds.entries()].sort((a, b) => b[1].seen - a[1].seen)) console.log(`  ${kind.padEnd(13)} ${pct(t.reached, t.seen).padStart(7)} of ${String(t.seen)}`);
  console.log(`noise reaching memory: ${pct(n.reached, n.seen)} (${String(n.reached)} of ${String(n.seen)} lines)${n.promoted.length ? `: ${n.promoted.slice(0, 10).join(' | ')}` : ''}`);
  console.log(
    `why-by-question, answering record first: ${pct(first, asked)} (${String(first)} of ${String(asked)} questions whose evidence produced records); among the 3 shown: ${pct(shown, asked)}`,
  );
  console.log(
    `  by question type: ${Object.entries(why.byCategory)
      .map(([k, c]) => `${k} ${pct(c.first, c.asked)} (${String(c.first)} of ${String(c.asked)})`)
      .join(', ')}`,
  );
  console.log(
    `  on the records' own words alone (no archive messages read; a DM's ranking): ${pct(ownWords.first, ownWords.asked)} first (${String(ownWords.first)}); among the 3 shown: ${pct(ownWords.shown, ownWords.asked)}`,
  );
  for (const l of perConversation) console.log(l);
  if (missPlaces.length) {
    const count = (f: (p: number) => boolean) => String(missPlaces.filter((m) => f(m.place)).length);
    console.log(
      `  misses (${String(missPlaces.length)}): answer 2nd–3rd ${count((p) => p >= 2 && p <= 3)}, 4th–10th ${count((p) => p >= 4 && p <= 10)}, 11th–100th ${count((p) => p > 10)}, not in the best 100 ${count((p) => p === 0)}; record first from a turn next to an evidence turn: ${String(missPlaces.filter((m) => m.near).length)}`,
    );
  }
  console.log(meaning ? `  ranked by meaning too (${meaning.id}): loaded in ${load.ms.toFixed(0)} ms, adding ${load.mb.toFixed(0)} MB of memory` : '  ranked by words only (--words)');
  console.log(
    `  time per question: ${timing(whyTimes)} at each conversation's size; ${timing(largeTimes)} at ${String(together.records.length)} records (all conversations together, ${String(largeTimes.length)} questions)`,
  );
}
