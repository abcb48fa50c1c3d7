/**
 * Sensitivity at every egress, judged end to end on the real composition (buildApp): a hosted
 * chat model behind the scripted fake server calls every tool it is offered, asks for every
 * tool category, and aims its arguments at sensitive records — a sensitive page, a marked
 * entry of a personal page, a marked decision, quote, summary paragraph and archive entry, and
 * private (DM) memory. No canary string may reach the server, and nothing under projects/
 * may change except the archive (log/) and project.md.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { buildApp } from '../../src/main.js';
import { builtinTools } from '../../src/core/tools/index.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { startFakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';
import { readTree } from '../support/temp-dir.js';
import { callEveryTool } from '../support/tool-calling-model.js';
import { writeMarkedLayers, writeNote } from '../support/camping-project.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const M = '[sensitivity:: sensitive]';
const CANARY = {
  page: 'CANARY-PAGE-7f3a vault code 4471',
  entry: 'CANARY-ENTRY-1c9e therapist appointment',
  entryMultiline: 'CANARY-ENTRY-LINE2-88d0 second line of the marked entry',
  decision: 'CANARY-DECISION-3b21 sell the house quietly',
  quote: 'CANARY-QUOTE-5e77 my diagnosis is confirmed',
  summary: 'CANARY-SUMMARY-9a0b the divorce filing',
  log: 'CANARY-LOG-2d4c the salary is 91k',
  dmOwn: 'CANARY-DM-OWN-6f10 my bank PIN hint',
  dmOther: 'CANARY-DM-OTHER-0c3e someone else private',
  dmMessage: 'CANARY-DM-MSG-44aa the lab results',
};

/** The hosted model: asks for every category, calls every offered tool once per argument set, then answers. */
function adversary(): (request: { tools?: { function: { name: string; parameters: { properties?: Record<string, { enum?: string[]; items?: { enum?: string[] } }> } } }[] }) => ScriptedReply {
  const called = new Set<string>();
  const argsFor: Record<string, unknown[]> = {
    read_memory: [{ part: 'all' }, { part: 'decisions' }, { part: 'quotes' }, { part: 'summary' }],
    search_memory: [
      { query: 'vault code Bob' },
      { query: 'therapist appointment' },
      { query: 'sell the house' },
      { query: 'diagnosis confirmed' },
      { query: 'divorce filing' },
      { query: 'salary' },
      { query: 'bank PIN lab results' },
      { query: 'CANARY' },
    ],
    list_notes: [{}, { category: 'People' }],
    read_note: [{ path: 'People/Bob.md' }, { path: 'notes/People/Alice.md' }],
    search_notes: [{ text: 'CANARY' }, { text: 'vault' }, { text: 'therapist' }, { text: 'second line' }],
    remember: [{ title: 'Bob', text: 'Bob likes tea', category: 'People' }],
    current_time: [{ timeZone: 'Europe/Berlin' }],
    follow_links: [{ page: 'People/Alice.md', depth: 2 }, { page: 'People/Bob.md', depth: 2 }, { page: 'Bob' }],
  };
  return (request) => {
    const calls = callEveryTool(request, argsFor, called);
    return calls.length ? { toolCalls: calls } : { text: 'Here is what I found.' };
  };
}

async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-egress-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startFakeModelServer(adversary());
  cleanups.push(() => server.close());
  const config = loadConfig(
    {
      LLM_BASE_URL: server.url,
      LLM_LOCALITY: 'hosted',
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      EMBEDDER: 'builtin',
      WATCH_PROJECTS: 'false',
      TURN_MAX_STEPS: '8',
      TURN_MAX_TOOL_CALLS: '40',
      PROJECTS_DIR: join(dir, 'projects'),
      DATA_DIR: join(dir, 'data'),
    },
    dir,
  );
  const app = await buildApp(config, silentLogger);
  cleanups.push(() => app.close());
  return { dir, server, app, projectsDir: join(dir, 'projects'), dataDir: join(dir, 'data') };
}

const project: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };

function seedProject(projectsDir: string): void {
  const root = join(projectsDir, 'general');
  const note = (path: string, text: string) => writeNote(root, path, text);
  note('People/Bob.md', `---\nschema: 1\ntitle: Bob\nsensitivity: sensitive\n---\n\n### 2026-11-20\n\nBob keeps the ${CANARY.page}.\n`);
  note(
    'People/Alice.md',
    `---\nschema: 1\ntitle: Alice\nsensitivity: personal\n---\n\n### 2026-11-20\n\nAlice likes climbing.\n\n### 2026-11-21 ${M}\n\nAlice has a ${CANARY.entry}.\n${CANARY.entryMultiline}\n\n### 2026-11-22\n\nAlice moved to Leipzig.\n\n## Related\n- [[People/Bob]] (friend)\n`,
  );
  writeMarkedLayers(root, M, {
    decision: CANARY.decision,
    quote: CANARY.quote,
    summary: CANARY.summary,
    log: CANARY.log,
    logTail: '\n### 10:02:00 · Bob · [↗](terminal:12)\n\nSounds good, the blue one.\n',
  });
}

