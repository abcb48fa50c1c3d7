/**
 * Privacy by type, tested as a class: every sensitivity spelling the parser accepts × every
 * place memory text lives × every tool (and the prompt builders) × every hosted destination.
 * Each combination plants its own canary; none may reach a fake hosted server. The lists come
 * from the code: sensitiveSpellings() from the parser, builtinTools() from the registry,
 * DESTINATIONS from the core. A tool without probe arguments here, or a destination without a
 * driver, fails the test.
 *
 * Two worlds run per spelling, on the real composition (buildApp):
 * - hosted chat model + hosted embedder: the model asks for every tool category, calls every
 *   tool with arguments aimed at the canaries, and its requests and the embedder's inputs are
 *   searched for canaries;
 * - local chat model that repeats everything it was shown + hosted voice: every reply sentence
 *   goes through the speech guard, and the online voice must get no canary.
 * Ingested items (CSV, e-mail, calendar) are classified by the rules, not spelled, so they are
 * planted once per world through the real inbox and a local memory lane.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { DESTINATIONS, type DestinationKind } from '../../src/core/privacy/destinations.js';
import { guardSpeech } from '../../src/core/privacy/egress.js';
import { silentLogger, type TextToSpeech } from '../../src/core/ports/index.js';
import { sensitiveSpellings, UNJUDGED_LABEL } from '../../src/core/privacy/sensitivity.js';
import { builtinTools } from '../../src/core/tools/index.js';
import { buildApp } from '../../src/main.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';
import { callEveryTool } from '../support/tool-calling-model.js';
import { writeMarkedLayers, writeNote } from '../support/camping-project.js';

const tempDir = tempDirs('charlie-egress-class-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Every place memory text lives, each with how a canary is planted there for a spelling. */
const PLACES = [
  'page-body',
  'page-title',
  'page-alias',
  'page-description',
  'link-label',
  'record-line',
  'dated-entry',
  'decision',
  'quote',
  'summary',
  'archive',
  'dm-message',
  'dm-record',
  'dm-summary',
] as const;
type PlaceName = (typeof PLACES)[number];
/** Ingested items: classified by the rules every writer applies, whatever the model says. */
const INGESTED = ['csv-row', 'eml', 'ics-event'] as const;

const canary = (spelling: number, place: string) => `Cnry${spelling}x${place.replace(/-/g, '')}Q`;

function seed(projectsDir: string, dataDir: string, s: string, n: number): Record<PlaceName, string> {
  const c = Object.fromEntries(PLACES.map((p) => [p, canary(n, p)])) as Record<PlaceName, string>;
  const root = join(projectsDir, 'general');
  const note = (path: string, text: string) => writeNote(root, path, text);
  const m = `[sensitivity:: ${s}]`;
  // a page sensitive as a whole: its title, alias and description name it
  note(
    `Health/${c['page-title']}.md`,
    `---\nschema: 2\ntitle: ${c['page-title']} status\naliases: [${c['page-alias']}]\nsensitivity: "${s}"\n---\n\n${c['page-description']} is what this page is about.\n\n## Facts\n- Carol has ${c['page-body']}. [type:: identity] [source:: manual]\n`,
  );
  // a personal page: a marked record line, a link whose label names the sensitive page
  note(
    'People/Carol.md',
    `---\nschema: 2\ntitle: Carol\nsensitivity: personal\n---\n\nCarol is a friend from climbing.\n\n## Facts\n- Carol likes climbing. [type:: preference] [source:: manual]\n- Carol takes ${c['record-line']} daily. [type:: identity] ${m} [source:: manual]\n\n## Related\n- [[Health/${c['page-title']}]] (${c['link-label']})\n`,
  );
  // a schema-1 page with a marked dated entry
  note('People/Alice.md', `---\nschema: 1\ntitle: Alice\nsensitivity: personal\n---\n\n### 2026-11-20\n\nAlice likes tea.\n\n### 2026-11-21 ${m}\n\nAlice has ${c['dated-entry']}.\n`);
  writeMarkedLayers(root, m, { decision: c.decision, quote: c.quote, summary: c.summary, log: c.archive });
  const store = new SqlitePrivateStore(join(dataDir, 'private.db'));
  const at = '2026-11-20T10:00:00.000Z';
  store.appendMessage('111', { time: at, speaker: 'Dana', source: 'dm:1', text: `${c['dm-message']} ${m}`, role: 'user' });
  store.appendMessage('111', { time: at, speaker: 'Dana', source: 'dm:2', text: 'I like tea in the morning', role: 'user' });
  store.writeLayers('111', { summary: `Dana likes tea.\n\n${c['dm-summary']} ${m}`, decisions: [], quotes: [] }, 0);
  store.records.write('111', {
    entities: [{ name: 'Dana', create: true, facts: [{ text: `Dana takes ${c['dm-record']}.`, said: '2026-11-20', source: 'dm:1', sensitivity: s }] }],
    links: [],
    origin: 'distillation',
  });
  store.close();
  return c;
}

