/**
 * Calendars, live: a place (a project or a person's DM) subscribes to a calendar — an `.ics`
 * address (read-only) or a CalDAV collection (read and write). A subscription is a recurring
 * scheduler job that polls it: the source's change marker (CalDAV ctag / sync token, the .ics
 * ETag or content hash) is compared first, and an unchanged calendar costs one cheap request
 * and nothing else — no parse, no write, no model call. New or changed events become records
 * (a future event a commitment with its due day, a past one an episode) with provenance
 * `calendar` and confidence 1, written through the place's record path; no model reads them.
 * Credentials stay in the settings: a subscription names a handle, never a password.
 */
import { DateTime } from 'luxon';
import { placeKey, type Place } from '../place.js';
import type { Clock, GraphFact, GraphWrite, GraphWriteReport, Logger, Locality } from '../ports/index.js';
import { withheld } from '../privacy/egress.js';
import type { Job, JobStore } from './jobs.js';
import { dayIn, showTime } from './recurrence.js';
import type { Asker } from './reminder-desk.js';
import type { Scheduler } from './scheduler.js';
import { parseWhen } from './when.js';
import { errorMessage } from '../../util/error-text.js';
import { syncEventReminders } from './event-reminders.js';
import type { CalendarEvent, Subscription } from './calendar-types.js';
export type { CalendarEvent, Subscription } from './calendar-types.js';
import { calendarServers, eventSensitivity, hostedWriteRefusal, keptEventLabel, shownAddress, type CalendarServer } from './calendar-servers.js';
import { formatSensitivity, isSensitive, mayGo, strictest, type SensitivityValue } from '../privacy/sensitivity.js';
import type { TextPrecheck } from '../turn/precheck.js';

/** One calendar, opened by the adapter (src/calendar/). */
export interface CalendarSource {
  /** A cheap marker that changes when the calendar does. */
  marker(): Promise<string>;
  events(): Promise<CalendarEvent[]>;
  /** CalDAV only. */
  create?(event: Omit<CalendarEvent, 'allDay'>): Promise<void>;
}

export interface CalendarConnector {
  open(sub: Subscription): CalendarSource;
}

/** Where a place's records are written: a project's pages, or a DM's rows in private.db. */
export interface CalendarRecords {
  write(place: Place, write: GraphWrite): Promise<GraphWriteReport>;
}

interface CachedEvent {
  /** Its label as it entered Charlie (eventSensitivity: the rules, or the calendar's CLASS); absent: personal. */
  sensitivity?: string;
  /** What an older version kept instead of `sensitivity`. */
  sensitive?: boolean;
  /** The memory lane judged this version of it (its `sensitivity` is the stricter of rules and verdict): not asked again. */
  judged?: true;
  uid: string;
  summary: string;
  start: number;
  end: number | null;
  allDay: boolean;
  location: string;
}

interface PollState {
  sub: Subscription;
  marker: string;
  /** uid → a hash of what was recorded, so an unchanged event is not written again. */
  seen: Record<string, string>;
  events: CachedEvent[];
}

export interface CalendarDeskDeps {
  jobs: JobStore;
  connector: CalendarConnector;
  records: CalendarRecords;
  clock: Clock;
  zoneOf: (ownerId: string) => string;
  logger: Logger;
  newId: () => string;
  /** Minutes between polls (CALENDAR_POLL_MINUTES). */
  pollMinutes: number;
  /**
   * Where a calendar's server runs (CALENDAR_LOCALITY, else decided by its address): a sensitive
   * event is never written to a hosted one. Absent: every server counts as hosted (fails closed).
   */
  localityOf?: (url: string) => Locality;
  /**
   * The memory lane's word on an event the rules let pass (core/turn/precheck.ts), before its
   * title can reach a hosted service (the agenda, event reminders, the calendar page). Absent: the rules and CLASS only.
   */
  precheck?: TextPrecheck;
}

const KEEP_EVENTS = 400;
const PAST_DAYS = 30;
const DAY = 86_400_000;
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'calendar';
const labelled = (sensitivity: string | undefined) => (sensitivity ? { sensitivity } : {});
const eventHash = (e: CalendarEvent) => `${e.summary}|${e.start.getTime()}|${e.end?.getTime() ?? ''}|${e.location}`;

