/**
 * A project for asking in the moment (issue 40), on the real composition (buildApp) with a hosted
 * chat model behind the scripted fake server and CONSENT_MODE=ask: Ann's own health record
 * and Bob's, each a labelled fact line of their People page; the model reads both pages once
 * per turn, then answers. Every front door's consent test starts here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { buildApp } from '../../src/main.js';
import { startFakeModelServer, type Script } from './fake-model-server.js';
import { writeNote } from './camping-project.js';

export const ANN = 'CANARY-ANN-5d21 takes sumatriptan for migraines';
export const BOB = 'CANARY-BOB-8e40 has a hepatitis diagnosis';
export const project: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };

/** The hosted model: reads both pages once per turn, then answers. */
function searcher() {
  let call = 0;
  return (request: { messages: { role: string }[] }) => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: 'Here is what I found.' };
    call++;
    return {
      toolCalls: [
        { id: `a${call}`, name: 'read_note', arguments: JSON.stringify({ path: 'People/Ann.md' }) },
        { id: `b${call}`, name: 'read_note', arguments: JSON.stringify({ path: 'People/Bob.md' }) },
      ],
    };
  };
}

/** Cleanups a test runs after each case, newest first. */
export type Cleanups = (() => Promise<void> | void)[];

export async function start(dir: string, cleanups: Cleanups, running?: Awaited<ReturnType<typeof startFakeModelServer>>, script: Script = searcher()) {
  // the same model server after a restart (a grant is for one service: the model at its address)
  const server = running ?? (await startFakeModelServer(script));
  if (!running) cleanups.push(() => server.close());
  const config = loadConfig(
    {
      LLM_BASE_URL: server.url,
      LLM_LOCALITY: 'hosted',
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      EMBEDDER: 'builtin',
      WATCH_PROJECTS: 'false',
      CONSENT_MODE: 'ask',
      CONSENT_TIMEOUT_MS: '5000',
      PROJECTS_DIR: join(dir, 'projects'),
      DATA_DIR: join(dir, 'data'),
    },
    dir,
  );
  const app = await buildApp(config, silentLogger);
  let closed = false;
  const close = async () => {
    if (!closed) await app.close();
    closed = true;
  };
  cleanups.push(close);
  return { app, server, close };
}

/** `mcpServers`: data/mcp.json's servers, written before the start; `script`: another hosted model. */
export async function setup(cleanups: Cleanups, more: { mcpServers?: Record<string, { url: string; locality: 'local' | 'hosted' }>; script?: Script } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-consent-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  if (more.mcpServers) {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'mcp.json'), JSON.stringify({ mcpServers: more.mcpServers }));
  }
  const t = await start(dir, cleanups, undefined, more.script);
  await t.app.assistant.settings.showMemory(project);
  const root = join(dir, 'projects', 'general');
  writeNote(root, 'People/Ann.md', `---\nschema: 1\ntitle: Ann\n---\n\n- Ann ${ANN}. [about:: medication] [sensitivity:: sensitive/phi] ^r-a11a11\n`);
  writeNote(root, 'People/Bob.md', `---\nschema: 1\ntitle: Bob\n---\n\n- Bob ${BOB}. [about:: diagnosis] [sensitivity:: sensitive/phi] ^r-b22b22\n`);
  return { dir, ...t };
}
