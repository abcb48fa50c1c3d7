/**
 * Reminders people ask for: set ("Friday at 6", "every first Monday"), list, cancel, and the
 * buttons on a delivered one (snooze, done). A reminder is a scheduler job; it is delivered
 * where it was asked (the channel, the DM, the terminal), and one set in a DM lives only in the
 * job store (SQLite) and is listed only in that person's DM. Setting one is not memory: a hosted
 * chat model may set it; what it says is shown to the people it is for, never written to Markdown.
 */
import { placeKey, type Place } from '../place.js';
import type { Clock } from '../ports/index.js';
import { formatSensitivity, isSensitive, labelText, parseSensitivity, type SensitivityValue } from '../privacy/sensitivity.js';
import type { Job, JobStore, TimeSettings } from './jobs.js';
import type { Outbox, TimeAction } from './outbox.js';
import { nextOccurrence, showTime, validZone } from './recurrence.js';
import { lateLine, type Delivery, type Scheduler } from './scheduler.js';
import { parseWhen } from './when.js';
import type { TextPrecheck } from '../turn/precheck.js';

/** Who asks, and where. `ownerId` is the Discord user id, or `terminal:<name>`/`web:<name>`. */
export interface Asker {
  place: Place;
  ownerId: string;
  ownerName: string;
}

/** The asker of a message: its speaker id, the DM's user, or the speaker's name in that place (the terminal). */
export function askerFor(place: Place, speaker: string, speakerId?: string): Asker {
  return { place, ownerId: speakerId ?? (place.kind === 'private' ? place.userId : `${placeKey(place)}:${speaker}`), ownerName: speaker };
}

export interface ReminderView {
  id: string;
  text: string;
  at: Date;
  /** "Fri 4 Dec 2026, 18:00 (Europe/Berlin)" */
  shown: string;
  /** The zone `shown` is in (the one the reminder was set in). */
  tz: string;
  repeats: string;
  where: 'here' | 'a DM' | 'another channel';
  /** Its label: set when it was made (the rules, the turn that set it, the event it is for), read with the rules again. */
  label: SensitivityValue;
  /** A one-off reminder whose time has come: it has been (or is being) delivered, not coming. */
  fired: boolean;
}

/** How a reminder was asked for beyond what and when. */
export interface SetOptions {
  /** For whom ("Sam"), when not the asker. */
  forWhom?: string;
  /** The asker's own zone when they have not set one (the web app sends the browser's). */
  zone?: string;
  /** The front door it was set through, which delivers it (the web app: a notification while it is open). */
  door?: 'web';
  /** What it was made from, when that is labelled (a turn that drew on sensitive context): the reminder carries the strictest. */
  from?: SensitivityValue | null;
}

export type SetOutcome = { ok: true; reminder: ReminderView; line: string } | { ok: false; error: string };

const SNOOZE_MS = 10 * 60_000;
const MAX_TEXT = 300;
const MAX_PER_OWNER = 100;

export interface ReminderDeskDeps {
  jobs: JobStore;
  settings: TimeSettings;
  outbox: Outbox;
  clock: Clock;
  /** TZ: the zone of whoever has not set their own. */
  defaultZone: string;
  newId: () => string;
  /**
   * The memory lane's word on a reminder's words the rules let pass (core/turn/precheck.ts): until
   * it answers the reminder counts as sensitive, and what it says is kept with it. Absent: the rules only.
   */
  precheck?: TextPrecheck;
}

export class ReminderDesk {
  private readonly actors = new Map<Job['kind'], (asker: Asker, job: Job, action: TimeAction) => Promise<string | null>>();
  /** Reminders whose words the lane is judging now. */
  private readonly judging = new Set<Promise<void>>();

  constructor(private readonly deps: ReminderDeskDeps) {}

  /** Registers the delivery of reminders with the scheduler. */
  attach(scheduler: Scheduler): void {
    scheduler.handle('reminder', (d) => this.deliver(d));
  }

  zoneOf(ownerId: string): string {
    return this.deps.settings.zoneOf(ownerId) ?? this.deps.defaultZone;
  }

