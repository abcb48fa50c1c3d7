import { describe, expect, it } from 'vitest';
import { CheckRunner } from '../../src/web/api-settings.js';
import { type CheckLine } from '../../src/web/web-deps.js';

const line = (n: number): CheckLine => ({ part: 'config', name: `check ${n}`, status: 'ok', detail: 'fine', ms: 1 });

describe('the Settings page’s check runner', () => {
  it('joins a run already going, repeats a recent one, and runs again after the interval', async () => {
    let now = 1_000;
    let runs = 0;
    let release: () => void = () => {};
    const runner = new CheckRunner(
      () =>
        new Promise<CheckLine[]>((resolve) => {
          runs++;
          const n = runs;
          release = () => resolve([line(n)]);
        }),
      () => now,
      60_000,
    );
    expect(runner.latest()).toBeNull();
    const first = runner.start();
    const joined = runner.start();
    now += 500;
    release();
    expect((await first).fresh).toBe(true);
    expect((await joined).fresh).toBe(false);
    expect((await joined).run.checks[0]?.name).toBe('check 1');
    expect(runs).toBe(1);
    expect((await first).run.ms).toBe(500);
    // a click soon after answers the same results without running again
    now += 59_000;
    const soon = await runner.start();
    expect(soon).toMatchObject({ fresh: false });
    expect(runs).toBe(1);
    // past the interval it runs again
    now += 2_000;
    const again = runner.start();
    release();
    expect((await again).fresh).toBe(true);
    expect((await again).run.checks[0]?.name).toBe('check 2');
    expect(runner.latest()?.checks[0]?.name).toBe('check 2');
  });

  it('runs again at once after a run that threw (nothing to repeat)', async () => {
    let runs = 0;
    const runner = new CheckRunner(
      () => {
        runs++;
        return runs === 1 ? Promise.reject(new Error('boom')) : Promise.resolve([line(runs)]);
      },
      () => 0,
    );
    await expect(runner.start()).rejects.toThrow('boom');
    expect((await runner.start()).fresh).toBe(true);
    expect(runs).toBe(2);
  });
});
