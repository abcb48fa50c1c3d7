/**
 * The privacy boundary at a hosted tool server, on the real composition (buildApp): the tool
 * server (loopback, but declared hosted in mcp.json) records every byte it receives. Whether
 * the chat model is hosted (it never sees the canary) or local (it read the sensitive page
 * and tries to pass it on), no sensitive canary reaches the tool server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { buildApp } from '../../src/main.js';
import { startFakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';
import { startRecordingMcpServer } from '../support/recording-mcp-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const CANARY = { page: 'CANARY-TOOL-PAGE-41ab vault code 7719', entry: 'CANARY-TOOL-ENTRY-9c2f therapist on tuesday' };
const M = '[sensitivity:: sensitive]';
const origin = { name: 'general', key: 'terminal:general' };
const project: Place = { kind: 'project', origin };

interface Request {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

/** The model: loads the remote category, reads the sensitive page, then sends what it read (and the canaries themselves) to the tool. */
function forwarder(): (request: Request, n: number) => ScriptedReply {
  return (request, n) => {
    const names = (request.tools ?? []).map((t) => t.function.name);
    if (n === 0) return { toolCalls: [{ name: 'request_tools', arguments: JSON.stringify({ categories: ['mcp:remote', 'notes'] }) }] };
    if (n === 1 && names.includes('read_note'))
      return {
        toolCalls: [
          { name: 'read_note', arguments: JSON.stringify({ path: 'People/Bob.md' }) },
          { name: 'read_note', arguments: JSON.stringify({ path: 'People/Alice.md' }) },
        ],
      };
    if (n === 2) {
      const seen = request.messages
        .filter((m) => m.role === 'tool')
        .map((m) => String(m.content))
        .join('\n');
      return {
        toolCalls: [
          { name: 'remote__lookup', arguments: JSON.stringify({ q: seen }) },
          { name: 'remote__lookup', arguments: JSON.stringify({ q: `Bob keeps the ${CANARY.page}.` }) },
          { name: 'remote__lookup', arguments: JSON.stringify({ q: `Alice has a ${CANARY.entry}.` }) },
          { name: 'remote__lookup', arguments: JSON.stringify({ q: 'climbing gyms in Leipzig' }) },
        ],
      };
    }
    return { text: 'Looked it up.' };
  };
}

async function setup(locality: 'local' | 'hosted') {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-mcp-egress-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const tools = await startRecordingMcpServer();
  cleanups.push(() => tools.close());
  const model = await startFakeModelServer(forwarder());
  cleanups.push(() => model.close());
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: tools.url, locality: 'hosted' } } }));
  const config = loadConfig(
    {
      LLM_BASE_URL: model.url,
      LLM_LOCALITY: locality,
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      EMBEDDER: 'builtin',
      WATCH_PROJECTS: 'false',
      TURN_MAX_STEPS: '6',
      TURN_MAX_TOOL_CALLS: '20',
      PROJECTS_DIR: join(dir, 'projects'),
      DATA_DIR: dataDir,
    },
    dir,
  );
  const app = await buildApp(config, silentLogger);
  cleanups.push(() => app.close());
  await app.store.ensureProject(origin);
  const root = join(dir, 'projects', 'general');
  mkdirSync(join(root, 'notes', 'People'), { recursive: true });
  writeFileSync(join(root, 'notes', 'People', 'Bob.md'), `---\nschema: 1\ntitle: Bob\nsensitivity: sensitive\n---\n\n### 2026-11-20\n\nBob keeps the ${CANARY.page}.\n`);
  writeFileSync(
    join(root, 'notes', 'People', 'Alice.md'),
    `---\nschema: 1\ntitle: Alice\nsensitivity: personal\n---\n\n### 2026-11-20\n\nAlice likes climbing.\n\n### 2026-11-21 ${M}\n\nAlice has a ${CANARY.entry}.\n`,
  );
  return { app, tools, model };
}

describe('a hosted tool server never receives sensitive memory', () => {
  for (const locality of ['hosted', 'local'] as const) {
    it(`with a ${locality} chat model`, async () => {
      const { app, tools } = await setup(locality);
      const outcome = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: 'look up what Bob keeps', source: 'test:1' }, { tools: { user: { owner: true } } });
      expect(outcome.reply).toContain('Looked it up.');
      // the calls went through (a read-only tool: no question), with the harmless one intact
      expect(tools.calls.length).toBe(4);
      expect(tools.calls.some((c) => JSON.stringify(c.args).includes('climbing gyms in Leipzig'))).toBe(true);
      const received = tools.bodies.join('\n');
      for (const canary of Object.values(CANARY)) expect(received).not.toContain(canary.split(' ')[0]);
    }, 60_000);
  }
});