  setZone(ownerId: string, tz: string): { ok: boolean; line: string } {
    if (!validZone(tz)) return { ok: false, line: `${tz} is not a time zone I know (an IANA name such as Europe/Berlin or America/New_York)` };
    this.deps.settings.setZone(ownerId, tz);
    return { ok: true, line: `Your time zone is now ${tz}: it is ${showTime(this.deps.clock.now(), tz)}.` };
  }

  set(asker: Asker, what: string, when: string, forWhomOrOptions?: string | SetOptions): SetOutcome {
    const options: SetOptions = typeof forWhomOrOptions === 'string' ? { forWhom: forWhomOrOptions } : (forWhomOrOptions ?? {});
    const { forWhom } = options;
    const text = what.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
    if (!text) return { ok: false, error: 'what should I remind you of?' };
    const now = this.deps.clock.now();
    const tz = this.deps.settings.zoneOf(asker.ownerId) ?? (options.zone && validZone(options.zone) ? options.zone : this.deps.defaultZone);
    const parsed = parseWhen(when, now, tz);
    if (!parsed.ok) return parsed;
    if (this.deps.jobs.list({ owner: asker.ownerId, kind: 'reminder', status: 'pending' }).length >= MAX_PER_OWNER)
      return { ok: false, error: `you have ${MAX_PER_OWNER} reminders already; cancel some first` };
    const id = `rem-${this.deps.newId()}`;
    // labelled when made: the rules on its words, and what it was made from; the label is kept with it
    const label = labelText(text, options.from);
    // words the rules let pass are judged by the lane when something is hosted; until it answers (or when it cannot), sensitive
    const judge = !isSensitive(label) && this.deps.precheck?.applies() === true;
    const payload = {
      text,
      by: asker.ownerName,
      ...(forWhom ? { for: forWhom.slice(0, 100) } : {}),
      ...(options.door ? { door: options.door } : {}),
      ...(isSensitive(label) ? { sensitivity: formatSensitivity(label) } : {}),
      ...(judge ? { judging: true } : {}),
    };
    this.deps.jobs.add({ id, kind: 'reminder', owner: asker.ownerId, place: asker.place, due: parsed.at, tz, ...(parsed.rule ? { rule: parsed.rule } : {}), payload }, now);
    if (judge) this.judge(id, text);
    const job = this.deps.jobs.get(id);
    if (!job) return { ok: false, error: 'the reminder could not be saved' };
    const view = this.view(job, asker);
    return { ok: true, reminder: view, line: `I'll remind ${forWhom ?? 'you'} ${view.repeats ? `${view.repeats}, first on` : 'on'} ${view.shown}: ${text} (id ${id})` };
  }

  /** Resolves when every reminder set so far has been judged by the lane. */
  async judged(): Promise<void> {
    await Promise.all([...this.judging]);
  }

  /** Keeps the lane's label with the reminder; `judging` stays (sensitive) only if the job changed meanwhile. */
  private judge(id: string, text: string): void {
    const run = (async () => {
      const [label] = await this.deps.precheck!.labels([text]);
      const job = this.deps.jobs.get(id);
      if (!job || job.payload.text !== text) return;
      const { judging: _was, ...rest } = job.payload;
      this.deps.jobs.setPayload(id, { ...rest, ...(label && isSensitive(label) ? { sensitivity: formatSensitivity(label) } : {}) });
    })();
    this.judging.add(run);
    void run.finally(() => this.judging.delete(run));
  }

  /** The reminders this asker may see here: a channel's own, or (in a DM) all of their own. */
  list(asker: Asker): ReminderView[] {
    return this.deps.jobs
      .list({ kind: 'reminder', status: 'pending' })
      .filter((j) => this.visible(j, asker))
      .map((j) => this.view(j, asker));
  }

  cancel(asker: Asker, id: string): boolean {
    const job = this.deps.jobs.get(id.trim());
    if (!job || job.kind !== 'reminder' || !this.visible(job, asker)) return false;
    return this.deps.jobs.cancel(job.id);
  }

  /** Where a reminder or follow-up is delivered (a front door checks its reader may act on it). */
  placeOf(jobId: string): Place | null {
    return this.deps.jobs.get(jobId)?.place ?? null;
  }

  /** Another kind of job whose delivered message has buttons (commitment follow-ups). */
  actor(kind: Job['kind'], act: (asker: Asker, job: Job, action: TimeAction) => Promise<string | null>): void {
    this.actors.set(kind, act);
  }

