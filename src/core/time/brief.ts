/**
 * The morning brief, opt-in per person: at the time they chose (in their zone), one short
 * message where they asked for it — today's events from the calendars followed there, the
 * reminders due today, and the commitments due today or overdue. Written by plain code from
 * the records (no model reads them); a commitment marked sensitive is counted, not quoted.
 * The brief carries the strictest label of what it quotes (an event, a reminder), and a
 * delivered one is kept in its place's archive with that label, as Charlie's message: the
 * person can answer it, and every destination decides by the label, after a restart too.
 */
import { placeKey, type Place } from '../place.js';
import type { Clock } from '../ports/index.js';
import { labelText, strictest, type SensitivityValue } from '../privacy/sensitivity.js';
import type { CalendarDesk } from './calendar.js';
import type { CommitmentBook } from './follow-ups.js';
import type { JobStore } from './jobs.js';
import type { Outbox } from './outbox.js';
import { dayIn, nextOfRule } from './recurrence.js';
import type { Asker, ReminderDesk } from './reminder-desk.js';
import type { Delivery, Scheduler } from './scheduler.js';

export interface BriefDeps {
  jobs: JobStore;
  desk: ReminderDesk;
  calendar?: CalendarDesk;
  book?: CommitmentBook;
  outbox: Outbox;
  clock: Clock;
  /** Keeps a delivered brief in its place's archive, with its label (the composition root: the conversation's archive). */
  keep?: (place: Place, said: { text: string; label: SensitivityValue; source: string }) => Promise<void>;
}

/** A brief and its label: the strictest of what it quotes (and the rules on its words). */
interface Brief {
  text: string;
  label: SensitivityValue;
}

export class MorningBrief {
  constructor(private readonly deps: BriefDeps) {}

  attach(scheduler: Scheduler): void {
    scheduler.handle('brief', (d) => this.deliver(d));
  }

  /** Turns off every brief of the asker; true when one was on. */
  private off(asker: Asker): boolean {
    let was = false;
    for (const j of this.deps.jobs.list({ kind: 'brief', owner: asker.ownerId, status: 'pending' })) was = this.deps.jobs.cancel(j.id) || was;
    return was;
  }

  /** Turns the brief on at "HH:MM" (or off with "off"); returns the line to show. */
  set(asker: Asker, at: string): string {
    if (/^(off|stop|none)$/i.test(at.trim())) return this.off(asker) ? 'Morning brief off.' : 'The morning brief was not on.';
    const m = /^(\d{1,2})(?::(\d{2}))?$/.exec(at.trim());
    const hour = Number(m?.[1] ?? -1);
    const minute = Number(m?.[2] ?? 0);
    if (!m || hour > 23 || minute > 59) return 'Give a time such as 07:30 (or off).';
    const tz = this.deps.desk.zoneOf(asker.ownerId);
    const cron = `${minute} ${hour} * * *`;
    const now = this.deps.clock.now();
    const first = nextOfRule(cron, tz, now);
    if (!first) return 'Give a time such as 07:30 (or off).';
    this.off(asker);
    this.deps.jobs.add(
      { id: `brief:${asker.ownerId}:${now.getTime()}`, kind: 'brief', owner: asker.ownerId, place: asker.place, due: first, tz, rule: { cron }, payload: { name: asker.ownerName } },
      now,
    );
    return `Morning brief on: every day at ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')} (${tz}), here.`;
  }

  /** The brief's text for this asker now. */
  async text(asker: Asker): Promise<string> {
    return (await this.compose(asker)).text;
  }

  /** The brief for this asker now, labelled with the strictest label of what it quotes. */
  async compose(asker: Asker): Promise<Brief> {
    let from: SensitivityValue | null = null;
    const now = this.deps.clock.now();
    const tz = this.deps.desk.zoneOf(asker.ownerId);
    const today = dayIn(now, tz);
    const lines = [`☀️ Good morning, ${asker.ownerName}. Today, ${today}:`];
    if (this.deps.calendar) {
      const agenda = this.deps.calendar.agendaOf(asker, 'today');
      if (!agenda.text.startsWith('No calendar')) lines.push(`📅 ${agenda.text.split('\n').join('\n📅 ')}`);
      from = strictest(from, agenda.label);
    }
    const reminders = this.deps.desk.list(asker).filter((r) => dayIn(r.at, tz) === today);
    for (const r of reminders) {
      lines.push(`⏰ ${r.shown.replace(/^.*?, (\d\d:\d\d).*$/, '$1')} ${r.text}`);
      from = strictest(from, r.label);
    }
    const due = this.deps.book
      ? (await this.deps.book.commitments(now)).filter((c) => placeKey(c.place) === placeKey(asker.place) && c.due && c.due <= today && (c.status === 'active' || c.status === 'review'))
      : [];
    const open = due.filter((c) => !c.sensitive);
    for (const c of open.slice(0, 5)) lines.push(`📌 ${c.entity}: ${c.statement} (due ${c.due})`);
    if (due.length > open.length) lines.push(`📌 and ${due.length - open.length} private commitment(s) due`);
    if (lines.length === 1) lines.push('Nothing on the calendar, no reminders, no commitments due.');
    const text = lines.join('\n');
    return { text, label: labelText(text, from) };
  }

  private async deliver(d: Delivery): Promise<void> {
    const asker: Asker = { place: d.job.place, ownerId: d.job.owner, ownerName: typeof d.job.payload.name === 'string' ? d.job.payload.name : 'there' };
    const brief = await this.compose(asker);
    await this.deps.outbox.post(d.job.place, { text: brief.text, key: d.key, jobId: d.job.id, actions: [] });
    await this.deps.keep?.(d.job.place, { ...brief, source: `brief:${d.key}` });
  }
}
