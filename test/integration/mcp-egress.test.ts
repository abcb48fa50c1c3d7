/**
 * The privacy boundary at a hosted tool server, on the real composition (buildApp): the tool
 * server (loopback, but declared hosted in mcp.json) records every byte it receives. It is
 * decided by label: a turn that drew on sensitive context (a page it read, its own message
 * the rules call sensitive) calls no hosted tool server with arguments, whatever their wording
 * (whole lines, fragments, "what does locker number … of my friend Bob open"); an ordinary
 * turn's call goes through.
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

async function setup(locality: 'local' | 'hosted', script: (request: Request, n: number) => ScriptedReply) {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-mcp-egress-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const tools = await startRecordingMcpServer();
  cleanups.push(() => tools.close());
  const model = await startFakeModelServer(script);
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

/** A model that looks something up with each of `questions`, first reading `reads` (note paths) when given. */
function asker(questions: string[], reads: string[] = []): (request: Request, n: number) => ScriptedReply {
  return (request, n) => {
    const names = (request.tools ?? []).map((t) => t.function.name);
    if (n === 0) return { toolCalls: [{ name: 'request_tools', arguments: JSON.stringify({ categories: ['mcp:remote', 'notes'] }) }] };
    if (n === 1 && reads.length && names.includes('read_note')) return { toolCalls: reads.map((path) => ({ name: 'read_note', arguments: JSON.stringify({ path }) })) };
    if (n === (reads.length ? 2 : 1)) return { toolCalls: questions.map((q) => ({ name: 'remote__lookup', arguments: JSON.stringify({ q }) })) };
    return { text: 'Looked it up.' };
  };
}

describe('a hosted tool server never receives sensitive memory', () => {
  for (const locality of ['hosted', 'local'] as const) {
    it(`with a ${locality} chat model: a turn that read a sensitive page sends it nothing, in any wording`, async () => {
      const { app, tools } = await setup(locality, forwarder());
      const outcome = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: 'look up what Bob keeps', source: 'test:1' }, { tools: { user: { owner: true } } });
      expect(outcome.reply).toContain('Looked it up.');
      // the old line matcher let a reworded call through; the label refuses every call of the turn
      expect(tools.calls).toEqual([]);
      const received = tools.bodies.join('\n');
      for (const canary of Object.values(CANARY)) expect(received).not.toContain(canary.split(' ')[0]);
    }, 60_000);
  }

  it('a local model that read the page rewords it ("what does locker number … of my friend Bob open"): not called; an ordinary turn is', async () => {
    const reworded = ['what does locker number 7719 of my friend Bob open', 'vault code of my friend Bob', 'side effects of therapist on tuesday'];
    const { app, tools } = await setup('local', asker(reworded, ['People/Bob.md', 'People/Alice.md']));
    const out = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: 'what does Bob keep?', source: 'test:1' }, { tools: { user: { owner: true } } });
    expect(out.tainted).toBe(true);
    expect(tools.calls).toEqual([]);
    expect(tools.bodies.join('\n')).not.toContain('7719');
  }, 60_000);

  it("the person's own message labelled sensitive: a hosted model's call about it is not made", async () => {
    const { app, tools } = await setup('hosted', asker(['side effects of sumatriptan', 'migraine clinics nearby']));
    await app.assistant.conversation.handle(
      { place: project, speaker: 'Alice', text: 'I take sumatriptan for my migraines, look up side effects', source: 'test:1' },
      { tools: { user: { owner: true } } },
    );
    expect(tools.calls).toEqual([]);
  }, 60_000);

  it('an ordinary turn calls the hosted tool server', async () => {
    const { app, tools } = await setup('hosted', asker(['climbing gyms in Leipzig']));
    const out = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: 'find climbing gyms', source: 'test:1' }, { tools: { user: { owner: true } } });
    expect(out.tainted).toBe(false);
    expect(tools.calls.map((c) => c.args)).toEqual([{ q: 'climbing gyms in Leipzig' }]);
  }, 60_000);
});
