/**
 * The doctor's embedded-model checks with the real node-llama-cpp and the tiny random GGUF
 * model from test/support/tiny-gguf.ts (nothing is downloaded). Random weights answer nothing
 * sensible, so only the file, load and speed lines are asserted, and how the parts change.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runParts } from '../../src/doctor/check.js';
import { embeddedPart } from '../../src/doctor/embedded-checks.js';
import { doctorParts } from '../../src/doctor/parts.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';

const dir = mkdtempSync(join(tmpdir(), 'charlie-doctor-embedded-'));
const modelPath = writeTinyGguf(join(dir, 'tiny.gguf'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings = { LLM_PROVIDER: 'embedded', EMBEDDED_GPU: 'off', EMBEDDED_THREADS: '1', EMBEDDED_CONTEXT_SIZE: '2048', DATA_DIR: join(dir, 'data') };

describe('doctor: the embedded model', () => {
  it('reports the file, the load and the speed of a model that is there', async () => {
    const part = embeddedPart(loadConfig({ ...settings, EMBEDDED_MODEL_PATH: modelPath }, dir));
    if (part === null) throw new Error('embedded part missing');
    const results = await runParts([part]);
    const by = (name: string) => results.find((r) => r.name === `embedded model: ${name}`);
    expect(by('file')).toMatchObject({ status: 'ok' });
    expect(by('file')?.detail).toContain(modelPath);
    expect(by('loads')).toMatchObject({ status: 'ok' });
    expect(by('loads')?.detail).toMatch(/^loaded in \d+\.\d s on the CPU, context \d+ tokens$/);
    expect(by('speed')?.detail).toMatch(/^\d+ tokens in \d+\.\d s: \d+\.\d tokens\/s/);
    expect(results.map((r) => r.name)).toContain('embedded model: tool calls');
  }, 120_000);

  it('a missing model file fails with how to get it, and the later checks are skipped', async () => {
    const part = embeddedPart(loadConfig({ ...settings, EMBEDDED_MODEL_PATH: join(dir, 'absent.gguf') }, dir));
    if (part === null) throw new Error('embedded part missing');
    const results = await runParts([part]);
    expect(results[0]).toMatchObject({ name: 'embedded model: file', status: 'fail', fix: 'put a GGUF file at EMBEDDED_MODEL_PATH' });
    expect(results.slice(1).every((r) => r.status === 'skip')).toBe(true);
  });

  it('LLM_PROVIDER=embedded: no server lane, and the memory lane is the embedded model; auto without a file: no embedded part', () => {
    const names = (env: Record<string, string>) => doctorParts({ ok: true, config: loadConfig(env, dir) }, { cwd: dir, loadCommands: () => Promise.resolve([]) }).map((p) => p.name);
    expect(names({ ...settings, EMBEDDED_MODEL_PATH: modelPath })).toEqual([
      'config',
      'embedded model',
      'memory lane',
      'embeddings',
      'speech',
      'discord',
      'storage',
      'web app',
      'MCP tool servers',
      'privacy',
    ]);
    expect(names({ DATA_DIR: join(dir, 'data') })).toEqual(['config', 'chat lane', 'memory lane', 'embeddings', 'speech', 'discord', 'storage', 'web app', 'MCP tool servers', 'privacy']);
  });
});
