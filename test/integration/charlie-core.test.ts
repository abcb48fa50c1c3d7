/**
 * The core end to end on real adapters: the OpenAI-compatible client against the scripted
 * model server, the Markdown store in a temp folder, and the terminal front door.
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { type Script } from '../support/fake-model-server.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { tempDirs } from '../support/temp-dir.js';
import { pipeTerminal } from '../support/terminal.js';
import { fakeModelServers, testChatModel } from '../support/model-servers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const newDir = tempDirs('charlie-core-');
const startServer = fakeModelServers();

async function setup(script: Script, opts: { baseUrl?: string } = {}) {
  const dir = newDir();
  const server = opts.baseUrl ? undefined : await startServer(script);
  const model = testChatModel(opts.baseUrl ?? server!.url);
  const projectsDir = join(dir, 'projects');
  const graph = new Wiki({ projectsDir, clock: systemClock, logger: silentLogger });
  const { assistant, store } = makeAssistant({ model, store: new FileProjectStore({ projectsDir, clock: systemClock, logger: silentLogger }), graph, clock: systemClock });
  return { dir, server, assistant, store, projectDir: join(dir, 'projects', 'general') };
}

const general: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
const say = (text: string, i: number) => ({ place: general, speaker: 'Dana', text, source: `terminal:${1000 + i}` });

const DISTILLED = JSON.stringify({
  summary: 'Dana is planning a trip to Lisbon in March with a budget of 1500 euros.',
  decisions: [{ text: 'Travel to Lisbon in March', message: 5 }],
  quotes: [{ text: 'I want to see the tiles everywhere', message: 9 }],
});

const chatOrDistill: Script = (req) => (req.response_format ? { text: DISTILLED } : { text: 'Noted.' });

describe('Charlie core on real adapters', () => {
  it('after five messages the project folder holds a summary, decisions and quotes citing their sources', async () => {
    const { assistant, projectDir } = await setup(chatOrDistill);
    const lines = ['I am planning a trip', 'Budget is 1500 euros', "Let's go to Lisbon in March", 'Maybe a hotel in Alfama', 'I want to see the tiles everywhere'];
    for (const [i, text] of lines.entries()) await assistant.conversation.handle(say(text, i));
    await assistant.idle();
    const project = readFileSync(join(projectDir, 'project.md'), 'utf8');
    expect(project).toMatch(/Lisbon in March with a budget/);
    const decisions = readFileSync(join(projectDir, 'decisions.md'), 'utf8');
    expect(decisions).toContain('Travel to Lisbon in March');
    expect(decisions).toContain('terminal:1002'); // the 3rd person message (index 5 with replies in between)
    const quotes = readFileSync(join(projectDir, 'quotes.md'), 'utf8');
    expect(quotes).toContain('I want to see the tiles everywhere');
    expect(quotes).toContain('Dana');
    // the archive holds every message and reply as a diary
    const logFile = readdirSync(join(projectDir, 'log'))[0]!;
    const log = readFileSync(join(projectDir, 'log', logFile), 'utf8');
    expect(log.match(/^### /gm)).toHaveLength(10);
  });

  it('a hand edit of the summary made during a turn survives distillation', async () => {
    let projectDir = '';
    const { assistant, projectDir: pd } = await setup((req) => {
      if (!req.response_format) return { text: 'Noted.' };
      // A person edits project.md while the model is distilling.
      const path = join(projectDir, 'project.md');
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replace(/---\n[\s\S]*$/, (m) => m.replace(/\n---\n[\s\S]*$/, '\n---\n\nMy own summary, by hand.\n')),
      );
      return { text: DISTILLED };
    });
    projectDir = pd;
    for (let i = 0; i < 5; i++) await assistant.conversation.handle(say(i === 2 ? "Let's go to Lisbon in March" : `message ${i}`, i));
    await assistant.idle();
    const project = readFileSync(join(projectDir, 'project.md'), 'utf8');
    expect(project).toContain('My own summary, by hand.');
    expect(project).not.toContain('budget of 1500');
    expect(readFileSync(join(projectDir, 'decisions.md'), 'utf8')).toContain('Travel to Lisbon in March');
  });

  it('malformed front matter is reported and left untouched; the project keeps working', async () => {
    const { assistant, projectDir } = await setup(chatOrDistill);
    await assistant.conversation.handle(say('hello', 0));
    const path = join(projectDir, 'project.md');
    const broken = '---\nname: general\nstyle: [unclosed\n---\nsummary\n';
    writeFileSync(path, broken);
    const events: string[] = [];
    const out = await assistant.conversation.handle(say('still there?', 1), { onEvent: (e) => e.type === 'notice' && events.push(e.text) });
    expect(out.reply).toBe('Noted.');
    expect(events.join('\n')).toMatch(/project\.md/);
    for (let i = 2; i < 8; i++) await assistant.conversation.handle(say(`m${i}`, i));
    await assistant.idle();
    await assistant.settings.setStyle(general, 'terse').catch(() => undefined);
    expect(readFileSync(path, 'utf8')).toBe(broken);
    const view = await assistant.settings.showMemory(general);
    expect(view.problems.some((p) => p.path.endsWith('project.md'))).toBe(true);
  });

  it('the model calls a tool through the real client and the reply uses it', async () => {
    const { assistant, server, projectDir } = await setup([
      { toolCalls: [{ name: 'remember', arguments: '{"title":"Sarah Chen","category":"People","text":"Sarah prefers tea."}' }] },
      { text: 'Saved: Sarah prefers tea.' },
    ]);
    const out = await assistant.conversation.handle(say('remember that Sarah Chen prefers tea', 0));
    expect(out.reply).toBe('Saved: Sarah prefers tea.');
    // the graph files "People" under the taxonomy's first People folder, as a record with its source
    expect(out.related).toEqual(['notes/People/Family/Sarah-Chen.md']);
    expect(server!.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('People/Family/Sarah-Chen.md') });
    expect(readFileSync(join(projectDir, 'notes/People/Family/Sarah-Chen.md'), 'utf8')).toMatch(/- Sarah prefers tea\. .*\[source:: terminal:1000\]/);
  });
});

describe('terminal front door', () => {
  const run = (assistantSetup: Awaited<ReturnType<typeof setup>>, input: string, modelStatus: string | null = null) => pipeTerminal(assistantSetup.assistant, input, { modelStatus });

  it('works with piped input, shows tool calls and their results, and supports the memory commands', async () => {
    const s = await setup([{ toolCalls: [{ name: 'search_notes', arguments: '{"text":"tea"}' }] }, { text: 'Nothing about tea yet.' }]);
    const out = await run(s, 'what do you know about tea?\n/project style short answers\n/memory show\n/quit\nnever read\n');
    expect(out).toMatch(/↳ search_notes\(text: "tea"\)/);
    expect(out).toMatch(/✓ 0 lines match "tea"/);
    expect(out).toMatch(/Charlie › Nothing about tea yet\./);
    expect(out).toMatch(/style set: short answers/);
    expect(out).toMatch(/Memory of general \(style: short answers\)/);
    expect(s.server!.requests).toHaveLength(2);
  });

  it('opens without a model server, says what to do in one line, and memory commands still work', async () => {
    const s = await setup([], { baseUrl: 'http://127.0.0.1:9/v1' });
    const started = Date.now();
    const out = await run(s, 'hello?\n/memory show\n', 'no model server at http://127.0.0.1:9/v1 — start LM Studio / Ollama or set LLM_BASE_URL');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(out.split('\n').filter((l) => l.includes('no model server'))).toHaveLength(1);
    expect(out).toMatch(/can't reach my model server/);
    expect(out).toMatch(/Memory of general/);
    expect(existsSync(join(s.projectDir, 'log'))).toBe(true); // the message was kept
  });
});
