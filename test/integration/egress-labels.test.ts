/**
 * Labels that travel with the text, tested as a class on the real composition (buildApp), with
 * a restart in the middle. Before it, a local chat model and a local memory lane write every
 * kind of labelled text the code lists (LABELLED_TEXTS) and PARAPHRASE what they were shown, so
 * no stored line repeats a sensitive line: the line matcher cannot help, only the labels can.
 * After it, every destination the code lists (DESTINATIONS) is hosted and driven: a chat model
 * that calls every tool and forwards all it was shown to a hosted tool server, a hosted
 * embedder (the index rebuilt from the Markdown), the online voice reading the earlier replies
 * aloud (the web's Read aloud: no place known, no ledger in memory), a hosted calendar server
 * (a recording CalDAV server declared hosted) on which the model puts an event carrying each
 * canary, the person saying yes, and a hosted client of Charlie's MCP server calling every tool
 * it lists, and a sync to a remote declared hosted (encrypted to a GPG key, as a hosted remote
 * must be). No canary may reach any of them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { placeKey, type Place } from '../../src/core/place.js';
import type { HandleOptions } from '../../src/core/assistant-api.js';
import { CONSENT_MODES, type ConsentMode, type ConsentRequest } from '../../src/core/privacy/consent.js';
import { DESTINATIONS, type DestinationKind } from '../../src/core/privacy/destinations.js';
import { guardSpeech } from '../../src/core/privacy/egress.js';
import { silentLogger, type TextToSpeech } from '../../src/core/ports/index.js';
import { LABELLED_TEXTS } from '../../src/core/privacy/sensitivity.js';
import { askerFor } from '../../src/core/time/reminder-desk.js';
import { builtinTools } from '../../src/core/tools/index.js';
import { buildApp } from '../../src/main.js';
import type { App } from '../../src/app/app.js';
import type { OutboxMessage } from '../../src/core/time/outbox.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { createSync } from '../../src/sync/create.js';
import { startFakeModelServer, type FakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';
import { callEveryMemoryTool } from '../support/memory-client.js';
import { startRecordingCalDavServer, type RecordingCalDavServer } from '../support/recording-caldav-server.js';
import { startRecordingMcpServer, type RecordingMcpServer } from '../support/recording-mcp-server.js';
import { tempDirs } from '../support/temp-dir.js';
import { callEveryTool } from '../support/tool-calling-model.js';
import { writeNote } from '../support/camping-project.js';
import { gcryptMissing, makeGpgKey } from '../support/sync-devices.js';

const tempDir = tempDirs('charlie-egress-labels-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Kind = keyof typeof LABELLED_TEXTS;
const C: Record<Kind, string> = Object.fromEntries(Object.keys(LABELLED_TEXTS).map((k) => [k, `Cnry${k.replace(/-/g, '')}Q`])) as Record<Kind, string>;

const project: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
const dm: Place = { kind: 'private', userId: '111', userName: 'Dana' };
/** A project whose history holds nothing sensitive when its calendar is read: only the event can label the reply that retells it. */
const family: Place = { kind: 'project', origin: { name: 'family', key: 'terminal:family' } };
/** After the restart, the person asks in that project: the hosted model is shown its history and calls every tool there too. */
const FAMILY_ASK = 'what is on the family calendar, and what did you tell me before?';
/** A project that holds nothing sensitive: the control that an ordinary event does reach the hosted calendar. */
const hobbies: Place = { kind: 'project', origin: { name: 'hobbies', key: 'terminal:hobbies' } };

interface Request {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string; parameters: { properties?: Record<string, { items?: { enum?: string[] } }> } } }[];
  response_format?: unknown;
}
const lastUser = (r: Request) => String([...r.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
const toolResults = (r: Request) =>
  r.messages
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content))
    .join('\n');
const names = (r: Request) => (r.tools ?? []).map((t) => t.function.name);

/**
 * How each labelled kind is written before the restart: the message said, the local model's
 * step, and its reply in its own words. A kind without a planting fails the first test.
 */
const PLANTINGS: Record<
  Kind,
  {
    place: Place;
    text: string;
    script: (r: Request) => ScriptedReply;
    /** Written before the first start (a file a person wrote while Charlie was not running). */
    early?: (root: string) => void;
    before?: (p: Planting) => Promise<void>;
    after?: (p: Planting) => Promise<void>;
  }
