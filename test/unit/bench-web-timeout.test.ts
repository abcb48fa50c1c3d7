import { describe, expect, it } from 'vitest';
import { browserStepTimeout } from '../../scripts/bench-web-wire.js';

describe("bench:web's browser step timeout", () => {
  it('is 30 s on a machine at or below one job per core', () => {
    expect(browserStepTimeout(undefined, 0.5, 2).ms).toBe(30_000);
    expect(browserStepTimeout(undefined, 2, 2).ms).toBe(30_000);
  });

  it('scales with the load per core, up to 5 minutes, and says why', () => {
    const t = browserStepTimeout(undefined, 15, 2);
    expect(t.ms).toBe(225_000);
    expect(t.why).toContain('load 15.0 / 2 cores');
    expect(browserStepTimeout(undefined, 80, 2).ms).toBe(300_000);
  });

  it('takes --timeout as given', () => {
    expect(browserStepTimeout(120_000, 15, 2)).toEqual({ ms: 120_000, why: 'timeout 120 s, from --timeout' });
    expect(browserStepTimeout(Number.NaN, 0, 2).ms).toBe(30_000);
  });
});
