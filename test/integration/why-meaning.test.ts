/**
 * "Why?" by question ranks the best records by words, then again by meaning with a sentence
 * embedder (core/records/meaning.ts): a record that answers in other words comes first where the
 * words alone put another first; the current record still comes before the one it replaced;
 * an embedder that cannot embed leaves the order by words, and the answer says so. The embedder
 * here is scripted (a table of vectors); one test loads the real model from node_modules.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, type Embedder } from '../../src/core/ports/index.js';
import { explainWhy, whyText } from '../../src/core/inspector/why.js';
import { meaningText } from '../../src/core/records/meaning.js';
import { SentenceEncoderError, UniversalSentenceEncoder } from '../../src/llm/sentence-encoder.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FixedClock } from '../support/fakes.js';
import { recordingLogger } from '../support/recording-logger.js';
import { note, retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';

let fx: RetrievalFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const src = (n: number) => `[source:: [msg](https://discord.com/channels/1/2/${String(n)})]`;
const DESIGN = 'Leads the design team at Acme.';
const RIVER = 'Would love to live by the river one day.';
const QUESTION = 'What does Sarah Chen do for a living?';

/** A scripted sentence embedder: each text's vector from a table (unit vectors of 3 dimensions); any other text points elsewhere. */
function scripted(table: Record<string, number[]>, calls: string[][] = []): Embedder {
  return {
    id: 'scripted:3',
    dimensions: 3,
    semantic: true,
    locality: 'local',
    embed: (texts) => {
      calls.push(texts);
      return Promise.resolve(texts.map((t) => Float32Array.from(table[t] ?? [0, 0, 1])));
    },
  };
}

function sarah(f: RetrievalFixture, lines: string[]): Wiki {
  f.write('home', 'notes/People/Sarah-Chen.md', note('Sarah Chen', `## Facts\n${lines.join('\n')}`));
  return new Wiki({ projectsDir: f.projectsDir, clock: new FixedClock(new Date('2026-07-04T09:00:00Z')), logger: silentLogger });
}

const now = new Date('2026-07-04T09:00:00Z');
const first = (text: string) => text.split('\n')[0];

describe('"why?" by question, ranked by meaning too', () => {
  it('puts the record that answers in other words first, where the words alone put another first', async () => {
    fx = retrievalFixture();
    const graph = sarah(fx, [`- ${DESIGN} [type:: identity] [said:: 2026-06-20] ${src(1)} ^r-aaaa01`, `- ${RIVER} [type:: preference] [said:: 2026-06-21] ${src(2)} ^r-aaaa02`]);
    // by words: "living" is "live", which only the river record holds
    const byWords = await explainWhy(graph, 'home', { query: QUESTION }, now);
    expect(byWords.chains[0]?.statement).toBe(RIVER);
    const calls: string[][] = [];
    const meaning = scripted({ [QUESTION]: [1, 0, 0], [`Sarah Chen: ${DESIGN}`]: [1, 0, 0], [`Sarah Chen: ${RIVER}`]: [0, 1, 0] }, calls);
    const answer = await explainWhy(graph, 'home', { query: QUESTION }, now, undefined, meaning);
    expect(answer.chains.map((c) => c.statement)).toEqual([DESIGN, RIVER]);
    expect(answer.note).toBeUndefined();
    // the question and each record as its subject and statement; nothing else is embedded
    expect(calls.flat().sort()).toEqual([QUESTION, `Sarah Chen: ${DESIGN}`, `Sarah Chen: ${RIVER}`].sort());
  });

  it('keeps the current record before the one it replaced, however close the old one is in meaning', async () => {
    fx = retrievalFixture();
    const graph = sarah(fx, [
      `- Works at Acme. [type:: identity] [about:: employer] [status:: superseded] [said:: 2026-01-10] ${src(3)} ^r-bbbb01`,
      `- Works at Globex. [type:: identity] [about:: employer] [said:: 2026-06-10] ${src(4)} ^r-bbbb02`,
    ]);
    const question = 'Where does Sarah work?';
    const meaning = scripted({ [question]: [1, 0, 0], 'Sarah Chen: Works at Acme.': [1, 0, 0], 'Sarah Chen: Works at Globex.': [0, 1, 0] });
    const answer = await explainWhy(graph, 'home', { query: question }, now, undefined, meaning);
    expect(answer.chains.map((c) => `${c.statement} ${c.status}`)).toEqual(['Works at Globex. active', 'Works at Acme. superseded']);
  });

  it('an embedder that cannot embed leaves the order by words, and the answer says so', async () => {
    fx = retrievalFixture();
    const graph = sarah(fx, [`- ${DESIGN} [type:: identity] [said:: 2026-06-20] ${src(1)} ^r-aaaa01`, `- ${RIVER} [type:: preference] [said:: 2026-06-21] ${src(2)} ^r-aaaa02`]);
    const lines: string[] = [];
    const broken = new UniversalSentenceEncoder(recordingLogger(lines), () => Promise.reject(new Error('wasm backend missing')));
    const answer = await explainWhy(graph, 'home', { query: QUESTION }, now, undefined, broken);
    expect(answer.chains.map((c) => c.statement)).toEqual([RIVER, DESIGN]);
    expect(answer.note).toMatch(/ranked by wording only: .*could not be loaded: wasm backend missing/);
    expect(whyText(answer)).toContain('(ranked by wording only');
    expect(first(whyText(answer))).toContain(RIVER);
    // tried once: the next question is told the same without loading again
    await explainWhy(graph, 'home', { query: QUESTION }, now, undefined, broken);
    await expect(broken.embed(['x'])).rejects.toBeInstanceOf(SentenceEncoderError);
    expect(lines.filter((l) => l.startsWith('warn') && l.includes('wasm backend missing'))).toHaveLength(1);
  });

  it('loads the Universal Sentence Encoder from node_modules (no network) and reads meaning with it', { timeout: 30_000 }, async () => {
    const encoder = new UniversalSentenceEncoder(silentLogger);
    const [q, acme, globex, tea] = await encoder.embed([
      'Where does Sarah work?',
      meaningText({ pageTitle: 'Sarah Chen', statement: 'Leads the design team at Acme.', status: 'active' }),
      'Works at Globex.',
      'Sarah Chen: Likes green tea.',
    ]);
    const cos = (a?: Float32Array, b?: Float32Array) => (a && b ? a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0) : NaN);
    expect(q).toHaveLength(512);
    expect(cos(q, q)).toBeCloseTo(1, 4);
    expect(cos(q, acme)).toBeGreaterThan(cos(q, tea));
    expect(cos(q, globex)).toBeGreaterThan(cos(q, tea));
  });
});
