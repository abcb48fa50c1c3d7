/**
 * Calendar servers are destinations with a locality, like every other service. The break this
 * closes: "Carol HIV clinic …" was PUT to a CalDAV server after a yes. Now a sensitive event is
 * never written to a hosted calendar server — refused when proposed, and asked again at the yes
 * (a server declared hosted since) — while an ordinary event still is, and a server on this
 * machine (local by address) gets both. Events read from a calendar are labelled by the same
 * rules as they enter Charlie (the rules table's new words, and iCalendar's CLASS:PRIVATE), so a
 * hosted model's agenda withholds them. Doctor, Settings and the destinations list name each
 * server with where it runs.
 *
 * Against Radicale (a real CalDAV server on 127.0.0.1) where it is installed, and the same
 * behaviour against a scripted connector that records every write, which always runs.
 */
import { join } from 'node:path';
import { DAVClient } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { DESTINATIONS } from '../../src/core/privacy/destinations.js';
import { silentLogger, type GraphWrite, type Locality } from '../../src/core/ports/index.js';
import { CalendarDesk, type CalendarConnector, type CalendarEvent } from '../../src/core/time/calendar.js';
import { askerFor } from '../../src/core/time/reminder-desk.js';
import type { TextPrecheck } from '../../src/core/turn/precheck.js';
import { classifyText } from '../../src/core/privacy/sensitivity.js';
import { CalendarConnectorImpl } from '../../src/time/calendar/connector.js';
import { parseEvents } from '../../src/time/calendar/ical.js';
import { configuredDestinations, subscribedCalendars } from '../../src/doctor/destinations.js';
import { urlIsLocal } from '../../src/llm/locality.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { settingsView } from '../../src/web/settings.js';
import { FixedClock } from '../support/fakes.js';
import { radicaleAvailable, startRadicale, type Radicale } from '../support/radicale.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-cal-locality-');
const place: Place = { kind: 'project', origin: { name: 'family', key: 'terminal:family' } };
const ann = askerFor(place, 'Ann');
const SENSITIVE = ['Carol HIV clinic', 'Carol oncology follow-up', 'Bob counselling session', 'Court hearing about custody', 'Meet the mortgage adviser'];

function desk(connector: CalendarConnector, localityOf: (url: string) => Locality, dir = tmp(), precheck?: TextPrecheck) {
  const writes: GraphWrite[] = [];
  const jobs = new SqliteJobStore(join(dir, 'schedule.db'));
  let n = 0;
  const prefix = Math.random().toString(36).slice(2, 8); // each desk's event names are its own on a shared server
  const calendar = new CalendarDesk({
    jobs,
    connector,
    records: { write: async (_p, w) => (writes.push(w), { created: [], updated: [], factsAdded: w.entities[0]?.facts.length ?? 0, factsRefreshed: 0, linksAdded: 0, refused: [] }) },
    clock: new FixedClock(new Date('2026-12-01T10:00:00Z')),
    zoneOf: () => 'Europe/Berlin',
    logger: silentLogger,
    newId: () => `${prefix}${++n}`,
    pollMinutes: 15,
    localityOf,
    ...(precheck ? { precheck } : {}),
  });
  return { calendar, jobs, writes, dir };
}

/** A CalDAV source that keeps what it was given: `created` is what reached "the server". */
function recordingServer(events: () => CalendarEvent[] = () => []) {
  const created: Omit<CalendarEvent, 'allDay'>[] = [];
  const connector: CalendarConnector = { open: () => ({ marker: async () => String(Math.random()), events: async () => events(), create: async (e) => void created.push(e) }) };
  return { connector, created };
}

/** Propose, then confirm in a later message (the person's yes): what the desk answered each time. */
async function proposeAndConfirm(calendar: CalendarDesk, title: string): Promise<{ proposed: string; confirmed: string }> {
  const proposed = calendar.propose(ann, 'terminal:1', { title, when: 'Friday at 5pm' });
  const token = /confirm "([^"]+)"/.exec(proposed)?.[1] ?? 'ev-none';
  return { proposed, confirmed: await calendar.confirm(ann, 'terminal:2', token) };
}

