/**
 * Calendar servers as destinations: each subscription's server has a locality (decided by the
 * composition root from CALENDAR_LOCALITY and the address), and an event carries its label from
 * the moment it enters Charlie. A sensitive event is never written to a hosted server
 * (src/core/time/calendar.ts asks when it is proposed and again at the yes).
 */
import type { Locality } from '../ports/index.js';
import { labelText, parseSensitivity, sensitivityOfText, type SensitivityValue } from '../privacy/sensitivity.js';
import type { CalendarEvent, Subscription } from './calendar-types.js';
import type { JobStore } from './jobs.js';

/** The address as shown: the host only (an .ics secret address is a password). */
export const shownAddress = (url: string) => url.replace(/^(https?:\/\/)?(?:[^@/]*@)?([^/?#]+).*$/i, '$1$2/…');

/** A subscribed calendar's server, as doctor and Settings list it. */
export interface CalendarServer {
  name: string;
  kind: Subscription['kind'];
  /** The host only (shownAddress): an .ics address can be a secret. */
  address: string;
  locality: Locality;
}

/**
 * An event's label as it enters Charlie: the sensitivity rules on its title and place (the
 * same rules every writer applies), or `sensitive` when the calendar marked it private.
 */
export function eventSensitivity(e: Pick<CalendarEvent, 'summary' | 'location' | 'private'>): string | undefined {
  return sensitivityOfText(`${e.summary} ${e.location}`) ?? (e.private ? 'sensitive' : undefined);
}

/**
 * The label of an event as the desk keeps it (its `sensitivity`, set by eventSensitivity when it
 * was read; `sensitive: true` in what an older version kept), and what the rules say of its words.
 */
export function keptEventLabel(e: { summary: string; location: string; sensitivity?: string | undefined; sensitive?: boolean | undefined }): SensitivityValue {
  return labelText(`${e.summary} ${e.location}`, parseSensitivity(e.sensitivity), e.sensitive ? { sensitivity: 'sensitive' } : null);
}

/** Every subscribed calendar's server in `jobs`, once per kind and address; `localityOf` absent: hosted. */
export function calendarServers(jobs: Pick<JobStore, 'list'>, localityOf?: (url: string) => Locality): CalendarServer[] {
  const out = new Map<string, CalendarServer>();
  for (const j of jobs.list({ kind: 'calendar-poll', status: 'pending' })) {
    const s = (j.payload as { sub?: Partial<Subscription> } | null)?.sub;
    if (!s?.url) continue;
    const address = shownAddress(s.url);
    if (!out.has(`${s.kind} ${address}`)) out.set(`${s.kind} ${address}`, { name: s.name ?? '', kind: s.kind === 'caldav' ? 'caldav' : 'ics', address, locality: localityOf?.(s.url) ?? 'hosted' });
  }
  return [...out.values()];
}

/** What the desk answers when a sensitive event would go to a hosted server. */
export function hostedWriteRefusal(name: string, address: string): string {
  return `Not written: that event reads as sensitive (health, money, legal matters or a secret), and ${name} is on a hosted server (${address}), which never receives sensitive text. Put it in a calendar on this machine, or give it a title without the details.`;
}