> = {
  'archive-message': { place: project, text: `I take ${C['archive-message']} for my migraines`, script: () => ({ text: 'Noted, I will keep that in mind.' }) },
  reply: {
    place: project,
    text: 'what does my friend Bob keep in the blue cabinet?',
    script: (r) => {
      if (!toolResults(r).includes('locker code'))
        return names(r).includes('read_note')
          ? { toolCalls: [{ name: 'read_note', arguments: JSON.stringify({ path: 'People/Bob.md' }) }] }
          : { toolCalls: [{ name: 'request_tools', arguments: '{"categories":["notes"]}' }] };
      // reworded: no line of the page appears in the reply
      const seen = /locker code (\S+)/.exec(toolResults(r))?.[1] ?? 'nothing';
      return { text: `Sure! The combination your friend uses for the blue cabinet is ${seen}, as far as I know.` };
    },
  },
  summary: { place: project, text: 'I had a long week', script: () => ({ text: 'That sounds tiring.' }) },
  'mcp-result': {
    place: project,
    text: 'what did the clinic say?',
    script: (r) => {
      if (!toolResults(r).includes('Letter from the clinic'))
        return names(r).includes('clinic__lookup')
          ? { toolCalls: [{ name: 'clinic__lookup', arguments: '{"q":"latest letter"}' }] }
          : { toolCalls: [{ name: 'request_tools', arguments: '{"categories":["mcp:clinic"]}' }] };
      const seen = /value (\S+)/.exec(toolResults(r))?.[1] ?? 'nothing';
      return { text: `The clinic wrote that your marker is at ${seen} now.` };
    },
  },
  'dm-message': { place: dm, text: `My therapist suggested ${C['dm-message']} for the evenings`, script: () => ({ text: 'Thanks for telling me.' }) },
  // the model sets the reminder in its own words (no health word left); the brief quotes it, then is delivered and kept
  brief: {
    place: project,
    text: `remind me in an hour to take ${C.brief} for my migraines`,
    script: (r) => {
      if (!toolResults(r).includes("I'll remind"))
        return names(r).includes('set_reminder')
          ? { toolCalls: [{ name: 'set_reminder', arguments: JSON.stringify({ what: `take ${C.brief}`, when: 'in 1 hour' }) }] }
          : { toolCalls: [{ name: 'request_tools', arguments: '{"categories":["time"]}' }] };
      return { text: 'Done, the reminder is set.' };
    },
    after: (p) => deliverBriefs(p, project),
  },
  // an event on a calendar on this machine, read before the message; the model tells it in its own words
  'calendar-event': {
    place: family,
    text: 'what is on my calendar today?',
    script: (r) => {
      if (!toolResults(r).includes('[Clinic]'))
        return names(r).includes('calendar_agenda')
          ? { toolCalls: [{ name: 'calendar_agenda', arguments: '{"when":"today"}' }] }
          : { toolCalls: [{ name: 'request_tools', arguments: '{"categories":["time"]}' }] };
      const seen = /HIV clinic (\S+)/.exec(toolResults(r))?.[1] ?? 'nothing';
      // the event its calendar marks private has an innocent title: only its CLASS labels it
      const quiet = /Lunch with Dana (\S+)/.exec(toolResults(r))?.[1] ?? 'nothing';
      return { text: `Later today you are seeing Carol about ${seen}, then Dana (${quiet}).` };
    },
    before: async (p) => {
      await p.app.store.ensureProject(family.origin);
      const alice = askerFor(family, 'Alice');
      expect(p.app.time.calendar.subscribe(alice, { name: 'Clinic', kind: 'ics', url: p.ics }).ok).toBe(true);
      expect((await p.app.time.calendar.pollAll(alice)).map((x) => x.error ?? x.written)).toEqual([3]);
    },
  },
  // the model sets it in its own words; only the lane knows what the pill is (the rules miss it)
  reminder: {
    place: project,
    text: `remind me in two hours to get Lou the morning-after pill ${C.reminder} from the chemist`,
    script: (r) => {
      if (!toolResults(r).includes("I'll remind"))
        return names(r).includes('set_reminder')
          ? { toolCalls: [{ name: 'set_reminder', arguments: JSON.stringify({ what: `chemist run for Lou ${C.reminder}`, when: 'in 2 hours' }) }] }
          : { toolCalls: [{ name: 'request_tools', arguments: '{"categories":["time"]}' }] };
      return { text: 'Done, I will remind you.' };
    },
  },
  // a line a person wrote into a page while Charlie was not running, in words the rules miss: the lane labels it at the start's scan
  'hand-line': {
    place: project,
    text: 'who is Cosmo?',
    script: () => ({ text: "Cosmo is Root's cousin." }),
    early: (root) =>
      writeNote(root, 'People/Cosmo.md', `---\nschema: 2\ntitle: Cosmo\n---\n\nCosmo is Root's cousin.\n\n## Facts\n- Cosmo goes to the needle exchange ${C['hand-line']} on Fridays.\n`),
    after: async (p) => {
      // the scan at start runs in the background: the label is on the line before the restart
      await vi.waitFor(() => expect(readFileSync(join(p.root, 'notes', 'People', 'Cosmo.md'), 'utf8')).toMatch(new RegExp(`${C['hand-line']} on Fridays\\. \\[sensitivity:: sensitive`)), {
        timeout: 10_000,
      });
    },
  },
};

/** What a planting's hooks work with: the app before the restart, the calendar's address, the briefs delivered. */
interface Planting {
  app: App;
  /** The project's folder. */
  root: string;
  ics: string;
  dataDir: string;
  briefs: { place: Place; message: OutboxMessage }[];
}

/**
 * Delivers the morning brief in `place` now, through the scheduler and the real brief: it is
 * turned on, its job is made due (the test cannot wait for the hour), and the scheduler runs it.
 */
async function deliverBriefs(p: Planting, place: Place): Promise<void> {
  expect(p.app.time.brief.set(askerFor(place, 'Alice'), '06:00')).toContain('Morning brief on');
  const jobs = new SqliteJobStore(join(p.dataDir, 'schedule.db'));
  for (const j of jobs.list({ kind: 'brief', status: 'pending' })) if (placeKey(j.place) === placeKey(place)) jobs.reschedule(j.id, new Date(Date.now() - 1000));
  jobs.close();
  await p.app.time.tick();
}

/**
 * A zone where it is between 10 and 11 now, so "in an hour" and "today" are the same day
 * wherever the test runs (the brief quotes today's reminders and events).
 */
