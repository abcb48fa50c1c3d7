/**
 * Reminders in the terminal chat: `/remind WHEN to WHAT`, `/remind list`, `/remind cancel ID`,
 * `/remind done ID`, `/remind snooze ID`, `/remind zone [TZ]`, and `/calendar`. The outbox that
 * prints a delivered reminder between turns is outbox.ts.
 */
import type { Place } from '../core/place.js';
import { askerFor, type ReminderDesk } from '../core/time/reminder-desk.js';
import type { CalendarDesk } from '../core/time/calendar.js';
import type { MorningBrief } from '../core/time/brief.js';

export const REMIND_HELP = '/remind WHEN to WHAT · /remind list · /remind cancel ID · /remind done ID · /remind snooze ID · /remind zone [TZ] · /remind brief [HH:MM|off]';

export async function remindCommand(args: string, desk: ReminderDesk | undefined, place: Place, userName: string, brief?: MorningBrief): Promise<string> {
  if (!desk) return 'reminders are not running';
  const asker = askerFor(place, userName);
  const [verb = '', ...rest] = args.trim().split(/\s+/);
  const arg = rest.join(' ').trim();
  switch (verb) {
    case 'list': {
      const list = desk.list(asker);
      return list.length ? list.map((r) => `${r.id}  ${r.text} — ${r.repeats ? `${r.repeats}, next ` : ''}${r.shown}`).join('\n') : 'no reminders are set here';
    }
    case 'cancel':
      return arg && desk.cancel(asker, arg) ? `cancelled ${arg}` : `no reminder ${arg || '(give its id)'} here`;
    case 'done':
    case 'snooze':
    case 'not-yet':
    case 'drop':
      return (await desk.act(asker, arg, verb)) ?? `nothing to do for ${arg || '(give its id)'}`;
    case 'brief':
      return brief ? (arg ? brief.set(asker, arg) : brief.text(asker)) : 'the morning brief is not running';
    case 'zone':
      return arg ? desk.setZone(asker.ownerId, arg).line : `your time zone is ${desk.zoneOf(asker.ownerId)}`;
    case '':
      return `usage: ${REMIND_HELP}`;
    default: {
      const m = /^(.+?)\s+to\s+(.+)$/i.exec(args.trim()) ?? /^(.+?):\s*(.+)$/.exec(args.trim());
      if (!m) return `usage: ${REMIND_HELP}`;
      const out = desk.set(asker, m[2]!, m[1]!);
      return out.ok ? `⏰ ${out.line}` : `not set: ${out.error}`;
    }
  }
}

export const CALENDAR_HELP = '/calendar subscribe NAME URL [HANDLE] · /calendar list · /calendar agenda [WHEN] · /calendar poll · /calendar lead NAME MINUTES · /calendar unsubscribe NAME';

export async function calendarCommand(args: string, calendar: CalendarDesk | undefined, place: Place, userName: string): Promise<string> {
  if (!calendar) return 'calendars are not running';
  const asker = askerFor(place, userName);
  const [verb = '', ...rest] = args.trim().split(/\s+/);
  switch (verb) {
    case 'subscribe': {
      const [name, url, handle] = rest;
      if (!name || !url) return `usage: ${CALENDAR_HELP}`;
      // an .ics secret address is read-only; anything else is taken as a CalDAV collection
      const kind = /\.ics(\?|$)/i.test(url) || /^webcal:/i.test(url) ? 'ics' : 'caldav';
      return calendar.subscribe(asker, { name, kind, url, ...(handle ? { handle } : {}) }).line;
    }
    case 'list': {
      const subs = calendar.subscriptions(asker);
      return subs.length ? subs.map((s) => `${s.name}  ${s.kind}  ${s.address}  ${s.locality}`).join('\n') : 'no calendar is subscribed here';
    }
    case 'agenda':
      return calendar.agenda(asker, rest.join(' ') || 'today');
    case 'poll': {
      const out = await calendar.pollAll(asker);
      return out.map((r) => `${r.name}: ${r.error ? `failed: ${r.error}` : r.changed ? `changed, ${r.written} record(s) written` : 'unchanged'}`).join('\n') || 'no calendar is subscribed here';
    }
    case 'lead':
      return rest[0] && rest[1] ? calendar.setLead(asker, rest[0], Number(rest[1])) : `usage: ${CALENDAR_HELP}`;
    case 'unsubscribe':
      return rest[0] && calendar.unsubscribe(asker, rest[0]) ? `unsubscribed ${rest[0]}` : `no calendar ${rest[0] ?? '(give its name)'} here`;
    default:
      return `usage: ${CALENDAR_HELP}`;
  }
}
