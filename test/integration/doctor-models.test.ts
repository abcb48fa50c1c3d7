import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runParts, type CheckResult } from '../../src/doctor/check.js';
import { conformanceStartLine } from '../../src/doctor/conformance-store.js';
import { chatLane, memoryLane } from '../../src/doctor/lane.js';
import { memoryLanePart, modelLanePart } from '../../src/doctor/model-lane-part.js';
import { behaviourScript, type Behaviour, type ProbeRequest } from '../support/fake-model-behaviours.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function doctorAgainst(behaviour: Behaviour, env: Record<string, string> = {}, serverOptions: Parameters<typeof startFakeModelServer>[1] = {}) {
  const server: FakeModelServer = await startFakeModelServer(behaviourScript(behaviour), { models: [{ id: 'fake-model', context_length: 32768 }], ...serverOptions });
  const dir = mkdtempSync(join(tmpdir(), 'charlie-doctor-'));
  cleanup.push(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const config = loadConfig({ LLM_BASE_URL: server.url, LLM_MODEL: 'fake-model', DATA_DIR: join(dir, 'data'), PROJECTS_DIR: join(dir, 'projects'), ...env }, dir);
  const results = await runParts([modelLanePart(chatLane(config), config)]);
  const by = (name: string): CheckResult => {
    const found = results.find((r) => r.name === `chat lane: ${name}`);
    if (!found) throw new Error(`no check ${name}: ${results.map((r) => r.name).join(', ')}`);
    return found;
  };
  return { results, by, config, server };
}