export class CalendarDesk {
  /** Proposed events waiting for the person's yes: token → what, from which message. */
  private readonly proposals = new Map<string, { asker: string; source: string; sub: string; tainted: boolean; event: Omit<CalendarEvent, 'allDay'> }>();

  constructor(private readonly deps: CalendarDeskDeps) {}

  attach(scheduler: Scheduler): void {
    scheduler.handle('calendar-poll', async (d) => {
      await this.poll(d.job.id);
    });
  }

  subscribe(asker: Asker, sub: Subscription): { ok: boolean; line: string } {
    if (!/^https?:\/\//i.test(sub.url) && !/^webcal:\/\//i.test(sub.url)) return { ok: false, line: 'a calendar address starts with https:// (or webcal://)' };
    const url = sub.url.replace(/^webcal:/i, 'https:');
    // a password in the address would be kept in data/schedule.db: it belongs in CALENDAR_SECRETS
    if (/^https?:\/\/[^/?#]*@/i.test(url))
      return {
        ok: false,
        line: `Not subscribed: that address holds a user name or password, and I have not kept it. Put them in .env as CALENDAR_SECRETS=${slug(sub.name) || 'family'}=USER:PASSWORD, restart, and subscribe the address without them, with the handle ${slug(sub.name) || 'family'}.`,
      };
    const id = this.jobId(asker.place, sub.name);
    const now = this.deps.clock.now();
    const state: PollState = { sub: { ...sub, url }, marker: '', seen: {}, events: [] };
    const cron = `*/${this.deps.pollMinutes} * * * *`;
    const added = this.deps.jobs.add(
      { id, kind: 'calendar-poll', owner: asker.ownerId, place: asker.place, due: now, tz: this.deps.zoneOf(asker.ownerId), rule: { cron }, payload: state as unknown as Record<string, unknown> },
      now,
    );
    if (!added) return { ok: false, line: `a calendar named ${sub.name} is already subscribed here` };
    return {
      ok: true,
      line: `Subscribed to ${sub.name} (${sub.kind === 'caldav' ? 'CalDAV, read and write' : '.ics, read-only'}, ${shownAddress(url)}); I check it every ${this.deps.pollMinutes} minutes.`,
    };
  }

  unsubscribe(asker: Asker, name: string): boolean {
    const job = this.deps.jobs.get(this.jobId(asker.place, name));
    if (job) this.syncReminders(job, { ...(job.payload as unknown as PollState).sub, leadMinutes: 0 }, []);
    return this.deps.jobs.cancel(this.jobId(asker.place, name));
  }

  /** Reminds `minutes` before each upcoming event of this calendar (0: no more reminders). */
  setLead(asker: Asker, name: string, minutes: number): string {
    const job = this.deps.jobs.get(this.jobId(asker.place, name));
    if (!job || job.status !== 'pending') return `no calendar ${name} here`;
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > 7 * 24 * 60) return 'give the minutes before an event as a whole number (0 turns the reminders off)';
    const state = job.payload as unknown as PollState;
    const sub = { ...state.sub, leadMinutes: minutes };
    this.deps.jobs.setPayload(job.id, { ...state, sub });
    this.syncReminders(job, sub, state.events);
    return minutes ? `I'll remind you ${minutes} minutes before each event of ${state.sub.name}, here.` : `${state.sub.name}: no reminders before its events any more.`;
  }

  private syncReminders(job: Job, sub: Subscription, events: readonly CachedEvent[]): void {
    const changed = syncEventReminders(
      this.deps.jobs,
      { subId: job.id, name: sub.name, owner: job.owner, place: job.place, tz: job.tz, leadMinutes: sub.leadMinutes ?? 0 },
      events,
      this.deps.clock.now(),
    );
    if (changed.added + changed.moved + changed.cancelled) this.deps.logger.info({ calendar: sub.name, ...changed }, 'event reminders updated');
  }

  subscriptions(asker: Asker): { name: string; kind: string; address: string; locality: Locality }[] {
    return this.mine(asker).map((j) => {
      const s = (j.payload as unknown as PollState).sub;
      return { name: s.name, kind: s.kind, address: shownAddress(s.url), locality: this.localityOf(s) };
    });
  }

  /** Every subscribed calendar's server, once per address (for doctor and Settings). */
  servers(): CalendarServer[] {
    return calendarServers(this.deps.jobs, (url) => this.localityOf({ name: '', kind: 'ics', url }));
  }

  private localityOf(sub: Subscription): Locality {
    return this.deps.localityOf?.(sub.url) ?? 'hosted';
  }

  /** Why `event` may not be written to `sub`'s server, or null: a sensitive event never goes to a hosted one. */
  private refusedWrite(sub: Subscription, event: Pick<CalendarEvent, 'summary' | 'location'>, derived = false): string | null {
    // by its own words, or by what it was made from: an event a tainted turn proposed carries the turn's label
    if (this.localityOf(sub) === 'local' || (!derived && eventSensitivity(event) === undefined)) return null;
    return hostedWriteRefusal(sub.name, shownAddress(sub.url));
  }

  /** An event the rules let pass, read by the lane or the judge before a hosted server gets it (eighth sweep: "Court: … sentencing" was PUT). */
  private async judgedWrite(sub: Subscription, event: Pick<CalendarEvent, 'summary' | 'location'>): Promise<string | null> {
    if (this.localityOf(sub) === 'local' || !this.deps.precheck) return null;
    const [label] = await this.deps.precheck.labels([`${event.summary} ${event.location}`.trim()], undefined, true);
    return isSensitive(label) ? hostedWriteRefusal(sub.name, shownAddress(sub.url)) : null;
  }

  /** Polls every subscription of the asker now (/calendar poll), errors as lines. */
  async pollAll(asker: Asker): Promise<{ name: string; changed: boolean; written: number; error?: string }[]> {
    const out: { name: string; changed: boolean; written: number; error?: string }[] = [];
    for (const job of this.mine(asker)) {
      const name = (job.payload as unknown as PollState).sub.name;
      try {
        out.push({ name, ...(await this.poll(job.id)) });
      } catch (err) {
        out.push({ name, changed: false, written: 0, error: errorMessage(err) });
      }
    }
    return out;
  }

  /** Polls one subscription now; `changed` false means only the marker was read. */
  async poll(jobId: string): Promise<{ changed: boolean; written: number }> {
    const job = this.deps.jobs.get(jobId);
    if (!job || job.status === 'cancelled') return { changed: false, written: 0 };
    const state = job.payload as unknown as PollState;
    const source = this.deps.connector.open(state.sub);
    const marker = await source.marker();
    if (marker && marker === state.marker) return { changed: false, written: 0 };
    const now = this.deps.clock.now();
    const events = await source.events();
    const fresh = events.filter((e) => state.seen[e.uid] !== eventHash(e));
    const labels = await this.labelsOf(state, events, now);
    let written = 0;
    if (fresh.length) {
      const report = await this.deps.records.write(job.place, this.recordsOf(state.sub, fresh, now, job.tz, labels));
      written = report.factsAdded + report.factsRefreshed;
    }
    const seen = Object.fromEntries(events.map((e) => [e.uid, eventHash(e)]));
    const keep = events
      .filter((e) => e.start.getTime() >= now.getTime() - PAST_DAYS * DAY)
      .sort((a, b) => a.start.getTime() - b.start.getTime())
      .slice(0, KEEP_EVENTS)
      .map((e) => ({
        uid: e.uid,
        summary: e.summary,
        start: e.start.getTime(),
        end: e.end?.getTime() ?? null,
        allDay: e.allDay,
        location: e.location,
        ...labelled(labels.get(e.uid)?.sensitivity),
        ...(labels.get(e.uid)?.judged ? { judged: true as const } : {}),
      }));
    this.deps.jobs.setPayload(jobId, { ...state, marker, seen, events: keep });
    this.syncReminders(job, state.sub, keep);
    this.deps.logger.info({ calendar: state.sub.name, events: events.length, written }, 'calendar changed');
    return { changed: true, written };
  }

  /** What is on: `when` is "today", "tomorrow", "this week", "next 7 days" or a day ("Friday", "5 December"). */
  agenda(asker: Asker, when: string, options: { hosted?: boolean } = {}): string {
    return this.agendaOf(asker, when, options).text;
  }

  /**
   * The agenda and its label: the strictest label of the events it shows. For a hosted reader
   * (`hosted`) an event whose label does not allow it is withheld, so what is shown may go.
   */
  agendaOf(asker: Asker, when: string, options: { hosted?: boolean } = {}): { text: string; label: SensitivityValue | null } {
    const tz = this.deps.zoneOf(asker.ownerId);
    const now = this.deps.clock.now();
    const w = when.trim().toLowerCase();
    const dayStart = (at: Date) => DateTime.fromJSDate(at, { zone: tz }).startOf('day');
    let from: Date;
    let to: Date;
    if (w === '' || w === 'today') [from, to] = [dayStart(now).toJSDate(), dayStart(now).plus({ days: 1 }).toJSDate()];
    else if (/week|7 days/.test(w)) [from, to] = [now, new Date(now.getTime() + 7 * DAY)];
    else {
      const parsed = parseWhen(w === 'tomorrow' ? 'tomorrow at noon' : `${w} at noon`, now, tz);
      if (!parsed.ok) return { text: `I can't read "${when}" as a day (try today, tomorrow, this week, Friday, 5 December).`, label: null };
      [from, to] = [dayStart(parsed.at).toJSDate(), dayStart(parsed.at).plus({ days: 1 }).toJSDate()];
    }
    const lines: string[] = [];
    let label: SensitivityValue | null = null;
    for (const job of this.mine(asker)) {
      const s = job.payload as unknown as PollState;
      for (const e of s.events) {
        if (e.start >= to.getTime() || (e.end ?? e.start) < from.getTime()) continue;
        const kept = keptEventLabel(e);
        const held = !mayGo(kept, options.hosted ? 'hosted' : 'local');
        if (!held) label = strictest(label, kept);
        const what = held ? withheld(`a ${s.sub.name} event`) : `${e.summary}${e.location ? ` (${e.location})` : ''}`;
        lines.push(`${showTime(new Date(e.start), tz)} — ${what} [${s.sub.name}]`);
      }
    }
    if (this.mine(asker).length === 0) return { text: 'No calendar is subscribed here (/calendar subscribe).', label: null };
    return { text: lines.length ? lines.sort().join('\n') : `Nothing on the calendar ${when || 'today'}.`, label };
  }

  /** A proposed event: nothing is written until the person says yes in a later message. */
  /** `tainted`: the proposing turn drew on something labelled sensitive, so the event is labelled sensitive too. */
  propose(asker: Asker, source: string, e: { title: string; when: string; minutes?: number; calendar?: string; location?: string }, options: { tainted?: boolean } = {}): string {
    const writable = this.mine(asker).filter((j) => (j.payload as unknown as PollState).sub.kind === 'caldav');
    const target = e.calendar ? writable.find((j) => (j.payload as unknown as PollState).sub.name.toLowerCase() === e.calendar!.toLowerCase()) : writable[0];
    if (!target) return writable.length ? `No CalDAV calendar named ${e.calendar} here.` : 'No calendar here can be written to (an .ics address is read-only; subscribe a CalDAV calendar).';
    const tz = this.deps.zoneOf(asker.ownerId);
    const at = parseWhen(e.when, this.deps.clock.now(), tz);
    if (!at.ok) return `Not proposed: ${at.error}`;
    const token = `ev-${this.deps.newId()}`;
    const end = new Date(at.at.getTime() + (e.minutes ?? 60) * 60_000);
    const sub = (target.payload as unknown as PollState).sub.name;
    const tainted = options.tainted === true;
    const refused = this.refusedWrite((target.payload as unknown as PollState).sub, { summary: e.title, location: e.location ?? '' }, tainted);
    if (refused) return refused;
    // its label travels with it: a sensitive event (by its words, or by the tainted turn that proposed it) is written CLASS:PRIVATE,
    // so when the next poll reads it back it is labelled again (eventSensitivity), also after a restart and on the owner's other devices
    const event = { uid: `${token}@charlie`, summary: e.title.slice(0, 200), start: at.at, end, location: e.location ?? '' };
    const sensitive = tainted || eventSensitivity(event) !== undefined;
    this.proposals.set(token, { asker: asker.ownerId, source, sub, tainted, event: sensitive ? { ...event, private: true } : event });
    return `Proposed, not written: "${e.title}" on ${showTime(at.at, tz)} for ${e.minutes ?? 60} minutes in ${sub}. Ask the person to confirm; when they say yes (in their next message), call create_event with confirm "${token}".`;
  }

  /** Writes a proposed event once the person confirmed it in a message after the proposal. */
  async confirm(asker: Asker, source: string, token: string): Promise<string> {
    return (await this.confirmOf(asker, source, token)).text;
  }

  /**
   * The answer to a yes, and its label: "Created …" quotes the event, so it carries the event's
   * label (sensitive when the event was written CLASS:PRIVATE) and the turn that reads it is tainted.
   */
  async confirmOf(asker: Asker, source: string, token: string): Promise<{ text: string; label: SensitivityValue | null }> {
    const said = (text: string) => ({ text, label: null });
    const p = this.proposals.get(token);
    if (!p || p.asker !== asker.ownerId) return said(`No proposed event ${token} (propose it first).`);
    if (p.source === source) return said('Not written: the person has not confirmed yet. Ask them, and confirm in the turn of their answer.');
    const job = this.mine(asker).find((j) => (j.payload as unknown as PollState).sub.name === p.sub);
    if (!job) return said(`The calendar ${p.sub} is no longer subscribed here.`);
    const target = (job.payload as unknown as PollState).sub;
    // checked again at the yes: the server's locality may have been declared since the proposal
    const refused = this.refusedWrite(target, p.event, p.tainted) ?? (await this.judgedWrite(target, p.event));
    if (refused) {
      this.proposals.delete(token);
      return said(refused);
    }
    const cal = this.deps.connector.open(target);
    if (!cal.create) return said(`${p.sub} cannot be written to.`);
    await cal.create(p.event);
    this.proposals.delete(token);
    await this.poll(job.id);
    return { text: `Created "${p.event.summary}" on ${showTime(p.event.start, job.tz)} in ${p.sub}.`, label: keptEventLabel({ ...p.event, sensitive: p.event.private }) };
  }

  private mine(asker: Asker): Job[] {
    return this.deps.jobs
      .list({ kind: 'calendar-poll', status: 'pending' })
      .filter((j) => placeKey(j.place) === placeKey(asker.place) || (asker.place.kind === 'private' && j.owner === asker.ownerId));
  }

  private jobId(place: Place, name: string): string {
    return `cal:${placeKey(place)}:${slug(name)}`;
  }

  /**
   * Each event's label as it enters Charlie: the rules and CLASS (eventSensitivity), and — when the
   * precheck applies — the memory lane's verdict on the events they let pass, asked once per
   * version of an event (kept with the desk's copy, so a restart does not ask again).
   */
  private async labelsOf(state: PollState, events: CalendarEvent[], now: Date): Promise<Map<string, { sensitivity?: string; judged?: true }>> {
    const kept = new Map(state.events.map((e) => [e.uid, e]));
    const out = new Map<string, { sensitivity?: string; judged?: true }>();
    const ask: CalendarEvent[] = [];
    for (const e of events) {
      const own = eventSensitivity(e);
      const before = kept.get(e.uid);
      if (own) out.set(e.uid, { sensitivity: own });
      else if (before?.judged && state.seen[e.uid] === eventHash(e)) out.set(e.uid, { ...labelled(before.sensitivity), judged: true });
      else if (e.start.getTime() >= now.getTime() - PAST_DAYS * DAY) ask.push(e);
    }
    const precheck = this.deps.precheck;
    if (ask.length && precheck?.applies()) {
      const labels = await precheck.labels(ask.map((e) => `${e.summary} ${e.location}`.trim()));
      ask.forEach((e, i) => out.set(e.uid, { ...labelled(isSensitive(labels[i]) ? formatSensitivity(labels[i]!) : undefined), judged: true }));
    }
    return out;
  }

  private recordsOf(sub: Subscription, events: CalendarEvent[], now: Date, tz: string, labels: Map<string, { sensitivity?: string }>): GraphWrite {
    const said = dayIn(now, tz);
    const facts: GraphFact[] = events.map((e) => {
      const day = dayIn(e.start, tz);
      const when = e.allDay ? day : showTime(e.start, tz);
      const future = e.start.getTime() > now.getTime();
      const sensitivity = labels.get(e.uid)?.sensitivity ?? eventSensitivity(e);
      return {
        ...(sensitivity ? { sensitivity } : {}),
        text: `${e.summary || '(no title)'} — ${when}${e.location ? ` at ${e.location}` : ''}`,
        type: future ? 'commitment' : 'episode',
        said,
        source: `calendar:${slug(sub.name)}#${e.uid}`,
        via: 'calendar',
        confidence: 1,
        staleness: 2,
        ...(future ? { due: day } : { happened: day }),
      };
    });
    return { entities: [{ name: sub.entity ?? `${sub.name} calendar`, category: 'Events', facts, create: true }], links: [], origin: `calendar:${slug(sub.name)}` };
  }
}