  /** A button on a delivered message was pressed; returns the line to show (null: nothing to do). */
  async act(asker: Asker, jobId: string, action: TimeAction): Promise<string | null> {
    const job = this.deps.jobs.get(jobId);
    if (!job) return null;
    const other = this.actors.get(job.kind);
    if (other) return other(asker, job, action);
    if (job.kind !== 'reminder' || !this.visible(job, asker)) return null;
    const now = this.deps.clock.now();
    if (action === 'snooze') {
      const at = new Date(now.getTime() + SNOOZE_MS);
      this.deps.jobs.add({ id: `${job.id.split('~')[0]}~${at.getTime()}`, kind: 'reminder', owner: job.owner, place: job.place, due: at, tz: job.tz, payload: job.payload }, now);
      return `⏰ Snoozed: I'll remind you again at ${showTime(at, job.tz)}.`;
    }
    if (action === 'done') return `✅ Done: ${String(job.payload.text)}`;
    return null;
  }

  private visible(job: Job, asker: Asker): boolean {
    if (asker.place.kind === 'private') return job.owner === asker.ownerId;
    return job.place.kind === 'project' && placeKey(job.place) === placeKey(asker.place);
  }

  private view(job: Job, asker: Asker): ReminderView {
    const where = placeKey(job.place) === placeKey(asker.place) ? 'here' : job.place.kind === 'private' ? 'a DM' : 'another channel';
    const text = String(job.payload.text);
    // a reminder the lane has not judged yet (or never could: a restart meanwhile) is sensitive: fails closed
    const unjudged: SensitivityValue | null = job.payload.judging === true ? { sensitivity: 'sensitive' } : null;
    const label = labelText(text, parseSensitivity(typeof job.payload.sensitivity === 'string' ? job.payload.sensitivity : undefined), unjudged);
    const fired = !job.rule && job.due.getTime() <= this.deps.clock.now().getTime();
    return { id: job.id, text, at: job.due, shown: showTime(job.due, job.tz), tz: job.tz, repeats: job.rule ? repeatsText(job.rule.cron) : '', where, label, fired };
  }

  private async deliver(d: Delivery): Promise<void> {
    const { job } = d;
    const who = typeof job.payload.for === 'string' ? ` for ${job.payload.for}` : '';
    const lines = [`⏰ Reminder${who}: ${String(job.payload.text)}`];
    if (d.late) lines.push(`(${lateLine(d.due, job.tz)})`);
    const next = job.rule ? nextOccurrence(job, this.deps.clock.now()) : null;
    if (next) lines.push(`next: ${showTime(next, job.tz)}`);
    const mention = job.place.kind === 'project' && /^\d{5,}$/.test(job.owner) ? job.owner : undefined;
    await this.deps.outbox.post(job.place, {
      text: lines.join('\n'),
      key: d.key,
      jobId: job.id,
      actions: ['snooze', 'done'],
      ...(mention ? { mention } : {}),
      ...(job.payload.door === 'web' ? { door: 'web' as const } : {}),
    });
  }
}

/** "every day at 09:00" from the cron rules the phrase table makes (others: the rule itself). */
function repeatsText(cron: string): string {
  const [min, hour, dom, , dow] = cron.split(' ');
  const at = /^\d+$/.test(hour ?? '') && /^\d+$/.test(min ?? '') ? ` at ${hour!.padStart(2, '0')}:${min!.padStart(2, '0')}` : '';
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const nth: Record<string, string> = { '1': 'first', '2': 'second', '3': 'third', '4': 'fourth' };
  if (dow === '*' && dom === '*') return hour === '*' || hour?.startsWith('*/') || min?.startsWith('*/') ? `on the rule ${cron}` : `every day${at}`;
  if (dow === '1-5') return `every weekday${at}`;
  const m = /^(\d)(?:#(\d)|(L))?$/.exec(dow ?? '');
  if (m) return `every ${m[2] ? `${nth[m[2]]} ` : m[3] ? 'last ' : ''}${days[Number(m[1])]}${at}`;
  if (dow === '*' && /^\d+$/.test(dom ?? '')) return `every month on day ${dom}${at}`;
  return `on the rule ${cron}`;
}