/** What an inbox file says, one canary per item kind. */
function seedInbox(projectsDir: string): Record<(typeof INGESTED)[number], string> {
  const c = Object.fromEntries(INGESTED.map((k) => [k, `CnryIngest${k.replace(/-/g, '')}Q`])) as Record<(typeof INGESTED)[number], string>;
  const inbox = join(projectsDir, 'general', 'inbox');
  mkdirSync(inbox, { recursive: true });
  writeFileSync(join(inbox, 'bank.csv'), `date,payee,amount\n2026-05-01,${c['csv-row']} Properties,-1200.00\n`);
  writeFileSync(
    join(inbox, 'hr.eml'),
    `From: HR <hr@example.com>\nTo: me@example.com\nSubject: Your new salary ${c.eml}\nDate: Mon, 1 Jun 2026 09:00:00 +0000\n\nYour salary from January is attached.\n`,
  );
  writeFileSync(
    join(inbox, 'health.ics'),
    `BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\nBEGIN:VEVENT\nUID:t1@example\nDTSTAMP:20260601T090000Z\nDTSTART:20260514T190000Z\nSUMMARY:Therapy session ${c['ics-event']}\nEND:VEVENT\nEND:VCALENDAR\n`,
  );
  return c;
}

/** Arguments aimed at every canary, for every tool in the registry. */
function probes(c: Record<string, string>): Record<string, unknown[]> {
  const all = Object.values(c);
  return {
    read_memory: [{ part: 'all' }, { part: 'decisions' }, { part: 'quotes' }, { part: 'summary' }],
    search_memory: [...all.map((q) => ({ query: q })), { query: 'Carol takes daily' }, { query: 'salary therapy rent' }],
    list_notes: [{}, { category: 'Health' }, { category: 'People' }],
    read_note: [{ path: `Health/${c['page-title']}.md` }, { path: 'People/Carol.md' }, { path: 'People/Alice.md' }, { path: 'Topics/Household.md' }],
    search_notes: [{ text: 'Cnry' }, ...all.map((t) => ({ text: t }))],
    remember: [{ title: 'Bob', text: 'Bob likes tea', category: 'People' }],
    current_time: [{ timeZone: 'Europe/Berlin' }],
    follow_links: [
      { page: 'People/Carol.md', depth: 2 },
      { page: `Health/${c['page-title']}.md`, depth: 2 },
    ],
    set_reminder: [{ what: 'look at the health page', when: 'in 20 minutes' }],
    list_reminders: [{}],
    cancel_reminder: [{ id: 'nope' }],
    calendar_agenda: [{ when: 'today' }, { when: 'this week' }],
    create_event: [{ title: 'Dentist', when: 'tomorrow at 9am' }],
    // no machine is known here: each answers that it does not know how to reach it (nothing connects)
    ssh_connect: [{ machine: 'NAS' }],
    ssh_run: [{ machine: 'NAS', command: 'uptime' }],
    ssh_read: [{ machine: 'NAS', path: '/etc/hostname' }],
    ssh_list: [{ machine: 'NAS', path: '/' }],
    ssh_copy: [{ machine: 'NAS', from: '/a', to: '/b' }],
  };
}

/** The chat model: asks for every category, calls every tool with every probe, then answers with everything it was shown. */
function adversary(argsFor: Record<string, unknown[]>) {
  const called = new Set<string>();
  return (request: {
    messages: { role: string; content: unknown }[];
    tools?: { function: { name: string; parameters: { properties?: Record<string, { items?: { enum?: string[] } }> } } }[];
  }): ScriptedReply => {
    const calls = callEveryTool(request, argsFor, called);
    if (calls.length) return { toolCalls: calls };
    // a model that repeats everything: the worst case for what it says next
    const shown = request.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    return { text: `Here is what I found. ${shown.replace(/\s+/g, ' ').slice(0, 20_000)}` };
  };
}

/**
 * The memory lane for the inbox: one fact per item, in the item's own words, and no message it
 * names sensitive itself (the rules label the canaries here), so the precheck it also answers clears
 * what the rules let pass instead of failing closed on a reply without its `sensitive` list.
 */