describe('a hosted calendar server never receives a sensitive event', () => {
  it.each(SENSITIVE)('%s: not written to a hosted server, even after a yes', async (title) => {
    const server = recordingServer();
    const { calendar, jobs } = desk(server.connector, () => 'hosted');
    expect(calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://cloud.example.com/remote.php/dav/calendars/ann/family/' }).ok).toBe(true);
    const { proposed, confirmed } = await proposeAndConfirm(calendar, title);
    expect(proposed).toMatch(/hosted server/);
    expect(confirmed).not.toMatch(/^Created/);
    expect(server.created).toEqual([]);
    jobs.close();
  });

  it('an ordinary event is still written to the hosted server; a local one gets the sensitive event too', async () => {
    const hosted = recordingServer();
    const h = desk(hosted.connector, () => 'hosted');
    h.calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://cloud.example.com/dav/family/' });
    expect((await proposeAndConfirm(h.calendar, 'Piano lesson')).confirmed).toMatch(/^Created "Piano lesson"/);
    expect(hosted.created.map((e) => e.summary)).toEqual(['Piano lesson']);
    h.jobs.close();

    const mine = recordingServer();
    const l = desk(mine.connector, (url) => (urlIsLocal(url, 'auto') ? 'local' : 'hosted'));
    l.calendar.subscribe(ann, { name: 'Home', kind: 'caldav', url: 'http://192.168.1.20:5232/ann/home/' });
    expect((await proposeAndConfirm(l.calendar, 'Carol HIV clinic')).confirmed).toMatch(/^Created/);
    expect(mine.created.map((e) => e.summary)).toEqual(['Carol HIV clinic']);
    l.jobs.close();
  });

  it('an event a tainted turn proposes carries its label: words no rule knows ("Blue cabinet 7719") reach no hosted server', async () => {
    const server = recordingServer();
    const { calendar, jobs } = desk(server.connector, () => 'hosted');
    calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://cloud.example.com/dav/family/' });
    const proposed = calendar.propose(ann, 'terminal:1', { title: 'Blue cabinet 7719', when: 'Friday at 5pm' }, { tainted: true });
    expect(proposed).toMatch(/hosted server/);
    // the same words from a turn that read nothing sensitive are an ordinary event
    const { confirmed } = await proposeAndConfirm(calendar, 'Blue cabinet 7719');
    expect(confirmed).toMatch(/^Created/);
    expect(server.created.map((e) => e.summary)).toEqual(['Blue cabinet 7719']);
    jobs.close();
  });

  it('an event the rules let pass is read by the lane (or the judge) before a hosted server gets it, whatever the chat model is (eighth sweep)', async () => {
    const MISSED = 'Rory - the hearing about his sentence';
    expect(classifyText(MISSED)).toBeNull();
    // a scripted precheck: it labels what names a hearing, and says which texts it was asked about and for what
    const asked: [string[], boolean][] = [];
    const precheck: TextPrecheck = {
      judge: 'a scripted lane',
      applies: () => false, // the chat model is local: messages are not prechecked
      labels: async (texts, _signal, hosted = false) => (asked.push([[...texts], hosted]), texts.map((t) => (/hearing/.test(t) ? { sensitivity: 'sensitive' } : { sensitivity: 'personal' }))),
    };
    const hosted = recordingServer();
    const h = desk(hosted.connector, () => 'hosted', tmp(), precheck);
    h.calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://cloud.example.com/dav/family/' });
    expect((await proposeAndConfirm(h.calendar, MISSED)).confirmed).toMatch(/hosted server/);
    expect((await proposeAndConfirm(h.calendar, 'Piano lesson')).confirmed).toMatch(/^Created "Piano lesson"/);
    expect(hosted.created.map((e) => e.summary)).toEqual(['Piano lesson']);
    expect(asked).toEqual([
      [[MISSED], true],
      [['Piano lesson'], true],
    ]);
    h.jobs.close();
    // a server on this machine is the owner's: nothing is asked, the event is written
    const mine = recordingServer();
    asked.length = 0;
    const l = desk(mine.connector, () => 'local', tmp(), precheck);
    l.calendar.subscribe(ann, { name: 'Home', kind: 'caldav', url: 'http://127.0.0.1:5232/ann/home/' });
    expect((await proposeAndConfirm(l.calendar, MISSED)).confirmed).toMatch(/^Created/);
    expect(asked).toEqual([]);
    l.jobs.close();
  });

  it('asked again at the yes: a server declared hosted after the proposal gets nothing', async () => {
    const server = recordingServer();
    let locality: Locality = 'local';
    const { calendar, jobs } = desk(server.connector, () => locality);
    calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://cloud.example.com/dav/family/' });
    const proposed = calendar.propose(ann, 'terminal:1', { title: 'Carol HIV clinic', when: 'Friday at 5pm' });
    const token = /confirm "([^"]+)"/.exec(proposed)?.[1] ?? '';
    expect(token).not.toBe('');
    locality = 'hosted';
    expect(await calendar.confirm(ann, 'terminal:2', token)).toMatch(/hosted server/);
    expect(server.created).toEqual([]);
    jobs.close();
  });

  it('without a declared locality every server counts as hosted (fails closed)', async () => {
    const server = recordingServer();
    const dir = tmp();
    const jobs = new SqliteJobStore(join(dir, 'schedule.db'));
    const calendar = new CalendarDesk({
      jobs,
      connector: server.connector,
      records: { write: async () => ({ created: [], updated: [], factsAdded: 0, factsRefreshed: 0, linksAdded: 0, refused: [] }) },
      clock: new FixedClock(),
      zoneOf: () => 'UTC',
      logger: silentLogger,
      newId: () => 'x',
      pollMinutes: 15,
    });
    calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'http://127.0.0.1:5232/ann/family/' });
    expect((await proposeAndConfirm(calendar, 'Carol HIV clinic')).confirmed).not.toMatch(/^Created/);
    expect(server.created).toEqual([]);
    jobs.close();
  });
});

