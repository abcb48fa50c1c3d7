/**
 * The promotion gate on its labelled set (test/fixtures/gate/): every candidate goes through the
 * real gateWrite in time order with one waiting store, as distillation and ingestion hand them
 * over. Prints precision and recall of "promoted"; the fixed rules hold for every row of their class.
 */
import { describe, expect, it } from 'vitest';
import { factors, GATE_WEIGHTS, PROMOTE_AT } from '../../src/core/writing/gate-factors.js';
import { gateWrite } from '../../src/core/writing/promotion.js';
import type { GraphFact } from '../../src/core/ports/index.js';
import { prepare, readGateFixture, replay, scoresOf } from '../../scripts/gate-fixture.js';
import { MemoryCandidates } from '../support/memory-fakes.js';

const fixture = readGateFixture();

async function runGate() {
  const store = new MemoryCandidates();
  const promoted: boolean[] = [];
  const written: GraphFact[] = [];
  for (const row of fixture.rows) {
    const now = new Date(Date.parse(row.entry.time) + 60_000);
    const out = await gateWrite(row.write, [row.entry], { now, tracked: fixture.tracked, lastReflection: fixture.lastReflection }, store);
    const facts = out.write.entities.flatMap((e) => e.facts);
    promoted.push(facts.length > 0);
    written.push(...facts);
  }
  return { promoted, written };
}

describe('the promotion gate on the labelled set', () => {
  it('prints precision and recall of "promoted" and stays within bounds', async () => {
    const { promoted } = await runGate();
    const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
    for (const [name, which] of [
      ['dev', (r: { split: string }) => r.split === 'dev'],
      ['test', (r: { split: string }) => r.split === 'test'],
      ['all', () => true],
    ] as const) {
      const s = scoresOf(fixture.rows, promoted, which);
      console.info(`gate on ${name}: precision ${pct(s.precision)}, recall ${pct(s.recall)} (tp ${String(s.tp)}, fp ${String(s.fp)}, fn ${String(s.fn)})`);
    }
    const all = scoresOf(fixture.rows, promoted);
    expect(fixture.rows.length).toBeGreaterThanOrEqual(200);
    expect(all.precision).toBeGreaterThanOrEqual(0.95);
    expect(all.recall).toBeGreaterThanOrEqual(0.9);
    expect(scoresOf(fixture.rows, promoted, (r) => r.split === 'test').precision).toBeGreaterThanOrEqual(0.9);
    // the sweep's replay (scripts/tune-gate.ts) judges exactly as the gate does
    expect(replay(prepare(fixture), GATE_WEIGHTS, PROMOTE_AT)).toEqual(promoted);
  });

  it('never promotes greetings, weather, Charlie’s own words or tool output; always promotes "remember that"', async () => {
    const { promoted } = await runGate();
    const of = (kind: string) => fixture.rows.flatMap((r, i) => (r.kind === kind ? [{ line: r.line, promoted: promoted[i] }] : []));
    for (const kind of ['greeting', 'weather', 'assistant', 'tool']) {
      expect(of(kind).length).toBeGreaterThan(5);
      expect(of(kind).filter((r) => r.promoted)).toEqual([]);
    }
    expect(of('remember').length).toBeGreaterThan(5);
    expect(of('remember').filter((r) => !r.promoted)).toEqual([]);
  });

  it('lets a passing mention wait, also when repeated in the same conversation, and promotes it when seen in another', async () => {
    const { promoted } = await runGate();
    const repeats = fixture.rows.flatMap((r, i) => (r.kind === 'repeat' ? [i] : []));
    expect(repeats.length).toBeGreaterThanOrEqual(5);
    for (const i of repeats) {
      const row = fixture.rows[i];
      const text = row?.write.entities[0]?.facts[0]?.text;
      const earlier = fixture.rows.flatMap((r, j) => (j < i && r.entity === row?.entity && r.write.entities[0]?.facts[0]?.text === text ? [j] : []));
      expect(earlier.length).toBeGreaterThan(0);
      // every earlier telling waited; this one, in another conversation, is promoted
      expect(earlier.map((j) => promoted[j])).toEqual(earlier.map(() => false));
      expect([fixture.rows[earlier[0] ?? 0]?.conversation === row?.conversation, promoted[i]]).toEqual([false, true]);
    }
    // "Zed has a new job" twice in c36 (waits twice), then in c38 (promoted)
    const zed = fixture.rows.flatMap((r, i) => (r.entity === 'Zed' && r.kind !== 'remember' && r.kind !== 'hedge' ? [[r.conversation, promoted[i]]] : []));
    expect(zed).toEqual([
      ['c36', false],
      ['c36', false],
      ['c38', true],
    ]);
  });

  it('writes the four factors into every promoted record’s history', async () => {
    const { written } = await runGate();
    expect(written.length).toBeGreaterThan(100);
    for (const f of written) expect(f.gate).toMatch(/gate \d\.\d\d \(recency [\d.]+ · salience [\d.]+ · identity [\d.]+ · source [\d.]+\)/);
  });

  it('measures recency against the last reflection, not against now', () => {
    const fact = { text: 'Works at Globex.', type: 'identity', said: '2026-11-01', source: 'https://discord.com/channels/1/2/3' };
    const entry = (time: string) => ({ time, speaker: 'Ann', source: fact.source, text: 'I work at Globex now', role: 'user' as const });
    const ctx = (last: string | null) => ({ tracked: new Set(['ann']), lastReflection: last ? new Date(last) : null });
    expect(factors('Ann', fact, entry('2026-11-20T10:00:00Z'), ctx('2026-11-10T00:00:00Z')).recency).toBe(1);
    expect(factors('Ann', fact, entry('2026-10-27T00:00:00Z'), ctx('2026-11-10T00:00:00Z')).recency).toBeCloseTo(0.25);
    expect(factors('Ann', fact, entry('2026-10-27T00:00:00Z'), ctx(null)).recency).toBe(1);
  });
});