function seedPrivate(dataDir: string): void {
  const store = new SqlitePrivateStore(join(dataDir, 'private.db'));
  const at = '2026-11-20T10:00:00.000Z';
  store.appendMessage('111', { time: at, speaker: 'Dana', source: 'dm:1', text: `${CANARY.dmMessage} ${M}`, role: 'user' });
  store.appendMessage('111', { time: at, speaker: 'Dana', source: 'dm:2', text: 'I like tea in the morning', role: 'user' });
  store.writeLayers('111', { summary: `Dana likes tea.\n\n${CANARY.dmOwn} ${M}`, decisions: [{ date: '2026-11-20', text: `${CANARY.dmOwn} decision ${M}`, source: 'dm:1' }], quotes: [] }, 0);
  store.appendMessage('222', { time: at, speaker: 'Eve', source: 'dm:3', text: CANARY.dmOther, role: 'user' });
  store.writeLayers('222', { summary: CANARY.dmOther, decisions: [], quotes: [] }, 0);
  store.close();
}

function leaked(bodies: unknown[]): string[] {
  const all = JSON.stringify(bodies);
  return Object.values(CANARY).filter((c) => all.includes(c) || all.includes(c.split(' ')[0]!));
}

describe('egress guard: a hosted model never receives a sensitive record', () => {
  it('every tool and prompt, in a project, in text and voice, with an image', async () => {
    const t = await setup();
    await t.app.assistant.settings.showMemory(project);
    seedProject(t.projectsDir);
    seedPrivate(t.dataDir);
    const before = readTree(t.projectsDir);

    const turns = [
      { text: 'What is the vault code of Bob? And Alice therapist?', mode: 'text' as const },
      { text: 'Tell me about the house decision and the divorce', mode: 'voice' as const },
      { text: 'what does this picture show? the salary?', mode: 'text' as const, images: ['data:image/png;base64,iVBORw0KGgo='] },
    ];
    for (const turn of turns) {
      const out = await t.app.assistant.conversation.handle({ place: project, speaker: 'Alice', source: `terminal:${turn.mode}`, ...turn });
      expect(out.reason).not.toBe('error');
    }
    await t.app.assistant.idle();

    const names = new Set(t.server.requests.flatMap((r: { tools?: { function: { name: string } }[] }) => (r.tools ?? []).map((x) => x.function.name)));
    // every tool Charlie has was offered (and, by the script, called), plus request_tools
    expect([...names].sort()).toEqual([...builtinTools().map((x) => x.name), 'request_tools'].sort());
    const toolResults = t.server.requests.flatMap((r: { messages: { role: string; content: string }[] }) => r.messages.filter((m) => m.role === 'tool').map((m) => m.content));
    expect(toolResults.length).toBeGreaterThan(20);
    expect(leaked(t.server.requests)).toEqual([]);
    // The guard fired and named the pages, so the model can say something is withheld.
    const sent = JSON.stringify(t.server.requests);
    for (const origin of ['a page marked sensitive', 'People/Alice.md']) expect(sent).toContain(`[withheld: ${origin}`);
    // the summary's and decisions' labelled parts are left out by label, before any line is matched
    expect(sent).toContain('[withheld: a part of the summary marked sensitive]');
    expect(sent).toContain('Alice likes climbing');
    expect(sent).toContain('Use the blue tent');

    const after = readTree(t.projectsDir);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((p) => !/^general\/(log\/[^/]+\.md|project\.md)$/.test(p))).toEqual([]);
    // remember wrote no note; nobody said "Bob likes tea", so it was not even kept as a candidate
    expect(after.has('general/notes/People/Bob.md')).toBe(true);
    const requests = join(t.dataDir, 'write-requests', 'general.json');
    expect(existsSync(requests) ? readFileSync(requests, 'utf8') : '').not.toContain('Bob likes tea');
  }, 60_000);

  it('in a private conversation: own sensitive rows withheld, other users never reachable', async () => {
    const t = await setup();
    seedPrivate(t.dataDir);
    const dm: Place = { kind: 'private', userId: '111', userName: 'Dana' };
    const out = await t.app.assistant.conversation.handle({ place: dm, speaker: 'Dana', text: 'what do you know about my bank PIN and the lab results?', source: 'dm:9' });
    expect(out.reason).not.toBe('error');
    expect(leaked(t.server.requests)).toEqual([]);
    const sent = JSON.stringify(t.server.requests);
    expect(sent).toContain('Dana likes tea');
    expect(sent).toContain('[withheld:');
  }, 60_000);
});