describe('events read from a calendar are labelled as they enter Charlie', () => {
  const ics = (uid: string, summary: string, extra = '') =>
    `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261204T090000Z\r\nSUMMARY:${summary}\r\n${extra}END:VEVENT\r\nEND:VCALENDAR\r\n`;
  it('by the rules (oncology, counselling, a biopsy) and by CLASS:PRIVATE; a hosted agenda withholds them', async () => {
    const now = new Date('2026-12-01T10:00:00Z');
    const events = [
      ...(await parseEvents(ics('a@x', 'Carol oncology follow-up'), now)),
      ...(await parseEvents(ics('b@x', 'Bob counselling'), now)),
      ...(await parseEvents(ics('c@x', 'Biopsy results'), now)),
      ...(await parseEvents(ics('d@x', 'Lunch with Dana', 'CLASS:PRIVATE\r\n'), now)),
      ...(await parseEvents(ics('e@x', 'Piano lesson'), now)),
    ];
    const server = recordingServer(() => events);
    const { calendar, jobs, writes } = desk(server.connector, () => 'local');
    calendar.subscribe(ann, { name: 'Family', kind: 'ics', url: 'https://calendar.example.com/family.ics' });
    await calendar.pollAll(ann);
    const facts = writes.flatMap((w) => w.entities.flatMap((e) => e.facts));
    const label = (start: string) => facts.find((f) => f.text.startsWith(start))?.sensitivity;
    expect(label('Carol oncology')).toBe('sensitive/phi');
    expect(label('Bob counselling')).toBe('sensitive/phi');
    expect(label('Biopsy')).toBe('sensitive/phi');
    expect(label('Lunch with Dana')).toBe('sensitive');
    expect(label('Piano lesson')).toBeUndefined();
    const agenda = calendar.agenda(ann, 'Friday', { hosted: true });
    expect(agenda).toContain('Piano lesson');
    for (const word of ['oncology', 'counselling', 'Biopsy', 'Dana']) expect(agenda).not.toContain(word);
    jobs.close();
  });
});

