/**
 * Chooses the promotion gate's weights and threshold on the dev conversations of the labelled
 * set (test/fixtures/gate/), and prints the sweep and the test conversations' figures for the
 * best choice and for the weights in use (gate-factors.ts GATE_WEIGHTS / PROMOTE_AT).
 *
 *   npm run tune:gate
 */
import { GATE_WEIGHTS, PROMOTE_AT, type GateWeights } from '../src/core/writing/gate-factors.js';
import { prepare, readGateFixture, replay, scoresOf, type Scores } from './gate-fixture.js';

const fixture = readGateFixture();
const prepared = prepare(fixture);
const rows = fixture.rows;
const dev = (r: { split: string }) => r.split === 'dev';
const test = (r: { split: string }) => r.split === 'test';

const STEP = 0.05;
const results: { weights: GateWeights; threshold: number; dev: Scores }[] = [];
const steps = Math.round(1 / STEP);
for (let a = 0; a <= steps; a++)
  for (let b = 0; a + b <= steps; b++)
    for (let c = 0; a + b + c <= steps; c++) {
      const weights = { recency: a * STEP, salience: b * STEP, identity: c * STEP, source: (steps - a - b - c) * STEP };
      for (let t = 40; t <= 90; t++) {
        const threshold = t / 100;
        results.push({ weights, threshold, dev: scoresOf(rows, replay(prepared, weights, threshold), dev) });
      }
    }
// best F0.5 on dev; ties go to the simpler, rounder choice (higher threshold, then fewer nonzero weights)
results.sort((x, y) => y.dev.f - x.dev.f || y.dev.recall - x.dev.recall || y.threshold - x.threshold);
const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
const w = (g: GateWeights) => `recency ${g.recency.toFixed(2)} · salience ${g.salience.toFixed(2)} · identity ${g.identity.toFixed(2)} · source ${g.source.toFixed(2)}`;
const line = (s: Scores) => `precision ${pct(s.precision)}  recall ${pct(s.recall)}  F0.5 ${s.f.toFixed(3)}  (tp ${String(s.tp)}, fp ${String(s.fp)}, fn ${String(s.fn)})`;

console.log(
  `labelled set: ${String(rows.length)} candidates (${String(rows.filter(dev).length)} dev, ${String(rows.filter(test).length)} test), ${String(rows.filter((r) => r.label).length)} durable`,
);
console.log(`swept ${String(results.length)} weight/threshold choices on dev; the top 10:`);
for (const r of results.slice(0, 10)) console.log(`  ${w(r.weights)}  at ${r.threshold.toFixed(2)}: ${line(r.dev)}`);
const best = results[0];
if (best) {
  const promoted = replay(prepared, best.weights, best.threshold);
  console.log(`\nbest on dev, judged on test: ${line(scoresOf(rows, promoted, test))}`);
}
const inUse = replay(prepared, GATE_WEIGHTS, PROMOTE_AT);
console.log(`\nin use (${w(GATE_WEIGHTS)} at ${PROMOTE_AT.toFixed(2)}):`);
console.log(`  dev   ${line(scoresOf(rows, inUse, dev))}`);
console.log(`  test  ${line(scoresOf(rows, inUse, test))}`);
console.log(`  all   ${line(scoresOf(rows, inUse))}`);
const wrong = rows.filter((r, i) => inUse[i] !== r.label);
console.log(`\nwrong verdicts in use (${String(wrong.length)}):`);
for (const r of wrong) console.log(`  line ${String(r.line)} [${r.kind}] ${r.label ? 'missed' : 'promoted'}: ${r.entity}: ${r.write.entities[0]?.facts[0]?.text ?? ''}`);
