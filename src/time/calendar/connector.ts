/**
 * Opens subscribed calendars: an `.ics` address by HTTP GET (its content hash is the change
 * marker, so an unchanged calendar is never parsed), a CalDAV collection through tsdav (its
 * ctag / sync token is the marker; events are read and written as calendar objects).
 * Credentials come from the settings by handle (CALENDAR_SECRETS) and never reach a log.
 * Every request runs under the calendar's deadline (CALENDAR_TIMEOUT_MS, a total one: a server
 * that accepts and never answers, or trickles a byte every two seconds, ends on time), and the
 * events are read a slice at a time within a budget of recurrence steps (./ical.ts).
 */
import { createHash } from 'node:crypto';
import type { DAVClient, DAVCalendar } from 'tsdav';
import type { Clock } from '../../core/ports/index.js';
import type { CalendarConnector, CalendarEvent, CalendarSource, Subscription } from '../../core/time/calendar.js';
import { DEFAULT_DEADLINES, withDeadline } from '../../core/ports/deadlines.js';
import { silentLogger, type Logger } from '../../core/ports/index.js';

export interface Credentials {
  username: string;
  password: string;
}

export interface ConnectorOptions {
  clock: Clock;
  /** CALENDAR_SECRETS: handle → credentials. */
  secrets: (handle: string) => Credentials | null;
  fetch?: typeof fetch;
  /** Each request, headers and body (config.deadlines.calendar). */
  deadlineMs?: number;
  /** Recurrence steps one feed may take (./ical.ts). */
  budget?: number;
  logger?: Logger;
}

/** ical.js and tsdav load with the first calendar read, not at start-up (start what is used, docs/performance.md). */
const ical = () => import('./ical.js');

/** Runs one request of a calendar source under the calendar deadline. */
function underDeadline<T>(o: ConnectorOptions, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return withDeadline('calendar', o.deadlineMs ?? DEFAULT_DEADLINES.calendar, work, { logger: o.logger ?? silentLogger, what });
}

/** The events of a feed's text, read a slice at a time; a feed past its budget is logged. */
async function readEvents(o: ConnectorOptions, text: string): Promise<CalendarEvent[]> {
  const { feedBudget, parseEvents } = await ical();
  return parseEvents(text, o.clock.now(), { budget: feedBudget(o.budget), onBudget: ({ series }) => budgetSpent(o, series) });
}

function budgetSpent(o: ConnectorOptions, series: number): void {
  (o.logger ?? silentLogger).warn({ series }, 'a calendar feed ran past its recurrence budget: the rest of its recurring events were not read');
}

const trim = (u: string) => u.replace(/\/+$/, '');

export class CalendarConnectorImpl implements CalendarConnector {
  constructor(private readonly o: ConnectorOptions) {}

  open(sub: Subscription): CalendarSource {
    const creds = sub.handle ? this.o.secrets(sub.handle) : null;
    if (sub.handle && !creds) throw new Error(`no credentials named ${sub.handle} in CALENDAR_SECRETS`);
    return sub.kind === 'caldav' ? new CalDavSource(sub.url, creds, this.o) : new IcsSource(sub.url, creds, this.o);
  }
}

class IcsSource implements CalendarSource {
  private body: string | null = null;

  constructor(
    private readonly url: string,
    private readonly creds: Credentials | null,
    private readonly o: ConnectorOptions,
  ) {}

  async marker(): Promise<string> {
    const headers: Record<string, string> = { accept: 'text/calendar' };
    if (this.creds) headers.authorization = `Basic ${Buffer.from(`${this.creds.username}:${this.creds.password}`).toString('base64')}`;
    this.body = await underDeadline(this.o, 'download', async (signal) => {
      const res = await (this.o.fetch ?? fetch)(this.url, { headers, signal });
      if (!res.ok) throw new Error(`calendar answered HTTP ${res.status}`);
      return res.text();
    });
    return `sha256:${createHash('sha256').update(this.body).digest('hex')}`;
  }

  async events(): Promise<CalendarEvent[]> {
    if (this.body === null) await this.marker();
    return readEvents(this.o, this.body ?? '');
  }
}

class CalDavSource implements CalendarSource {
  private client: DAVClient | null = null;
  private calendar: DAVCalendar | null = null;
  /** The signal of the request under way: tsdav's fetch takes it (one source serves one poll at a time). */
  private signal: AbortSignal | null = null;
  private readonly fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> =>
    (this.o.fetch ?? fetch)(input, { ...init, ...(this.signal ? { signal: init?.signal ? AbortSignal.any([init.signal, this.signal]) : this.signal } : {}) });

  constructor(
    private readonly url: string,
    private readonly creds: Credentials | null,
    private readonly o: ConnectorOptions,
  ) {}

  private request<T>(what: string, work: () => Promise<T>): Promise<T> {
    return underDeadline(this.o, what, (signal) => {
      this.signal = signal;
      return work();
    });
  }

  private async open(): Promise<{ client: DAVClient; calendar: DAVCalendar }> {
    if (!this.client) {
      const { DAVClient } = await import('tsdav');
      const client = new DAVClient({
        serverUrl: new URL(this.url).origin,
        credentials: this.creds ?? { username: '', password: '' },
        authMethod: 'Basic',
        defaultAccountType: 'caldav',
        fetch: this.fetch,
      });
      await client.login();
      this.client = client;
    }
    const calendars = await this.client.fetchCalendars();
    const calendar = calendars.find((c) => trim(new URL(c.url, this.url).href) === trim(this.url));
    if (!calendar) throw new Error('no such calendar collection on the CalDAV server');
    this.calendar = calendar;
    return { client: this.client, calendar };
  }

  async marker(): Promise<string> {
    const { calendar } = await this.request('marker', () => this.open());
    return calendar.syncToken ?? calendar.ctag ?? '';
  }

  async events(): Promise<CalendarEvent[]> {
    const objects = await this.request('events', async () => {
      const { client, calendar } = this.calendar && this.client ? { client: this.client, calendar: this.calendar } : await this.open();
      return client.fetchCalendarObjects({ calendar });
    });
    const out: CalendarEvent[] = [];
    const { feedBudget, parseEvents } = await ical();
    const budget = feedBudget(this.o.budget);
    let cut = 0;
    for (const o of objects) {
      if (typeof o.data !== 'string') continue;
      out.push(...(await parseEvents(o.data, this.o.clock.now(), { budget, onBudget: () => cut++ }).catch(() => [])));
    }
    if (cut > 0) budgetSpent(this.o, cut);
    return out;
  }

  async create(event: Omit<CalendarEvent, 'allDay'>): Promise<void> {
    const { eventIcs } = await ical();
    const res = await this.request('create', async () => {
      const { client, calendar } = await this.open();
      return client.createCalendarObject({ calendar, filename: `${event.uid.replace(/[^A-Za-z0-9_.-]/g, '_')}.ics`, iCalString: eventIcs(event, this.o.clock.now()) });
    });
    if (!res.ok) throw new Error(`the CalDAV server refused the event (HTTP ${res.status})`);
  }
}
