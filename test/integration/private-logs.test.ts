/**
 * The reproduced leaks, through the real logger at its default level (info): a model that
 * answers distillation in prose, servers whose 400 and 401 bodies echo the request, and a
 * password inside the base URL. Nothing the user said, no key and no password is logged.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { systemClock, type Logger } from '../../src/core/ports/index.js';
import { createLogger } from '../../src/logging.js';
import { buildApp } from '../../src/main.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { startFakeModelServer, type Script } from '../support/fake-model-server.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { testChatModel } from '../support/model-servers.js';
import { pipeTerminal } from '../support/terminal.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const DM_TEXT = 'my biopsy result came back on tuesday';
const KEY = ['sk-', 'live', 'Qp93Lm'.repeat(6)].join('');
const PASSWORD = ['pw', 'Vx7', 'Hq2'].join('-');

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-logs-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function readLog(logger: Logger, file: string): Promise<string> {
  await new Promise((r) => setTimeout(r, 50));
  (logger as unknown as { flush(): void }).flush();
  await new Promise((r) => setTimeout(r, 50));
  return readFileSync(file, 'utf8');
}

async function setup(chat: Script, memory: Script, opts: { apiKey?: string } = {}) {
  const dir = tempDir();
  const file = join(dir, 'logs', 'charlie.log');
  const logger = createLogger('info', file);
  const chatServer = await startFakeModelServer(chat);
  const memoryServer = await startFakeModelServer(memory);
  cleanups.push(
    () => chatServer.close(),
    () => memoryServer.close(),
  );
  const llmLogger = logger.child({ component: 'llm' });
  const model = testChatModel<'hosted'>(chatServer.url, { model: 'chat', locality: 'hosted', logger: llmLogger, ...(opts.apiKey ? { apiKey: opts.apiKey } : {}) });
  const memoryModel = testChatModel(memoryServer.url, { model: 'memory', logger: llmLogger });
  const store = new FileProjectStore({ projectsDir: join(dir, 'projects'), clock: systemClock, logger });
  const privateStore = new SqlitePrivateStore(join(dir, 'private.db'));
  cleanups.push(() => privateStore.close());
  const { assistant } = makeAssistant({ model, memoryModel, store, privateStore, clock: systemClock, logger });
  return { assistant, logger, file, chatServer };
}

const dm: Place = { kind: 'private', userId: '4242', userName: 'Dana' };

describe('logs at info hold no DM text, key or password', () => {
  it('a distillation answered in prose', async () => {
    const t = await setup([{ text: 'ok' }], [{ text: `Sure! Dana said: "${DM_TEXT}". That is all.` }]);
    await t.assistant.conversation.handle({ place: dm, speaker: 'Dana', text: DM_TEXT, source: 'discord:dm:1', reply: false });
    const outcome = await t.assistant.memory.distillNow(dm);
    expect(outcome.error).toMatch(/not JSON/);
    const log = await readLog(t.logger, t.file);
    expect(log).toMatch(/distillation failed/);
    expect(log).not.toContain('biopsy');
  });

  it('a 400 whose body echoes the request', async () => {
    const t = await setup([{ status: 400, errorBody: JSON.stringify({ error: { message: `Invalid content: "${DM_TEXT}"`, code: 'invalid_request' } }) }], []);
    const out = await t.assistant.conversation.handle({ place: dm, speaker: 'Dana', text: DM_TEXT, source: 'discord:dm:2' });
    expect(out.reason).toBe('error');
    const log = await readLog(t.logger, t.file);
    expect(log).toMatch(/turn failed.*|answered 400/);
    expect(log).toContain('400');
    expect(log).not.toContain('biopsy');
  });

  it('a 401 whose body echoes the Authorization header', async () => {
    const t = await setup([{ status: 401, errorBody: JSON.stringify({ error: { message: `Incorrect API key provided: Bearer ${KEY}`, code: 'invalid_api_key' } }) }], [], { apiKey: KEY });
    const out = await t.assistant.conversation.handle({ place: dm, speaker: 'Dana', text: 'hello there', source: 'discord:dm:3' });
    expect(out.reason).toBe('error');
    expect(t.chatServer.requestHeaders[0]?.authorization).toBe(`Bearer ${KEY}`);
    const log = await readLog(t.logger, t.file);
    expect(log).toContain('invalid_api_key');
    expect(log).not.toContain(KEY);
    expect(log).not.toContain(KEY.slice(8, 30));
  });

  it('a password in LLM_BASE_URL: not on the banner, not in config errors, not in the log', async () => {
    const dir = tempDir();
    const server = await startFakeModelServer([{ text: 'hi' }]);
    cleanups.push(() => server.close());
    const withPassword = server.url.replace('http://', `http://admin:${PASSWORD}@`);
    expect(() => loadConfig({ LLM_BASE_URL: withPassword, TURN_MAX_STEPS: 'many' }, dir)).toThrow(/TURN_MAX_STEPS/);
    let configError = '';
    try {
      loadConfig({ LLM_BASE_URL: withPassword.replace('http://', 'http:/'), MEMORY_LLM_BASE_URL: `https://u:${PASSWORD}@api.example.com/v1` }, dir);
    } catch (e) {
      configError = String(e);
    }
    expect(configError).toMatch(/LLM_BASE_URL/);
    expect(configError).not.toContain(PASSWORD);

    const config = loadConfig(
      { LLM_BASE_URL: withPassword, LLM_LOCALITY: 'hosted', EMBEDDER: 'builtin', WATCH_PROJECTS: 'false', PROJECTS_DIR: join(dir, 'projects'), DATA_DIR: join(dir, 'data') },
      dir,
    );
    const file = join(dir, 'charlie.log');
    const logger = createLogger('info', file);
    const app = await buildApp(config, logger);
    cleanups.push(() => app.close());
    logger.info({ url: withPassword }, `starting with ${withPassword}`);
    const notices = app.notices.map((n) => `! ${n}\n`).join('');
    const screen = notices + (await pipeTerminal(app.assistant, '/help\n', { userName: 'me' }));
    expect(screen).toMatch(/chat: chat@|chat: .*\(hosted/);
    expect(screen).toContain('127.0.0.1');
    expect(screen).not.toContain(PASSWORD);
    const log = await readLog(logger, file);
    expect(log).toContain('starting with');
    expect(log).not.toContain(PASSWORD);
  });
});
