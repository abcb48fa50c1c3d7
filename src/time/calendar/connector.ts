/**
 * Opens subscribed calendars: an `.ics` address by HTTP GET (its content hash is the change
 * marker, so an unchanged calendar is never parsed), a CalDAV collection through tsdav (its
 * ctag / sync token is the marker; events are read and written as calendar objects).
 * Credentials come from the settings by handle (CALENDAR_SECRETS) and never reach a log.
 */
import { createHash } from 'node:crypto';
import { DAVClient, type DAVCalendar } from 'tsdav';
import type { Clock } from '../../core/ports/index.js';
import type { CalendarConnector, CalendarEvent, CalendarSource, Subscription } from '../../core/time/calendar.js';
import { eventIcs, parseEvents } from './ical.js';

export interface Credentials {
  username: string;
  password: string;
}

export interface ConnectorOptions {
  clock: Clock;
  /** CALENDAR_SECRETS: handle → credentials. */
  secrets: (handle: string) => Credentials | null;
  fetch?: typeof fetch;
  timeoutMs?: number;
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
    const res = await (this.o.fetch ?? fetch)(this.url, { headers, signal: AbortSignal.timeout(this.o.timeoutMs ?? 20_000) });
    if (!res.ok) throw new Error(`calendar answered HTTP ${res.status}`);
    this.body = await res.text();
    return `sha256:${createHash('sha256').update(this.body).digest('hex')}`;
  }

  async events(): Promise<CalendarEvent[]> {
    if (this.body === null) await this.marker();
    return parseEvents(this.body ?? '', this.o.clock.now());
  }
}

class CalDavSource implements CalendarSource {
  private client: DAVClient | null = null;
  private calendar: DAVCalendar | null = null;

  constructor(
    private readonly url: string,
    private readonly creds: Credentials | null,
    private readonly o: ConnectorOptions,
  ) {}

  private async open(): Promise<{ client: DAVClient; calendar: DAVCalendar }> {
    if (!this.client) {
      const client = new DAVClient({ serverUrl: new URL(this.url).origin, credentials: this.creds ?? { username: '', password: '' }, authMethod: 'Basic', defaultAccountType: 'caldav' });
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
    const { calendar } = await this.open();
    return calendar.syncToken ?? calendar.ctag ?? '';
  }

  async events(): Promise<CalendarEvent[]> {
    const { client, calendar } = this.calendar && this.client ? { client: this.client, calendar: this.calendar } : await this.open();
    const objects = await client.fetchCalendarObjects({ calendar });
    const now = this.o.clock.now();
    return objects.flatMap((o) => {
      try {
        return typeof o.data === 'string' ? parseEvents(o.data, now) : [];
      } catch {
        return [];
      }
    });
  }

  async create(event: Omit<CalendarEvent, 'allDay'>): Promise<void> {
    const { client, calendar } = await this.open();
    const res = await client.createCalendarObject({ calendar, filename: `${event.uid.replace(/[^A-Za-z0-9_.-]/g, '_')}.ics`, iCalString: eventIcs(event, this.o.clock.now()) });
    if (!res.ok) throw new Error(`the CalDAV server refused the event (HTTP ${res.status})`);
  }
}