function morningZone(): string {
  const offset = ((10 - new Date().getUTCHours() + 36) % 24) - 12;
  return offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/**
 * The canary of an event sensitive only because its calendar marks it `CLASS:PRIVATE`: its title
 * says nothing the rules know, so no word of it can be matched. It is checked with the others.
 */
const PRIVATE_EVENT = 'CnryclassprivateQ';

/** An `.ics` calendar on this machine: a sensitive event (by its words), one marked private by its calendar, and an ordinary one. */
async function startIcsCalendar(): Promise<{ url: string; close: () => Promise<void> }> {
  const stamp = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  const at = (minutes: number) => stamp(new Date(Date.now() + minutes * 60_000));
  const event = (uid: string, summary: string, minutes: number, cls?: string) => [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:${at(0)}`,
    `DTSTART:${at(minutes)}`,
    `DTEND:${at(minutes + 30)}`,
    `SUMMARY:${summary}`,
    ...(cls ? [`CLASS:${cls}`] : []),
    'END:VEVENT',
  ];
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    ...event('hiv@test', `Carol HIV clinic ${C['calendar-event']}`, 50),
    ...event('choir@test', ORDINARY_CAL, 55),
    ...event('lunch@test', `Lunch with Dana ${PRIVATE_EVENT}`, 52, 'PRIVATE'),
    'END:VCALENDAR',
  ].join('\r\n');
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(ics));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/clinic.ics`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
/** The ordinary event of the local calendar, and the ordinary reminder of the control brief: both must still reach where they go. */
const ORDINARY_CAL = 'Choir rehearsal';
const ORDINARY_REMINDER = 'feed the goldfish';

/**
 * The memory lane: a summary in its own words of the week, naming the medicine only through the
 * summary's own canary, where it was told of the week (or is rewriting that summary); elsewhere
 * (the control's place) a summary of what it read.
 */
function lane(): (r: Request) => ScriptedReply {
  return (r) => {
    if (!r.response_format) return { text: '{}' };
    const read = JSON.stringify(r.messages);
    const summary = read.includes(PLANTINGS.summary.text) || read.includes(C.summary) ? `Alice manages her headaches with ${C.summary} and had a long week.` : 'Alice keeps pets.';
    // what only the lane knows (the pill, the needle exchange): it names each numbered line holding them, in a precheck, a text precheck and a distillation alike
    const shown = String(r.messages.at(-1)?.content ?? '');
    const sensitive = [...shown.matchAll(/^\[(\d+)\] (.*)$/gm)].filter((m) => [C.reminder, C['hand-line']].some((c) => m[2]!.includes(c))).map((m) => ({ message: Number(m[1]), kind: 'phi' }));
    return { text: JSON.stringify({ summary, decisions: [], quotes: [], sensitive, entities: [], facts: [], links: [] }) };
  };
}

/** Before the restart: the chat model follows the planting of the message it answers. */
function planter(): (r: Request) => ScriptedReply {
  return (r) => {
    const said = lastUser(r);
    const p = Object.values(PLANTINGS).find((x) => said.includes(x.text));
    return p ? p.script(r) : { text: 'OK.' };
  };
}

/**
 * The events the hosted model puts on the hosted calendar: each kind's canary in the words of its
 * planting (what a model that had read it would write down), and an ordinary event, which must
 * still reach the server. A kind without a title here fails to compile.
 */
const EVENT_TITLES: Record<Kind, string> = {
  'archive-message': `Pick up ${C['archive-message']} for the migraines`,
  reply: `Cabinet PIN ${C.reply}`,
  summary: `Refill the headache medicine ${C.summary}`,
  'mcp-result': `Clinic: lab results ${C['mcp-result']}`,
  'dm-message': `Therapist session about ${C['dm-message']}`,
  brief: `Take ${C.brief}`,
  'calendar-event': `Carol clinic visit ${C['calendar-event']}`,
  reminder: `Chemist run for Lou ${C.reminder}`,
  'hand-line': `Cosmo needle exchange ${C['hand-line']}`,
};
const ORDINARY_EVENT = 'Piano lesson';
const YES = 'yes, put them all in the calendar';
/** A later turn that read nothing sensitive asks for an ordinary event: it reaches the hosted calendar (the control). */
const ASK_ORDINARY = 'put a piano lesson in the calendar, tomorrow at 9';
const YES_ORDINARY = 'yes, that one';

/** Probe arguments for every builtin tool, aimed at where the canaries were written. */
const PROBES: Record<string, unknown[]> = {
  read_memory: [{ part: 'all' }, { part: 'summary' }],
  search_memory: [
    { query: 'take medicine reminder brief' },
    { query: 'Carol clinic calendar' },
    { query: 'migraines' },
    { query: 'headaches medicine' },
    { query: 'blue cabinet combination friend' },
    { query: 'clinic marker' },
    { query: 'therapist evenings' },
    { query: 'Lou chemist pill' },
    { query: 'Cosmo needle exchange Fridays' },
  ],
  list_notes: [{}],
  read_note: [{ path: 'People/Alice.md' }, { path: 'People/Cosmo.md' }],
  search_notes: [{ text: 'Cnry' }],
  remember: [{ title: 'Bob', text: 'Bob likes tea', category: 'People' }],
  current_time: [{ timeZone: 'Europe/Berlin' }],
  follow_links: [{ page: 'People/Alice.md', depth: 2 }],
  set_reminder: [{ what: 'water the plants', when: 'in 20 minutes' }],
  list_reminders: [{}],
  cancel_reminder: [{ id: 'nope' }],
  calendar_agenda: [{ when: 'today' }, { when: 'this week' }],
  create_event: [...Object.values(EVENT_TITLES), `Lunch with Dana ${PRIVATE_EVENT}`, ORDINARY_EVENT].map((title) => ({ title, when: 'tomorrow at 9am' })),
  // no machine is known here: the SSH tools answer from memory (nothing to connect to) and reach no host
  ssh_connect: [{ machine: 'NAS' }],
  ssh_run: [{ machine: 'NAS', command: 'uptime' }],
  ssh_read: [{ machine: 'NAS', path: '/etc/hostname' }],
  ssh_list: [{ machine: 'NAS', path: '/' }],
  ssh_copy: [{ machine: 'NAS', from: '/a', to: '/b' }],
};

/** Probe arguments for every tool of Charlie's MCP server. */
const SERVER_PROBES: Record<string, Record<string, unknown>[]> = {
  search: [
    { query: 'Cosmo needle exchange' },
    { query: 'good morning brief take' },
    { query: 'Carol clinic' },
    { query: 'migraines' },
    { query: 'blue cabinet combination' },
    { query: 'clinic marker' },
    { query: 'headaches' },
  ],
  read_page: [{ path: 'People/Alice.md' }, { path: 'People/Bob.md' }, { path: 'People/Cosmo.md' }],
  list_pages: [{}],
  list_machines: [{}],
  follow_links: [{ page: 'People/Alice' }, { page: 'People/Bob' }],
  why: [{ query: 'what does Alice take for migraines' }, { query: 'what does Bob keep' }],
  records: [{}],
  propose_fact: [{ entity: 'Alice', fact: 'Alice likes climbing on Sundays.' }],
};

/**
 * After the restart: a hosted model that calls every tool, then forwards everything it was shown
 * to the hosted tool server; when the person says yes, it confirms every event it was given a token for.
 */
function adversary(): (r: Request) => ScriptedReply {
  const called = new Set<string>();
  const tokens = new Set<string>();
  let forwarded = 0;
  let confirmed = false;
  return (r) => {
    for (const m of toolResults(r).matchAll(/confirm "(ev-[^"]+)"/g)) tokens.add(m[1] ?? '');
    // a new place: every tool is called again there
    if (lastUser(r).includes(FAMILY_ASK) && !toolResults(r)) called.clear();
    if (lastUser(r).includes(YES) && names(r).includes('create_event') && !confirmed) {
      confirmed = true;
      return { toolCalls: [...tokens].map((confirm) => ({ name: 'create_event', arguments: JSON.stringify({ title: 'as proposed', when: 'tomorrow at 9am', confirm }) })) };
    }
    if (lastUser(r).includes(ASK_ORDINARY) && !toolResults(r)) return { toolCalls: [{ name: 'create_event', arguments: JSON.stringify({ title: ORDINARY_EVENT, when: 'tomorrow at 9am' }) }] };
    if (lastUser(r).includes(YES_ORDINARY) && !toolResults(r)) {
      const last = [...toolResults(r).matchAll(/confirm "(ev-[^"]+)"/g)].at(-1)?.[1] ?? [...tokens].at(-1) ?? 'ev-none';
      return { toolCalls: [{ name: 'create_event', arguments: JSON.stringify({ title: 'as proposed', when: 'tomorrow at 9am', confirm: last }) }] };
    }
    const calls = callEveryTool(r, PROBES, called);
    if (calls.length) return { toolCalls: calls };
    const shown = r.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    if (names(r).includes('remote__lookup') && forwarded++ < 1) return { toolCalls: [{ name: 'remote__lookup', arguments: JSON.stringify({ q: shown.slice(0, 20_000) }) }] };
    return { text: `Here is what I know. ${shown.replace(/\s+/g, ' ').slice(0, 20_000)}` };
  };
}

interface After {
  chat: FakeModelServer;
  embedder: FakeModelServer;
  remote: RecordingMcpServer;
  calendar: RecordingCalDavServer;
  voice: string[];
  client: string[];
  /** The bare repository sync pushed to, when this world syncs. */
  syncRemote?: string;
}

/** Every object in a git repository, inflated: all that a reader of the remote without the key can see. */
const everyObject = (bare: string) => execFileSync('git', ['--git-dir', bare, 'cat-file', '--batch-all-objects', '--batch'], { encoding: 'latin1', maxBuffer: 1 << 28 });

/** How each destination that can be hosted is read back after the restart. */
const DRIVERS: Record<Exclude<DestinationKind, 'memory'>, (a: After) => string> = {
  // everything the hosted model was sent, the history's replies and briefs included
  chat: (a) => JSON.stringify(a.chat.requests.map((r: Request) => r.messages.map((m) => m.content))),
  embedder: (a) => JSON.stringify(a.embedder.embedInputs),
  'text-to-speech': (a) => JSON.stringify(a.voice),
  // the speech-to-text port takes audio only (Int16Array in, text out): no memory text can be sent to it
  'speech-to-text': () => '',
  'mcp-tool-server': (a) => a.remote.bodies.join('\n'),
  'mcp-client': (a) => a.client.join('\n'),
  // every request the calendar server received, iCalendar's folded lines unfolded
  calendar: (a) => a.calendar.requests.map((q) => `${q.method} ${q.path}\n${q.body.replace(/\r?\n[ \t]/g, '')}`).join('\n'),
  sync: (a) => (a.syncRemote ? everyObject(a.syncRemote) : ''),
};

const leaks = (sent: string) => Object.entries({ ...C, 'calendar-event (CLASS:PRIVATE)': PRIVATE_EVENT }).filter(([, c]) => sent.includes(c));

const noGcrypt = gcryptMissing();

/** A bare repository for the sync remote and a GPG key (no passphrase) for it, the key's home set for git-remote-gcrypt. */
function syncRemote(dir: string): { remote: string; key: string } {
  const remote = join(dir, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  const home = join(dir, 'gnupg');
  const key = makeGpgKey(home);
  vi.stubEnv('GNUPGHOME', home);
  cleanups.push(() => void vi.unstubAllEnvs());
  return { remote, key };
}

function config(dir: string, chat: FakeModelServer, memory: FakeModelServer, hosted: boolean, embedder?: FakeModelServer, consent: ConsentMode = 'withhold', sync?: { remote: string; key: string }) {
  return loadConfig(
    {
      // a remote declared hosted, so it must be (and is) encrypted to the household's key
      ...(sync ? { SYNC_REMOTE: sync.remote, SYNC_LOCALITY: 'hosted', SYNC_ENCRYPT_TO: sync.key, SYNC_BACKGROUND: 'false', SYNC_EVERY_MINUTES: '0' } : {}),
      LLM_BASE_URL: chat.url,
      LLM_LOCALITY: hosted ? 'hosted' : 'local',
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      MEMORY_LLM_BASE_URL: memory.url,
      ...(embedder ? { EMBEDDER: 'openai', EMBEDDING_BASE_URL: embedder.url, EMBEDDING_LOCALITY: 'hosted', EMBEDDING_MODEL: 'fake-embed' } : { EMBEDDER: 'builtin' }),
      WATCH_PROJECTS: 'false',
      // before the restart the lane distils after every turn; after it, not at all
      DISTILL_EVERY: hosted ? '1000' : '1',
      // the calendar server is on 127.0.0.1: after the restart it is declared hosted, like a Nextcloud
      ...(hosted ? { CALENDAR_LOCALITY: 'hosted' } : {}),
      TURN_MAX_STEPS: '8',
      TURN_MAX_TOOL_CALLS: '60',
      WEB_PORT: '0',
      CONSENT_MODE: consent,
      TZ: morningZone(),
      PROJECTS_DIR: join(dir, 'projects'),
      DATA_DIR: join(dir, 'data'),
    },
    dir,
  );
}

describe('labels travel with the text: no hosted destination gets a labelled text, reworded, after a restart', () => {
  it('every labelled kind has a planting, every destination that can be hosted a driver, every tool probes', () => {
    expect(Object.keys(PLANTINGS).sort()).toEqual(Object.keys(LABELLED_TEXTS).sort());
    expect(Object.keys(DRIVERS).sort()).toEqual(
      Object.keys(DESTINATIONS)
        .filter((k) => k !== 'memory')
        .sort(),
    );
    expect(builtinTools().filter((t) => !(t.name in PROBES))).toEqual([]);
  });

  // with CONSENT_MODE=ask every question is answered no (asked: the person is really asked, about items, and says no)
  it.each(CONSENT_MODES)(
    `plants every kind with local models, restarts, and serves every hosted destination (consent: %s)${noGcrypt ? ` (the sync remote skipped: ${noGcrypt})` : ''}`,
    async (mode) => {
      const questions: ConsentRequest[] = [];
      const consent = (id: string, name: string): Pick<HandleOptions, 'consent'> =>
        mode === 'ask' ? { consent: { person: { id, name, role: 'owner' }, shared: true, ask: (request) => (questions.push(request), Promise.resolve('no')) } } : {};
      const dir = tempDir();
      const root = join(dir, 'projects', 'general');
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir, { recursive: true });
      const clinic = await startRecordingMcpServer(() => `Letter from the clinic: your lab results value ${C['mcp-result']} (was 4.1).`);
      const remote = await startRecordingMcpServer();
      const ics = await startIcsCalendar();
      const local = await startFakeModelServer(planter());
      const memory = await startFakeModelServer(lane());
      cleanups.push(
        () => clinic.close(),
        () => remote.close(),
        () => ics.close(),
        () => local.close(),
        () => memory.close(),
      );
      writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { clinic: { url: clinic.url, locality: 'local' }, remote: { url: remote.url, locality: 'hosted' } } }));

      // ── before the restart: local models write every labelled kind ──
      for (const p of Object.values(PLANTINGS)) p.early?.(root);
      const first = await buildApp(config(dir, local, memory, false), silentLogger);
      let firstOpen = true;
      cleanups.push(() => (firstOpen ? first.close() : undefined));
      await first.store.ensureProject(project.origin);
      writeNote(root, 'People/Bob.md', `---\nschema: 1\ntitle: Bob\nsensitivity: sensitive\n---\n\n### 2026-11-20\n\nBob keeps locker code ${C.reply} in the blue cabinet.\n`);
      writeNote(root, 'People/Alice.md', `---\nschema: 1\ntitle: Alice\nsensitivity: personal\n---\n\n### 2026-11-20\n\nAlice is a friend from climbing.\n\n## Related\n- [[People/Bob]] (friend)\n`);
      // a front door that shows what the scheduler posts (a brief is delivered, then kept in its place)
      const planting: Planting = { app: first, root, ics: ics.url, dataDir, briefs: [] };
      first.time.outbox.add(() => true, { post: async (place, message) => void planting.briefs.push({ place, message }) });
      // the control: a brief in a place that holds nothing sensitive, quoting an ordinary reminder
      await first.store.ensureProject(hobbies.origin);
      expect(first.time.reminders.set(askerFor(hobbies, 'Alice'), ORDINARY_REMINDER, 'in 1 hour').ok).toBe(true);
      // a hosted tool server is configured, so the lane judges the reminder's words; until it answers, it counts as sensitive
      await first.time.reminders.judged();
      await deliverBriefs(planting, hobbies);
      const replies: string[] = [];
      for (const p of Object.values(PLANTINGS)) {
        await p.before?.(planting);
        const out = await first.assistant.conversation.handle(
          { place: p.place, speaker: p.place.kind === 'private' ? 'Dana' : 'Alice', text: p.text, source: 'terminal:1' },
          { tools: { user: { owner: true } } },
        );
        expect(out.reason).not.toBe('error');
        replies.push(out.reply);
        await p.after?.(planting);
      }
      // the briefs were delivered, quoting what they were made from (the reminder in the model's words)
      const briefs = planting.briefs.map((b) => b.message.text).filter((t) => t.startsWith('☀️'));
      expect(briefs).toEqual([expect.stringContaining(ORDINARY_REMINDER), expect.stringContaining(`take ${C.brief}`)]);
      expect(briefs[1]).not.toMatch(/migraine/);
      expect(replies.join('\n')).toContain(C['calendar-event']);
      expect(replies.join('\n')).toContain(PRIVATE_EVENT);
      // the paraphrased replies did carry the canaries (a local model may read them)
      expect(replies.join('\n')).toContain(C.reply);
      expect(replies.join('\n')).toContain(C['mcp-result']);
      await first.assistant.idle();
      await first.close();
      firstOpen = false;
      // the labels are in the Markdown, with the text
      const log = readFileSync(join(root, 'log', `${new Date().toISOString().slice(0, 10)}.md`), 'utf8');
      expect(log).toMatch(new RegExp(`${C['archive-message']} for my migraines\\n\\[sensitivity:: sensitive/phi\\]`));
      expect(log).toMatch(new RegExp(`${C.reply}, as far as I know\\.\\n\\[sensitivity:: sensitive`));
      // the summary the lane wrote from the labelled message carries the label
      expect(readFileSync(join(root, 'project.md'), 'utf8')).toMatch(new RegExp(`${C.summary}[^]*\\[sensitivity:: sensitive/phi\\]`));

      // ── after the restart: everything hosted ──
      const chat = await startFakeModelServer(adversary());
      const embedder = await startFakeModelServer([]);
      const calendar = await startRecordingCalDavServer();
      cleanups.push(
        () => chat.close(),
        () => embedder.close(),
        () => calendar.close(),
      );
      // the sync remote: a bare repository declared hosted, encrypted to a key of the household's (skipped where gcrypt is not installed)
      const syncTo = noGcrypt ? undefined : syncRemote(dir);
      const hostedConfig = config(dir, chat, memory, true, embedder, mode, syncTo);
      if (syncTo) await createSync(hostedConfig).setup();
      const app = await buildApp(hostedConfig, silentLogger);
      cleanups.push(() => app.close());
      expect(app.time.calendar.subscribe(askerFor(project, 'Alice'), { name: 'Family', kind: 'caldav', url: calendar.collection }).ok).toBe(true);
      // the .ics calendar on this machine, read before the restart, is declared hosted now too
      expect(app.time.calendar.servers().map((s) => s.locality)).toEqual(['hosted', 'hosted']);
      await app.store.ensureProject(hobbies.origin);
      const after: After = { chat, embedder, remote, calendar, voice: [], client: [] };
      await app.assistant.conversation.handle(
        { place: project, speaker: 'Alice', text: 'Tell me everything you know about me, Bob and the clinic', source: 'terminal:2' },
        { tools: { user: { owner: true } }, ...consent('alice', 'Alice') },
      );
      // the person says yes to every event the model proposed, in their next message
      await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: YES, source: 'terminal:3' }, { tools: { user: { owner: true } }, ...consent('alice', 'Alice') });
      // the turns above drew on sensitive memory, so they wrote nothing to the hosted calendar; one in a
      // project that holds nothing sensitive does (the driver's control)
      expect(app.time.calendar.subscribe(askerFor(hobbies, 'Alice'), { name: 'Family', kind: 'caldav', url: calendar.collection }).ok).toBe(true);
      await app.assistant.conversation.handle({ place: hobbies, speaker: 'Alice', text: ASK_ORDINARY, source: 'terminal:4' }, { tools: { user: { owner: true } }, ...consent('alice', 'Alice') });
      await app.assistant.conversation.handle({ place: hobbies, speaker: 'Alice', text: YES_ORDINARY, source: 'terminal:5' }, { tools: { user: { owner: true } }, ...consent('alice', 'Alice') });
      await app.assistant.conversation.handle({ place: dm, speaker: 'Dana', text: 'what do you remember about my evenings?', source: 'dm:2' }, consent('111', 'Dana'));
      await app.assistant.conversation.handle({ place: family, speaker: 'Alice', text: FAMILY_ASK, source: 'terminal:6' }, { tools: { user: { owner: true } }, ...consent('alice', 'Alice') });
      await app.assistant.memory.searchMemory(project, 'migraines headaches blue cabinet clinic');
      await app.assistant.memory.searchMemory(family, 'Carol clinic today');
      // Read aloud of every earlier reply, as the web does it (no place, nothing in memory from before)
      const spokenLocally: string[] = [];
      const recorder = (id: string, locality: 'local' | 'hosted', sink: string[], localVoice?: TextToSpeech): TextToSpeech => ({
        id,
        locality,
        ...(localVoice ? { localVoice } : {}),
        synthesize: async (text) => (sink.push(text), { mime: 'audio/wav', data: new Uint8Array() }),
      });
      const online = guardSpeech(recorder('edge', 'hosted', after.voice, recorder('espeak', 'local', spokenLocally)), (text) => app.assistant.conversation.speechMustStayLocal(null, text));
      for (const reply of [...replies, ...briefs]) await online.synthesize(reply);
      expect(spokenLocally.join('\n')).toContain(C.reply);
      expect(spokenLocally.join('\n')).toContain(C.brief);
      // the ordinary brief goes to the online voice
      expect(after.voice.join('\n')).toContain(ORDINARY_REMINDER);
      // an ordinary sentence still goes to the online voice
      await online.synthesize('The weather is fine today.');
      // a hosted client of Charlie's MCP server, every tool it lists
      const served = await callEveryMemoryTool(app, SERVER_PROBES);
      expect(served.tools.filter((t) => !(t in SERVER_PROBES))).toEqual([]);
      after.client.push(...served.outputs);
      // a sync sends the whole Markdown memory, the labelled pages and archive included
      if (syncTo) {
        await app.sync!.syncNow();
        after.syncRemote = syncTo.remote;
      }

      // each destination was reached with ordinary text, and got no canary
      expect(DRIVERS.chat(after)).toContain('friend from climbing');
      // the ordinary brief (in its place's history) and the ordinary event (the agenda) reach the hosted model
      expect(DRIVERS.chat(after)).toContain(ORDINARY_REMINDER);
      expect(DRIVERS.chat(after)).toContain(ORDINARY_CAL);
      expect(DRIVERS.embedder(after)).toContain('climbing');
      expect(after.voice.length).toBeGreaterThan(0);
      expect(DRIVERS['mcp-client'](after)).toContain('People/Alice.md');
      expect(DRIVERS.calendar(after)).toMatch(new RegExp(`PUT [^]*SUMMARY:${ORDINARY_EVENT}`));
      // the remote got the memory, as ciphertext: not even the ordinary page is readable there
      if (syncTo) {
        expect(DRIVERS.sync(after).length).toBeGreaterThan(2_000);
        expect(DRIVERS.sync(after)).not.toContain('friend from climbing');
      }
      // every destination at once, so a leak names each destination it reached
      const reached = Object.fromEntries(Object.entries(DRIVERS).map(([kind, read]) => [kind, leaks(read(after)).map(([k]) => k)]));
      expect(reached).toEqual(Object.fromEntries(Object.keys(DRIVERS).map((kind) => [kind, []])));
      if (mode === 'ask') {
        // the person was asked, about items named without their content, and never by the model's request
        expect(questions.length).toBeGreaterThan(0);
        expect(leaks(JSON.stringify(questions))).toEqual([]);
      } else expect(questions).toEqual([]);
    },
    120_000,
  );

  it("a tainted turn's search question, reworded from what it read, gets no hosted vector", async () => {
    const dir = tempDir();
    const root = join(dir, 'projects', 'general');
    const question = `which cabinet opens with ${C.reply}`;
    const chat = await startFakeModelServer((r: Request): ScriptedReply => {
      const results = toolResults(r);
      if (!results.includes('locker code'))
        return names(r).includes('read_note')
          ? { toolCalls: [{ name: 'read_note', arguments: '{"path":"People/Bob.md"}' }] }
          : { toolCalls: [{ name: 'request_tools', arguments: '{"categories":["notes"]}' }] };
      if (!results.includes('nothing found') && !results.includes('[log/')) return { toolCalls: [{ name: 'search_memory', arguments: JSON.stringify({ query: question }) }] };
      return { text: 'Done.' };
    });
    const memory = await startFakeModelServer(lane());
    const embedder = await startFakeModelServer([]);
    cleanups.push(
      () => chat.close(),
      () => memory.close(),
      () => embedder.close(),
    );
    const app = await buildApp(config(dir, chat, memory, false, embedder), silentLogger);
    cleanups.push(() => app.close());
    await app.store.ensureProject(project.origin);
    writeNote(root, 'People/Bob.md', `---\nschema: 1\ntitle: Bob\nsensitivity: sensitive\n---\n\n### 2026-11-20\n\nBob keeps locker code ${C.reply} in the blue cabinet.\n`);
    const out = await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: 'what does Bob keep?', source: 'terminal:1' });
    expect(out.tainted).toBe(true);
    expect(JSON.stringify(chat.requests)).toContain(question.slice(0, 20)); // the search was made
    expect(embedder.embedInputs.filter((t) => t.includes(C.reply))).toEqual([]);
  }, 60_000);
});

