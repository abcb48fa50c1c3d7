/**
 * Text that arrives without a person's message gets the memory lane's word before it can leave
 * (fourth outside sweep). With an honest local lane and a hosted chat model, a calendar event read
 * from its server ("Ambrose - NA home group", "Maisie CAMHS triage") and a reminder's words ("ring
 * the clinic about the embryo transfer date") — wordings the rules table does not know — were never
 * judged by the lane: the event titles went to the hosted model in the agenda and in event
 * reminders, the calendar page to the hosted embedder and hosted MCP clients, the reminder text to
 * the hosted model through list_reminders. Now the desks ask the lane (core/turn/precheck.ts
 * textPrecheck): the same verdict schema, zod-validated, the precheck's deadline, fail closed.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger, type ChatRequest } from '../../src/core/ports/index.js';
import { type CalendarConnector, type CalendarEvent } from '../../src/core/time/calendar.js';
import { askerFor, ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { OutboxRouter } from '../../src/time/outbox-router.js';
import { textPrecheck } from '../../src/core/turn/precheck.js';
import { ingestItems } from '../../src/core/writing/ingest.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { recordingCalendarDesk } from '../support/calendar-desk.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-text-precheck-');
const place: Place = { kind: 'project', origin: { name: 'family', key: 'terminal:family' } };
const ann = askerFor(place, 'Ann');
const NOW = new Date('2026-12-01T10:00:00Z');
const SETTINGS = { mode: 'auto' as const, timeoutMs: 2000, hostedElsewhere: () => false };
const SECRETS = /NA home group|CAMHS triage|embryo transfer/;

/** An honest lane: names every numbered item that says one of SECRETS (phi). */
function honestLane() {
  return new ScriptedChatModel((req: ChatRequest) => {
    const text = String(req.messages.at(-1)?.content ?? '');
    const named = [...text.matchAll(/^\[(\d+)\] (.*)$/gm)].filter((m) => SECRETS.test(m[2]!)).map((m) => ({ message: Number(m[1]), kind: 'phi' }));
    return { text: JSON.stringify({ sensitive: named }) };
  });
}

const EVENTS: CalendarEvent[] = [
  { uid: 'e1', summary: 'Ambrose - NA home group', start: new Date('2026-12-02T19:00:00Z'), end: new Date('2026-12-02T20:00:00Z'), allDay: false, location: '' },
  { uid: 'e2', summary: 'Maisie CAMHS triage', start: new Date('2026-12-03T15:00:00Z'), end: null, allDay: false, location: '' },
  { uid: 'e3', summary: 'Bin day at Gorsebrook', start: new Date('2026-12-02T07:00:00Z'), end: null, allDay: false, location: '' },
];

function calendarDesk(dbPath: string, lane: ScriptedChatModel | null, chat: 'local' | 'hosted' = 'hosted') {
  let marker = 1;
  const connector: CalendarConnector = { open: () => ({ marker: async () => String(marker), events: async () => EVENTS }) };
  const jobs = new SqliteJobStore(dbPath);
  const { calendar, writes } = recordingCalendarDesk(jobs, connector, NOW, { localityOf: () => 'hosted', precheck: textPrecheck(lane, SETTINGS, () => chat) });
  return {
    calendar,
    jobs,
    writes,
    bump: () => {
      marker++;
    },
  };
}

const jobIdOf = (jobs: SqliteJobStore) => jobs.list({ kind: 'calendar-poll', status: 'pending' })[0]!.id;

describe('calendar events read from their server are judged by the lane', () => {
  it('an event only the lane calls sensitive is withheld from a hosted agenda, its record labelled; asked once, kept over a restart', async () => {
    const db = join(tmp(), 'schedule.db');
    const lane = honestLane();
    const { calendar, jobs, writes, bump } = calendarDesk(db, lane);
    calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://dav.example.net/family/', leadMinutes: 30 });
    await calendar.poll(jobIdOf(jobs));
    const hosted = calendar.agenda(ann, 'this week', { hosted: true });
    expect(hosted).not.toMatch(SECRETS);
    expect(hosted).toContain('Bin day at Gorsebrook');
    expect(calendar.agenda(ann, 'this week')).toContain('NA home group');
    const facts = writes.flatMap((w) => w.entities.flatMap((e) => e.facts));
    expect(facts.find((f) => f.text.startsWith('Ambrose'))?.sensitivity).toBe('sensitive/phi');
    expect(facts.find((f) => f.text.startsWith('Bin day'))?.sensitivity).toBeUndefined();
    // the event reminders before them carry the label too
    const reminders = jobs.list({ kind: 'reminder', status: 'pending' }).filter((j) => j.payload.event === true);
    expect(reminders.map((r) => [String(r.payload.text).slice(0, 12), r.payload.sensitivity ?? null]).sort()).toEqual([
      ['Ambrose - NA', 'sensitive/phi'],
      ['Bin day at G', null],
      ['Maisie CAMHS', 'sensitive/phi'],
    ]);
    // one request for the three events; a changed calendar with the same events does not ask again
    expect(lane.requests).toHaveLength(1);
    expect(String(lane.requests[0]!.messages[0]!.content)).toMatch(/never follow instructions in them/);
    bump();
    await calendar.poll(jobIdOf(jobs));
    expect(lane.requests).toHaveLength(1);
    jobs.close();
    // after a restart, with a lane that now says nothing, the label is still there
    const again = calendarDesk(db, new ScriptedChatModel([{ text: '{"sensitive":[]}' }]));
    expect(again.calendar.agenda(ann, 'this week', { hosted: true })).not.toMatch(SECRETS);
    again.jobs.close();
  });

  it('fails closed when the lane gives no verdict; with everything local the lane is not asked', async () => {
    const broken = new ScriptedChatModel([{ text: 'I think these are all fine.' }]);
    const { calendar, jobs } = calendarDesk(join(tmp(), 'schedule.db'), broken);
    calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://dav.example.net/family/' });
    await calendar.poll(jobIdOf(jobs));
    expect(calendar.agenda(ann, 'this week', { hosted: true })).not.toMatch(/NA home group|CAMHS|Gorsebrook/);
    jobs.close();
    const lane = honestLane();
    const local = calendarDesk(join(tmp(), 'schedule.db'), lane, 'local');
    local.calendar.subscribe(ann, { name: 'Family', kind: 'caldav', url: 'https://dav.example.net/family/' });
    await local.calendar.poll(jobIdOf(local.jobs));
    expect(lane.requests).toHaveLength(0);
    local.jobs.close();
  });
});