describe('calendar servers are listed where every service is', () => {
  it('in the destinations (doctor), read from schedule.db, and in Settings, each with where it runs', () => {
    const root = tmp();
    const config = loadConfig({ DATA_DIR: join(root, 'data'), PROJECTS_DIR: join(root, 'projects'), EMBEDDER: 'builtin', TTS: 'local' }, root);
    const { calendar, jobs } = desk(recordingServer().connector, (url) => (urlIsLocal(url, config.CALENDAR_LOCALITY) ? 'local' : 'hosted'), join(root, 'data'));
    calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://cloud.example.com/dav/family/' });
    calendar.subscribe(ann, { name: 'Home', kind: 'caldav', url: 'http://nas.lan:5232/ann/home/' });
    jobs.close();
    expect(DESTINATIONS.calendar.guard).toMatch(/sensitive event is never written/);
    const servers = subscribedCalendars(config);
    expect(servers.map((s) => [s.name, s.locality])).toEqual([
      ['Family', 'hosted'],
      ['Home', 'local'],
    ]);
    const listed = configuredDestinations(config, { calendars: servers }).filter((d) => d.kind === 'calendar');
    expect(listed.map((d) => d.locality)).toEqual(['hosted', 'local']);
    expect(listed[0]?.id).toContain('cloud.example.com');
    const items = settingsView(config, servers).items.filter((i) => i.job.startsWith('Keeps the calendar'));
    expect(items.map((i) => [i.where, i.local])).toEqual([
      ['cloud.example.com', false],
      ['nas.lan:5232', true],
    ]);
    // CALENDAR_LOCALITY=local declares them all yours
    const declared = loadConfig({ DATA_DIR: join(root, 'data'), PROJECTS_DIR: join(root, 'projects'), CALENDAR_LOCALITY: 'local' }, root);
    expect(subscribedCalendars(declared).every((s) => s.locality === 'local')).toBe(true);
  });
});

describe.skipIf(!radicaleAvailable)('against Radicale (a real CalDAV server)', () => {
  let server: Radicale;
  let collection: string;
  let device: DAVClient;
  beforeAll(async () => {
    server = await startRadicale();
    device = new DAVClient({ serverUrl: server.url, credentials: { username: 'ann', password: 'pw' }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    await device.login();
    collection = `${device.account!.homeUrl}family/`;
    await device.makeCalendar({ url: collection, props: { displayname: 'Family' } });
  }, 30_000);
  afterAll(async () => server.close());

  const onServer = async () => (await device.fetchCalendarObjects({ calendar: { url: collection } })).map((o) => String(o.data));
  const real = () => new CalendarConnectorImpl({ clock: new FixedClock(new Date('2026-12-01T10:00:00Z')), secrets: () => ({ username: 'ann', password: 'pw' }) });

  it('declared hosted (CALENDAR_LOCALITY=hosted): "Carol HIV clinic" is not PUT after a yes, "Piano lesson" is', async () => {
    const { calendar, jobs } = desk(real(), (url) => (urlIsLocal(url, 'hosted') ? 'local' : 'hosted'));
    calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: collection, handle: 'family' });
    expect((await proposeAndConfirm(calendar, 'Carol HIV clinic')).confirmed).not.toMatch(/^Created/);
    expect((await proposeAndConfirm(calendar, 'Piano lesson')).confirmed).toMatch(/^Created/);
    const stored = (await onServer()).join('\n');
    expect(stored).toContain('Piano lesson');
    expect(stored).not.toContain('HIV');
    jobs.close();
  }, 30_000);

  it('by its address (127.0.0.1 is this machine): the same event is the owner’s to keep there', async () => {
    const { calendar, jobs } = desk(real(), (url) => (urlIsLocal(url, 'auto') ? 'local' : 'hosted'));
    calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: collection, handle: 'family' });
    expect((await proposeAndConfirm(calendar, 'Carol HIV clinic')).confirmed).toMatch(/^Created/);
    expect((await onServer()).join('\n')).toContain('Carol HIV clinic');
    jobs.close();
  }, 30_000);
});