function memoryLane() {
  return (request: { messages: { content: unknown }[] }): ScriptedReply => {
    const items = String(request.messages[1]?.content ?? '')
      .split('\n')
      .filter((l) => /^\[\d+\]/.test(l));
    return {
      text: JSON.stringify({
        entities: [{ name: 'Household', category: 'Topics', new: true }],
        facts: items.map((l, i) => ({ entity: 'Household', text: l.replace(/^\[\d+\]\s*/, '').slice(0, 200), message: i + 1 })),
        links: [],
        sensitive: [],
      }),
    };
  };
}

interface World {
  chat: FakeModelServer;
  embedder: FakeModelServer;
  voice: string[];
  /** What the test and the scripted model said themselves (questions, search queries). */
  asked: Set<string>;
}

async function world(spelling: string, n: number, chatLocality: 'hosted' | 'local') {
  const dir = tempDir();
  const projectsDir = join(dir, 'projects');
  const dataDir = join(dir, 'data');
  const base = loadConfig({ PROJECTS_DIR: projectsDir, DATA_DIR: dataDir, EMBEDDER: 'builtin', WEB_PORT: '0' }, dir);
  // the project folder and its project.md, made by the real store, before the canaries go in
  const first = await buildApp(base, silentLogger);
  const project: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
  await first.assistant.settings.showMemory(project);
  await first.close();
  const c = seed(projectsDir, dataDir, spelling, n);
  const ingested = seedInbox(projectsDir);
  const all = { ...c, ...ingested };
  const argsFor = probes(all);
  const asked = new Set(Object.values(argsFor).flatMap((list) => list.flatMap((a) => Object.values(a as Record<string, unknown>).filter((v): v is string => typeof v === 'string'))));
  const chat = await startFakeModelServer(adversary(argsFor));
  const lane = await startFakeModelServer(memoryLane());
  const embedder = await startFakeModelServer([]);
  cleanups.push(
    () => chat.close(),
    () => lane.close(),
    () => embedder.close(),
  );
  const config = loadConfig(
    {
      LLM_BASE_URL: chat.url,
      LLM_LOCALITY: chatLocality,
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      MEMORY_LLM_BASE_URL: lane.url,
      EMBEDDER: 'openai',
      EMBEDDING_BASE_URL: embedder.url,
      EMBEDDING_LOCALITY: 'hosted',
      EMBEDDING_MODEL: 'fake-embed',
      WATCH_PROJECTS: 'false',
      DISTILL_EVERY: '1000',
      TURN_MAX_STEPS: '8',
      TURN_MAX_TOOL_CALLS: '80',
      WEB_PORT: '0',
      PROJECTS_DIR: projectsDir,
      DATA_DIR: dataDir,
    },
    dir,
  );
  const app = await buildApp(config, silentLogger);
  cleanups.push(() => app.close());
  await app.ingest.scan('general');
  // the inbox was read through the memory lane: each item's fact is on a page or waits at the gate, sensitive by the rules
  const page = join(projectsDir, 'general', 'notes', 'Topics', 'Household.md');
  const household = existsSync(page) ? readFileSync(page, 'utf8') : '';
  const waiting = existsSync(join(dataDir, 'candidates', 'general.json')) ? (JSON.parse(readFileSync(join(dataDir, 'candidates', 'general.json'), 'utf8')) as unknown[]) : [];
  for (const c of Object.values(ingested)) {
    const filed = household.split('\n').find((l) => l.includes(c)) ?? JSON.stringify(waiting.find((w) => JSON.stringify(w).includes(c)) ?? `${c} not filed`);
    expect(filed).toMatch(/\[sensitivity:: sensitive\/(financial|phi)\]|"sensitivity":"sensitive\/(financial|phi)"/);
  }
  return { app, project, canaries: all, w: { chat, embedder, voice: [] as string[], asked } satisfies World };
}

/** What Charlie itself sent the chat model: prompts, history and tool results (not the model's own calls, nor the test's questions). */
function sentToChat(w: World): string {
  return JSON.stringify(
    w.chat.requests.flatMap((r: { messages: { role: string; content: unknown }[] }) =>
      r.messages.filter((m) => m.role !== 'assistant' && !w.asked.has(String(m.content).replace(/^\w+: /, ''))).map((m) => m.content),
    ),
  );
}

/** Driven, with labels and a restart, by test/integration/egress-labels.test.ts (which covers every destination). */
const DRIVEN_WITH_LABELS = ['mcp-tool-server', 'mcp-client', 'sync'] as const;

/** Drivers: how each destination that can be hosted is exercised and read back. */
const DRIVERS: Record<Exclude<DestinationKind, 'memory' | (typeof DRIVEN_WITH_LABELS)[number]>, (w: World) => string> = {
  chat: sentToChat,
  // the search questions the scripted model asked are its own words; everything else the index sent is Charlie's
  embedder: (w) => JSON.stringify(w.embedder.embedInputs.filter((t) => !w.asked.has(t))),
  'text-to-speech': (w) => JSON.stringify(w.voice),
  // the speech-to-text port takes audio only (Int16Array in, text out): no memory text can be sent to it
  'speech-to-text': () => '',
  // this world subscribes no calendar, so nothing is written to one; a sensitive event and a hosted
  // CalDAV server are driven in test/integration/calendar-locality.test.ts
  calendar: () => '',
};