describe('doctor: the chat lane against scripted model servers', () => {
  it('a good model passes every conformance check, and the result is kept for start-up', async () => {
    const { by, config, server } = await doctorAgainst('good', { LLM_ACCEPTS_IMAGES: 'true' });
    for (const name of ['server', 'model', 'local or hosted', 'streaming', 'tool calls', 'JSON output', 'context length', 'image input', 'results kept']) {
      expect([name, by(name).status, by(name).detail]).toEqual([name, 'ok', by(name).detail]);
    }
    expect(by('local or hosted').detail).toMatch(/^local: 127\.0\.0\.1 is a loopback/);
    expect(by('context length').detail).toContain('declared 32768 tokens');
    // the tool round trip really sent the tool result back
    expect(server.requests.some((r: { messages: { role: string }[] }) => r.messages.some((m) => m.role === 'tool'))).toBe(true);
    expect(conformanceStartLine(config.dataDir, 'fake-model', server.url)).toMatch(/^fake-model: tools ok, JSON ok, 32k context, images ok \(npm run doctor, \d{4}-\d\d-\d\d\)$/);
  });

  it('a model that never calls tools fails the tool check, with what to do', async () => {
    const { by, config, server } = await doctorAgainst('never-calls-tools');
    expect(by('tool calls').status).toBe('fail');
    expect(by('tool calls').detail).toContain('without calling the tool');
    expect(by('tool calls').fix).toMatch(/model trained for tool calls/);
    expect(by('JSON output').status).toBe('ok');
    expect(conformanceStartLine(config.dataDir, 'fake-model', server.url)).toMatch(/^fake-model: NO tool calls, JSON ok/);
  });

  it('a model with broken JSON fails the JSON check', async () => {
    const { by } = await doctorAgainst('broken-json');
    expect(by('JSON output').status).toBe('fail');
    expect(by('JSON output').detail).toContain('not valid JSON');
    expect(by('JSON output').fix).toMatch(/JSON/);
    expect(by('tool calls').status).toBe('ok');
  });

  it('a server that ignores `stream` gets a warning, and the rest still works through Charlie', async () => {
    const { by, config, server } = await doctorAgainst('ignores-stream');
    expect(by('streaming').status).toBe('warn');
    expect(by('streaming').detail).toContain('ignores `stream`');
    expect(by('streaming').fix).toMatch(/streams/);
    expect(by('tool calls').status).toBe('ok');
    expect(by('JSON output').status).toBe('ok');
    expect(conformanceStartLine(config.dataDir, 'fake-model', server.url)).toContain('streaming ignored');
  });

  it('a model loaded with too small a context fails the context check (LM Studio reports the loaded context)', async () => {
    const { by } = await doctorAgainst('good', {}, { getRoutes: { '/api/v0/models/fake-model': { id: 'fake-model', loaded_context_length: 4096, max_context_length: 32768 } } });
    expect(by('context length').status).toBe('fail');
    expect(by('context length').detail).toBe('declared 4096 tokens; Charlie needs about 8192');
    expect(by('context length').fix).toMatch(/LM Studio: model settings → Context Length/);
  });

  it('a server that cuts long prompts gets a warning (the passphrase at the start is lost)', async () => {
    const server = await startFakeModelServer((body: ProbeRequest) =>
      String(body.messages.at(-1)?.content ?? '').includes('passphrase') ? { text: 'I cannot see one.' } : behaviourScript('good')(body),
    );
    const dir = mkdtempSync(join(tmpdir(), 'charlie-doctor-'));
    cleanup.push(async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const config = loadConfig({ LLM_BASE_URL: server.url, LLM_MODEL: 'fake-model', DATA_DIR: join(dir, 'data') }, dir);
    const results = await runParts([modelLanePart(chatLane(config), config)]);
    const context = results.find((r) => r.name === 'chat lane: context length');
    expect(context).toMatchObject({ status: 'warn' });
    expect(context?.detail).toContain('the server seems to cut long prompts');
  });

  it('a model id the server does not have fails, naming the ids it has, and skips the conformance run', async () => {
    const { by } = await doctorAgainst('good', { LLM_MODEL: 'qwen-typo' }, { rejectUnknownModels: true });
    expect(by('model').status).toBe('fail');
    expect(by('model').detail).toBe('"qwen-typo" is not on the server (it has: fake-model)');
    expect(by('model').fix).toMatch(/LLM_MODEL/);
    expect(by('tool calls').status).toBe('skip');
  });

  it('a server that lists no models but answers 404 for the model id fails with the fix', async () => {
    const { by } = await doctorAgainst('good', { LLM_MODEL: 'qwen-typo' }, { models: [], rejectUnknownModels: true });
    expect(by('model').status).toBe('warn');
    for (const name of ['streaming', 'tool calls', 'JSON output']) {
      expect(by(name).status).toBe('fail');
      expect(by(name).detail).toBe('the server answered 404 for model "qwen-typo"');
      expect(by(name).fix).toMatch(/^set LLM_MODEL to a model id the server has/);
    }
  });

  it('no server at all: one clear failure with how to start one, no conformance run', async () => {
    const { by } = await doctorAgainst('good', { LLM_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(by('server').status).toBe('fail');
    expect(by('server').detail).toContain('no model server at http://127.0.0.1:9/v1');
    expect(by('server').fix).toMatch(/LM Studio/);
    expect(by('tool calls').status).toBe('skip');
  });

  it('a separate memory model gets its own conformance run (here: broken JSON), and its result is kept apart', async () => {
    const { config, server: chatServer } = await doctorAgainst('good');
    const memoryServer = await startFakeModelServer(behaviourScript('broken-json'), { models: [{ id: 'small-local' }] });
    cleanup.push(() => memoryServer.close());
    const withMemory = loadConfig(
      { LLM_BASE_URL: chatServer.url, LLM_MODEL: 'fake-model', MEMORY_LLM_BASE_URL: memoryServer.url, MEMORY_LLM_MODEL: 'small-local', DATA_DIR: config.dataDir },
      config.dataDir,
    );
    const results = await runParts([memoryLanePart(chatLane(withMemory), memoryLane(withMemory), withMemory)]);
    const json = results.find((r) => r.name === 'memory lane: JSON output');
    expect(json).toMatchObject({ status: 'fail' });
    expect(json?.fix).toMatch(/JSON/);
    expect(results.find((r) => r.name === 'memory lane: local or hosted')?.detail).toMatch(/^local: 127\.0\.0\.1 .*MEMORY_LLM_LOCALITY=auto/);
    expect(conformanceStartLine(config.dataDir, 'small-local', memoryServer.url)).toMatch(/^small-local: tools ok, BROKEN JSON/);
  });

  it('a hosted chat model with no local memory model: a warning that nothing is distilled, with what to set', async () => {
    const { config, server } = await doctorAgainst('good');
    const hosted = loadConfig({ LLM_BASE_URL: server.url, LLM_LOCALITY: 'hosted', DATA_DIR: config.dataDir }, config.dataDir);
    const results = await runParts([memoryLanePart(chatLane(hosted), memoryLane(hosted), hosted)]);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: 'memory lane', status: 'warn' });
    expect(results[0]?.detail).toContain('nothing is distilled into memory');
    expect(results[0]?.fix).toMatch(/^set MEMORY_LLM_BASE_URL/);
  });
});
