/**
 * Charlie's MCP server serves a hosted client (the default) by label, exactly as the hosted chat
 * model is served. Records marked in every spelling the parser reads (sensitiveSpellings()),
 * an unknown kind, a record the rules call sensitive, a link to a sensitive page, and an
 * archived message the rules classify: `why`, `records`, `search`, `follow_links` and
 * `list_pages` return none of them, and a local client still gets them all.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { sensitiveSpellings } from '../../src/core/privacy/sensitivity.js';
import { buildApp } from '../../src/main.js';
import { writeNote } from '../support/camping-project.js';
import { callEveryMemoryTool } from '../support/memory-client.js';
import { startFakeModelServer } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';

const tempDir = tempDirs('charlie-mcp-labels-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const project: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
const spellings = [...sensitiveSpellings(), 'sensitive/biometric'];
const canary = (i: number) => `Cnrywhy${i}Q`;
const RULES = 'CnryrulesQ';
const LINK = 'CnrylinkQ';
const MESSAGE = 'CnrymessageQ';
const MACHINE_PAGE = 'Cnrymachineq';
const MACHINE_LINE = 'cnryhostq.lan';

const PROBES: Record<string, Record<string, unknown>[]> = {
  why: [{ query: 'what does Carol take' }, { query: 'Carol' }, { query: 'Carol password' }],
  records: [{}, { page: 'People/Carol.md' }],
  search: [{ query: 'Carol takes' }, { query: 'migraines' }, { query: 'Carol password' }],
  follow_links: [{ page: 'People/Carol' }],
  list_pages: [{}],
  list_machines: [{}],
  read_page: [{ path: 'People/Carol.md' }],
  propose_fact: [],
};

async function setup() {
  const dir = tempDir();
  const config = loadConfig({ EMBEDDER: 'builtin', WATCH_PROJECTS: 'false', PROJECTS_DIR: join(dir, 'projects'), DATA_DIR: join(dir, 'data'), LLM_BASE_URL: 'http://127.0.0.1:9/v1' }, dir);
  const app = await buildApp(config, silentLogger);
  cleanups.push(() => app.close());
  await app.store.ensureProject((project as Extract<Place, { kind: 'project' }>).origin);
  const root = join(dir, 'projects', 'general');
  const facts = spellings.map((s, i) => `- Carol takes ${canary(i)} daily. [type:: identity] [sensitivity:: ${s}] [source:: manual]`);
  writeNote(
    root,
    'People/Carol.md',
    `---\nschema: 2\ntitle: Carol\nsensitivity: personal\n---\n\nCarol is a friend from climbing.\n\n## Facts\n- Carol likes climbing. [type:: preference] [source:: manual]\n${facts.join('\n')}\n- Carol's password is ${RULES}. [type:: identity] [source:: manual]\n\n## Related\n- [[Health/Carol-Clinic]] (${LINK} clinic)\n`,
  );
  // machines: one page labelled sensitive, and on another a login line marked sensitive
  writeNote(
    root,
    `Machines/${MACHINE_PAGE}.md`,
    `---\nschema: 2\ntitle: ${MACHINE_PAGE}\ncategory: Machines\nsensitivity: sensitive\n---\n\n## Facts\n- SSH login: root@10.9.9.9:22. [source:: manual]\n`,
  );
  writeNote(
    root,
    'Machines/NAS.md',
    `---\nschema: 2\ntitle: NAS\ncategory: Machines\nsensitivity: personal\n---\n\n## Facts\n- SSH login: admin@nas.local:22, credential vault:ssh/admin@nas. [source:: manual]\n- SSH login: backup@${MACHINE_LINE}:2222. [sensitivity:: sensitive/credential] [source:: manual]\n`,
  );
  writeNote(root, 'Health/Carol-Clinic.md', `---\nschema: 2\ntitle: Carol clinic\nsensitivity: sensitive\n---\n\nThe clinic.\n`);
  // the message that says it, archived as a turn archives it (no reply asked for)
  await app.assistant.conversation.handle({ place: project, speaker: 'Carol', text: `I take ${MESSAGE} for my migraines`, source: 'terminal:1', reply: false });
  return app;
}

const all = [...spellings.map((_, i) => canary(i)), RULES, LINK, MESSAGE, MACHINE_PAGE, MACHINE_LINE];

describe("Charlie's MCP server serves a hosted client by label", () => {
  it('why, records, search, follow_links, list_pages and list_machines return no labelled record, link, machine or message', async () => {
    const app = await setup();
    const hosted = (await callEveryMemoryTool(app, PROBES, 'hosted')).outputs.join('\n');
    expect(hosted).toContain('likes climbing');
    // list_machines: the page labelled sensitive and the login line marked sensitive are left out; no handle is shown
    const machines = (await callEveryMemoryTool(app, { list_machines: [{}] }, 'hosted')).outputs.join('\n');
    expect(machines).toBe('NAS (notes/Machines/NAS.md) · admin@nas.local:22 · no host key pinned · last contact never recorded""');
    expect(all.filter((c) => hosted.includes(c))).toEqual([]);
  }, 60_000);

  it('a local client is given them (the filter is the label, not a blanket refusal)', async () => {
    const app = await setup();
    const local = (await callEveryMemoryTool(app, PROBES, 'local')).outputs.join('\n');
    expect(local).toContain(canary(0));
    expect(local).toContain(LINK);
    expect(local).toContain(`${MACHINE_PAGE} (notes/Machines/${MACHINE_PAGE}.md) · root@10.9.9.9:22`);
    expect(local).toContain(`backup@${MACHINE_LINE}:2222`);
  }, 60_000);
});

/**
 * The archive is served message by message, each by its own label: an ordinary message is served
 * to a hosted client although a labelled reply repeats it word for word (a local model's reply is
 * labelled while a labelled message is in its window), and the labelled message and replies are not.
 * Before, the line matcher withheld the ordinary message as part of the labelled reply that quoted it.
 */