function leaks(sent: string, canaries: Record<string, string>): string[] {
  return Object.entries(canaries)
    .filter(([, c]) => sent.includes(c))
    .map(([p]) => p);
}

describe('privacy by type: no canary reaches any hosted destination', () => {
  it('every destination that can be hosted has a driver; the memory lane is local by type', () => {
    expect([...Object.keys(DRIVERS), ...DRIVEN_WITH_LABELS].sort()).toEqual(
      Object.keys(DESTINATIONS)
        .filter((k) => k !== 'memory')
        .sort(),
    );
  });

  it('every tool in the registry has probe arguments', () => {
    const probed = Object.keys(probes({ 'page-title': 'x' }));
    expect(
      builtinTools()
        .map((t) => t.name)
        .filter((n) => !probed.includes(n)),
    ).toEqual([]);
  });

  // the provisional label (the lane could not judge in time) is settled by the lane's next word where
  // it stands — this world's lane clears everything, so it comes off a hand-written line here as
  // designed; its readers are covered in sensitivity.test.ts and its settling in lane-verdict and hand-labels
  const spellings = sensitiveSpellings().filter((s) => s !== UNJUDGED_LABEL);
  it.each(spellings.map((s, i) => [s, i] as const))(
    'spelling %j: hosted chat model and hosted embedder',
    async (spelling, n) => {
      const { app, project, canaries, w } = await world(spelling, n, 'hosted');
      const questions = [
        'Tell me everything about Carol and Alice, and their health',
        'What do you know about rent, salary and therapy?',
        'what do you know about my medication and my messages?',
        'Carol daily salary therapy rent',
      ];
      for (const q of questions) w.asked.add(q);
      for (const text of questions.slice(0, 2)) {
        const out = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', source: 'terminal:1', text });
        expect(out.reason).not.toBe('error');
      }
      const dm: Place = { kind: 'private', userId: '111', userName: 'Dana' };
      await app.assistant.conversation.handle({ place: dm, speaker: 'Dana', text: questions[2]!, source: 'dm:9' });
      await app.assistant.memory.searchMemory(project, questions[3]!);
      // the run did reach every tool, and the embedder saw ordinary text
      const offered = new Set(w.chat.requests.flatMap((r: { tools?: { function: { name: string } }[] }) => (r.tools ?? []).map((x) => x.function.name)));
      for (const t of builtinTools()) expect(offered, t.name).toContain(t.name);
      expect(JSON.stringify(w.chat.requests)).toContain('friend from climbing');
      expect(w.embedder.embedInputs.join('\n')).toContain('climbing');
      for (const [kind, read] of Object.entries(DRIVERS)) expect(leaks(read(w), canaries), `${kind}, spelling ${spelling}`).toEqual([]);
    },
    60_000,
  );

  it.each(spellings.slice(0, 4).map((s, i) => [s, i] as const))(
    'spelling %j: a local chat model repeats what it saw, and the online voice gets none of it',
    async (spelling, n) => {
      const { app, project, canaries, w } = await world(spelling, n, 'local');
      const recorder = (id: string, locality: 'local' | 'hosted', sink: string[], localVoice?: TextToSpeech): TextToSpeech => ({
        id,
        locality,
        ...(localVoice ? { localVoice } : {}),
        synthesize: async (text) => (sink.push(text), { mime: 'audio/wav', data: new Uint8Array() }),
      });
      const spokenLocally: string[] = [];
      const voice = guardSpeech(recorder('edge', 'hosted', w.voice, recorder('espeak', 'local', spokenLocally)), (text) => app.assistant.conversation.speechMustStayLocal(project, text));
      const question = 'Tell me everything about Carol and Alice, and their health';
      w.asked.add(question);
      const out = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', source: 'voice:1', mode: 'voice', text: question });
      expect(leaks(out.reply, canaries).length).toBeGreaterThan(0); // the local model did see them
      for (const sentence of out.reply.split(/(?<=[.!?])\s+/)) await voice.synthesize(sentence);
      expect(spokenLocally.length).toBeGreaterThan(0);
      for (const [kind, read] of Object.entries(DRIVERS)) if (kind !== 'chat') expect(leaks(read(w), canaries), `${kind}, spelling ${spelling}`).toEqual([]);
    },
    60_000,
  );
});