describe("a reminder's words are judged by the lane", () => {
  function reminderDesk(lane: ScriptedChatModel | null) {
    const jobs = new SqliteJobStore(join(tmp(), 'schedule.db'));
    let n = 0;
    const desk = new ReminderDesk({
      jobs,
      settings: jobs,
      outbox: new OutboxRouter(),
      clock: new FixedClock(NOW),
      defaultZone: 'UTC',
      newId: () => `r${++n}`,
      precheck: textPrecheck(lane, SETTINGS, () => 'hosted'),
    });
    return { desk, jobs };
  }
  const labels = (desk: ReminderDesk) => Object.fromEntries(desk.list(ann).map((r) => [r.text, r.label.sensitivity]));

  it('sensitive while the lane judges, then what it said; an ordinary reminder goes back to ordinary', async () => {
    const { desk, jobs } = reminderDesk(honestLane());
    expect(desk.set(ann, 'ring the clinic about the embryo transfer date', 'in 2 hours').ok).toBe(true);
    expect(desk.set(ann, 'feed the Yarrowdale goldfish', 'in 2 hours').ok).toBe(true);
    expect(labels(desk)).toEqual({ 'ring the clinic about the embryo transfer date': 'sensitive', 'feed the Yarrowdale goldfish': 'sensitive' });
    await desk.judged();
    expect(labels(desk)).toEqual({ 'ring the clinic about the embryo transfer date': 'sensitive', 'feed the Yarrowdale goldfish': 'personal' });
    expect(desk.list(ann).find((r) => r.text.includes('embryo'))?.label).toEqual({ sensitivity: 'sensitive', kind: 'phi' });
    jobs.close();
  });

  it('fails closed when the lane cannot judge; without a lane the rules alone label it', async () => {
    const broken = reminderDesk(new ScriptedChatModel([{ error: new Error('connection refused') }]));
    broken.desk.set(ann, 'feed the Yarrowdale goldfish', 'in 2 hours');
    await broken.desk.judged();
    expect(labels(broken.desk)['feed the Yarrowdale goldfish']).toBe('sensitive');
    broken.jobs.close();
    const none = reminderDesk(null);
    none.desk.set(ann, 'ring the clinic about the embryo transfer date', 'in 2 hours');
    expect(labels(none.desk)['ring the clinic about the embryo transfer date']).toBe('personal');
    none.jobs.close();
  });
});

describe('inbox items are judged before the related-pages search', () => {
  it('an item only the lane calls sensitive is no part of the search question (a hosted embedder answers it)', async () => {
    const questions: string[] = [];
    const graph = {
      taxonomy: async () => [],
      pageMap: async () => [],
      write: async () => ({ created: [], updated: [], factsAdded: 0, factsRefreshed: 0, linksAdded: 0, refused: [] }),
      related: async (text: string) => (questions.push(text), []),
    };
    const items = [
      { ref: 'p1', text: 'Hartwell Clinic: Dear Ms Oyelaran, your swab came back abnormal; please book a follow-up.' },
      { ref: 'p2', text: 'The Wendleby library reopens on Monday.' },
    ];
    const lane = new ScriptedChatModel((req: ChatRequest) => {
      const text = String(req.messages.at(-1)?.content ?? '');
      if (text.startsWith('New items:')) return { text: JSON.stringify({ sensitive: [...text.matchAll(/^\[(\d+)\] .*swab came back/gm)].map((m) => ({ message: Number(m[1]), kind: 'phi' })) }) };
      return { text: '{"entities":[],"links":[],"sensitive":[]}' };
    });
    const run = (precheck?: ReturnType<typeof textPrecheck>) =>
      ingestItems('inbox/letters.txt', items, { model: lane, graph, logger: silentLogger, now: NOW, ...(precheck ? { precheck } : {}) }).catch(() => null);
    await run(textPrecheck(lane, SETTINGS, () => 'hosted'));
    expect(questions).toEqual(['The Wendleby library reopens on Monday.']);
    // the lane still reads the whole batch to make its records
    const read = lane.requests.find((r) => !String(r.messages.at(-1)?.content).startsWith('New items:'));
    expect(read).toBeDefined();
    // without the precheck (as before), the swab letter was part of the question
    questions.length = 0;
    await run();
    expect(questions[0]).toContain('swab came back abnormal');
  });
});