describe("the MCP server's search withholds only the labelled messages", () => {
  it('an ordinary message a labelled reply quotes is served; the labelled message and the replies are not', async () => {
    const dir = tempDir();
    // a local chat model that repeats each message: its replies quote what was said
    const chat = await startFakeModelServer((r: { messages: { content: unknown }[] }) => ({ text: `Noted: ${String(r.messages.at(-1)?.content).replace(/^\w+: /, '')}` }));
    cleanups.push(() => chat.close());
    const config = loadConfig({ EMBEDDER: 'builtin', WATCH_PROJECTS: 'false', DISTILL_EVERY: '1000', PROJECTS_DIR: join(dir, 'projects'), DATA_DIR: join(dir, 'data'), LLM_BASE_URL: chat.url }, dir);
    const app = await buildApp(config, silentLogger);
    cleanups.push(() => app.close());
    await app.store.ensureProject(project.origin);
    const said = ['We climb at the wall CnryokoneQ on Saturday.', `I take sumatriptan ${MESSAGE} for my migraines at the wall.`, 'The wall CnryoktwoQ opens at nine on Saturday.'];
    for (const [i, text] of said.entries()) await app.assistant.conversation.handle({ place: project, speaker: 'Carol', text, source: `terminal:${i + 1}` });
    const hosted = (await callEveryMemoryTool(app, { search: [{ query: 'wall Saturday nine' }] }, 'hosted')).outputs.join('\n');
    // the second ordinary message: its reply is labelled (the sensitive message was in the model's window) and repeats it
    expect(hosted).toMatch(/· Carol\) score [\d.]+\nThe wall CnryoktwoQ opens at nine on Saturday\./);
    expect(hosted).toContain('We climb at the wall CnryokoneQ on Saturday.');
    expect(hosted).not.toContain(MESSAGE);
    expect(hosted).not.toContain('Noted: The wall CnryoktwoQ');
    expect(hosted).not.toContain('[withheld');
    // a local client gets the labelled ones too
    const local = (await callEveryMemoryTool(app, { search: [{ query: 'wall Saturday nine' }] }, 'local')).outputs.join('\n');
    expect(local).toContain('Noted: The wall CnryoktwoQ');
  }, 60_000);
});
