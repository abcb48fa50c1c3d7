import { describe, expect, it } from 'vitest';
import { applyIndexRuntime, loadConfig } from '../../src/config.js';
import { recallSettings } from '../../src/memory/recall.js';

describe('retrieval settings', () => {
  it('have defaults tuned on the LoCoMo dev split and map onto recall', () => {
    const config = loadConfig({}, '/nonexistent-dir-for-config-test');
    const { weights, chunking } = recallSettings(config);
    expect(weights).toMatchObject({ vector: 0.7, keyword: 0.3, usage: 0.3, minSimilarity: 0.35, contextBoost: 0.8, recency: 0.1, entity: 0.6 });
    expect(chunking).toEqual({ neighbours: 2 });
    expect(recallSettings(config).candidates).toBe(100);
  });

  it('gives the index engine at least 4 threads unless the owner chose', () => {
    const env: Record<string, string | undefined> = {};
    applyIndexRuntime({ INDEX_CPU_THREADS: 0 }, env);
    expect(Number(env.LANCE_CPU_THREADS)).toBeGreaterThanOrEqual(4);
    const chosen: Record<string, string | undefined> = { LANCE_CPU_THREADS: '2' };
    applyIndexRuntime({ INDEX_CPU_THREADS: 16 }, chosen);
    expect(chosen.LANCE_CPU_THREADS).toBe('2');
    const explicit: Record<string, string | undefined> = {};
    applyIndexRuntime({ INDEX_CPU_THREADS: 6 }, explicit);
    expect(explicit.LANCE_CPU_THREADS).toBe('6');
  });
});