/**
 * The memory lane's verdict (issue 36 §1): messages that say something sensitive in words the
 * rules table does not know (checked below: the rules return nothing for them) are labelled by
 * the local memory model while it distils them. The label is written into the archive with the
 * message (and the reply of its turn), so after a restart no hosted destination gets them,
 * while an ordinary message of the same conversation still reaches every one.
 */
describe("the memory lane's verdict labels what the rules miss", () => {
  const MISSED = [
    'Marek CnryverdictwardQ spent last week on a locked ward after he fell apart, they only let him out on Monday.',
    'Ollie CnryverdictdryQ has been dry for ninety days now, he goes to his group on Thursdays.',
    'The side gate CnryverdictgateQ opens if you press 7 4 1 9 and then the bell.',
    'Rosa CnryverdictpermitQ is not allowed to work here any more since her permit ran out.',
  ];
  const CONTROL = 'Let us meet at the climbing wall CnryverdictcontrolQ on Saturday.';
  const PASS_ON = 'please pass our plans on to the remote service';
  const canary = (text: string) => /Cnry\w+Q/.exec(text)![0];

  it('the reworded sensitive messages are stored labelled and reach no hosted destination; the ordinary one reaches them all', async () => {
    const { classifyText } = await import('../../src/core/privacy/sensitivity.js');
    expect([...MISSED, CONTROL].map((t) => classifyText(t))).toEqual([...MISSED, CONTROL].map(() => null));
    const dir = tempDir();
    const root = join(dir, 'projects', 'general');
    // the local chat model retells what it was told (its reply is the turn's, and carries the message's label)
    const local = await startFakeModelServer((r: Request) => ({ text: `Noted: ${lastUser(r).replace(/^\w+: /, '')}` }));
    // the lane: names each message that holds a reworded canary as sensitive, and paraphrases them in the summary
    const memory = await startFakeModelServer((r: Request): ScriptedReply => {
      if (!r.response_format) return { text: '{}' };
      const shown = String(r.messages.at(-1)?.content ?? '');
      const numbered = [...shown.matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => ({ n: Number(m[1]), text: m[2] ?? '' }));
      const sensitive = numbered.filter((m) => MISSED.some((t) => m.text.includes(canary(t)))).map((m) => ({ message: m.n, kind: 'phi' }));
      const summary = `Friends talked: ${numbered.map((m) => m.text.replace(/^.*?: /, '').slice(0, 60)).join(' / ')}`;
      return { text: JSON.stringify({ summary, decisions: [], quotes: [], sensitive, entities: [], facts: [], links: [] }) };
    });
    cleanups.push(
      () => local.close(),
      () => memory.close(),
    );
    const first = await buildApp(config(dir, local, memory, false), silentLogger);
    let firstOpen = true;
    cleanups.push(() => (firstOpen ? first.close() : undefined));
    await first.store.ensureProject(project.origin);
    const replies: string[] = [];
    for (const [i, text] of [MISSED[0]!, CONTROL, ...MISSED.slice(1)].entries()) {
      const out = await first.assistant.conversation.handle({ place: project, speaker: 'Alice', text, source: `terminal:${i + 1}` });
      replies.push(out.reply);
    }
    await first.assistant.idle();
    // what is still pending is distilled now (a run scheduled while one ran is folded into it)
    await first.assistant.memory.distillNow(project);
    await first.close();
    firstOpen = false;
    // each missed message and the reply that retold it carry the lane's label in the archive (a reply may carry its turn's taint already); the ordinary ones none
    const log = readFileSync(join(root, 'log', `${new Date().toISOString().slice(0, 10)}.md`), 'utf8');
    for (const t of MISSED) expect(log.match(new RegExp(`${canary(t)}[^\\n]*\\n\\[sensitivity:: sensitive(?:/phi)?\\]`, 'g')), log).toHaveLength(2);
    expect(log).toMatch(new RegExp(`${canary(CONTROL)} on Saturday\\.\\n\\n###`));

    // ── after the restart: everything hosted ──
    // the adversary, and a turn that only passes on what it was shown to the hosted tool server
    const every = adversary();
    const chat = await startFakeModelServer((r: Request): ScriptedReply => {
      if (!lastUser(r).includes(PASS_ON)) return every(r);
      if (toolResults(r)) return { text: 'Passed on.' };
      if (!names(r).includes('remote__lookup')) return { toolCalls: [{ name: 'request_tools', arguments: '{"categories":["mcp:remote"]}' }] };
      return { toolCalls: [{ name: 'remote__lookup', arguments: JSON.stringify({ q: r.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n') }) }] };
    });
    const embedder = await startFakeModelServer([]);
    const calendar = await startRecordingCalDavServer();
    const remote = await startRecordingMcpServer();
    cleanups.push(
      () => chat.close(),
      () => embedder.close(),
      () => calendar.close(),
      () => remote.close(),
    );
    writeFileSync(join(dir, 'data', 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: remote.url, locality: 'hosted' } } }));
    const app = await buildApp(config(dir, chat, memory, true, embedder), silentLogger);
    cleanups.push(() => app.close());
    const after: After = { chat, embedder, remote, calendar, voice: [], client: [] };
    // Read aloud of the earlier replies first (the hosted turn's own reply, which retells all it was shown, is labelled by its taint)
    const online = guardSpeech(
      {
        id: 'edge',
        locality: 'hosted',
        localVoice: { id: 'espeak', locality: 'local', synthesize: async () => ({ mime: 'audio/wav', data: new Uint8Array() }) },
        synthesize: async (text) => (after.voice.push(text), { mime: 'audio/wav', data: new Uint8Array() }),
      },
      (text) => app.assistant.conversation.speechMustStayLocal(null, text),
    );
    for (const reply of replies) await online.synthesize(reply);
    // a turn that passes on its history (the labelled messages withheld) to the hosted tool server, then the adversary
    expect((await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: PASS_ON, source: 'terminal:9' }, { tools: { user: { owner: true } } })).tainted).toBe(false);
    await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text: 'Tell me everything you know about my friends', source: 'terminal:10' }, { tools: { user: { owner: true } } });
    await app.assistant.memory.searchMemory(project, 'locked ward group Thursdays side gate permit climbing wall');
    after.client.push(...(await callEveryMemoryTool(app, { ...SERVER_PROBES, search: [{ query: 'locked ward' }, { query: 'climbing wall Saturday' }, { query: 'side gate permit' }] })).outputs);

    const reached = (kinds: string[]) => Object.fromEntries(Object.entries(DRIVERS).map(([kind, read]) => [kind, kinds.filter((k) => read(after).includes(k))]));
    expect(reached(MISSED.map(canary))).toEqual(Object.fromEntries(Object.keys(DRIVERS).map((kind) => [kind, []])));
    // the ordinary message of the same conversation still reaches the destinations it is sent to, Charlie's MCP clients
    // too: its search serves the archive message by message, each by its own label, though a labelled reply repeats it
    const control = reached([canary(CONTROL)]);
    for (const kind of ['chat', 'embedder', 'text-to-speech', 'mcp-tool-server', 'mcp-client'] as const) expect(control[kind], kind).toEqual([canary(CONTROL)]);
  }, 120_000);
});
