/** What a calendar event and a subscription are (read by the desk, calendar.ts, and by calendar-servers.ts). */
export interface CalendarEvent {
  uid: string;
  summary: string;
  start: Date;
  end: Date | null;
  allDay: boolean;
  location: string;
  /** Marked private or confidential on the calendar itself (iCalendar CLASS). */
  private?: boolean;
}

export interface Subscription {
  name: string;
  kind: 'ics' | 'caldav';
  url: string;
  /** Names the credentials in the settings (CALENDAR_SECRETS); never the secret itself. */
  handle?: string;
  /** The page the events are recorded on (default: "<name> calendar"). */
  entity?: string;
  /** Minutes before each upcoming event to remind, where the calendar was subscribed (0 or absent: none). */
  leadMinutes?: number;
}
