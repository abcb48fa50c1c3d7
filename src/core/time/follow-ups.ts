/**
 * Commitments follow themselves up. A commitment record with a due date gets exactly one
 * follow-up job (its id is the record's, so a second scan adds nothing): the morning after the
 * due day Charlie asks where the record lives — "did it happen?" — with Done / Not yet / Drop.
 * Delivering it notes `asked` on the record, the same note the in-conversation follow-up
 * (src/core/turn/raise.ts) sets and reads, so a commitment is asked about once, by whichever
 * comes first. Done writes an episode through the record path; Not yet asks again in three
 * days; Drop holds the record (kept, out of answers). A sensitive record is never followed up.
 */
import { placeKey, type Place } from '../place.js';
import type { Clock, GraphWrite, Logger } from '../ports/index.js';
import type { Job, JobStore } from './jobs.js';
import type { Outbox, TimeAction } from './outbox.js';
import { atLocal, dayIn, showTime } from './recurrence.js';
import type { Asker, ReminderDesk } from './reminder-desk.js';
import type { Scheduler } from './scheduler.js';

export interface Commitment {
  /** Where the record lives (and where the follow-up is asked). */
  place: Place;
  id: string;
  entity: string;
  statement: string;
  /** YYYY-MM-DD */
  due: string;
  asked: string;
  status: string;
  sensitive: boolean;
}

/** The records behind follow-ups (adapter: the projects' pages). */
/** "Done" answered to a follow-up: an episode on the commitment's page, with the follow-up as its provenance (the same for a project's pages and a DM's records). */
export function doneWrite(c: Commitment, date: string, by: string): GraphWrite {
  return {
    entities: [
      {
        name: c.entity,
        create: false,
        facts: [{ text: `Done: ${c.statement}`, type: 'episode', said: date, happened: date, source: `manual: follow-up of ^${c.id}, answered by ${by}`, via: 'manual', confidence: 1 }],
      },
    ],
    links: [],
    origin: `follow-up of ${c.id}`,
  };
}

export interface CommitmentBook {
  commitments(now: Date): Promise<Commitment[]>;
  /** Notes on the record that Charlie asked (the `asked` of src/core/turn/raise.ts). */
  markAsked(c: Commitment, date: string): Promise<void>;
  /** It happened: an episode record about the same entity. */
  done(c: Commitment, date: string, by: string): Promise<void>;
  /** Not going to happen: the record is held. */
  drop(c: Commitment): Promise<void>;
}

export interface FollowUpDeps {
  jobs: JobStore;
  book: CommitmentBook;
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /** TZ: follow-ups of a project are read in it. */
  zone: string;
  /** FOLLOW_UP_HOUR: the hour of the morning after the due day. */
  hour: number;
}

const SCAN_ID = 'follow-up-scan';
const NOT_YET_DAYS = 3;

export class FollowUps {
  constructor(private readonly deps: FollowUpDeps) {}

  /** Registers the scan (hourly), the delivery and the buttons. */
  attach(scheduler: Scheduler, desk: ReminderDesk): void {
    scheduler.handle('follow-up-scan', async () => {
      await this.scan();
    });
    scheduler.handle('follow-up', (d) => this.deliver(d.job, d.key));
    desk.actor('follow-up', (asker, job, action) => this.act(asker, job, action));
    const now = this.deps.clock.now();
    this.deps.jobs.add(
      {
        id: SCAN_ID,
        kind: 'follow-up-scan',
        owner: '',
        place: { kind: 'project', origin: { name: 'all', key: 'internal:follow-ups' } },
        due: now,
        tz: this.deps.zone,
        rule: { cron: '7 * * * *' },
        payload: {},
      },
      now,
    );
  }

  /** Adds the one follow-up of every due commitment not yet asked about; returns how many were added. */
  async scan(): Promise<number> {
    const now = this.deps.clock.now();
    let added = 0;
    for (const c of await this.deps.book.commitments(now)) {
      if (!c.due || c.asked || c.sensitive || (c.status !== 'active' && c.status !== 'review')) continue;
      const next = new Date(Date.parse(`${c.due}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const at = atLocal(next, this.deps.hour, 0, this.deps.zone);
      const payload = { id: c.id, entity: c.entity, statement: c.statement, due: c.due };
      if (this.deps.jobs.add({ id: `fu:${placeKey(c.place)}:${c.id}`, kind: 'follow-up', owner: '', place: c.place, due: at < now ? now : at, tz: this.deps.zone, payload }, now)) added++;
    }
    if (added) this.deps.logger.info({ added }, 'commitment follow-ups scheduled');
    return added;
  }

  private async current(job: Job): Promise<Commitment | null> {
    const all = await this.deps.book.commitments(this.deps.clock.now());
    return all.find((c) => c.id === job.payload.id && placeKey(c.place) === placeKey(job.place)) ?? null;
  }

  private async deliver(job: Job, key: string): Promise<void> {
    const c = await this.current(job);
    // answered in conversation meanwhile, held, superseded or forgotten: nothing to ask
    if (!c || c.sensitive || (c.status !== 'active' && c.status !== 'review') || (c.asked && job.payload.again !== true)) return;
    const text = `📌 Follow-up: ${c.entity} committed to “${c.statement}”, due ${showTime(atLocal(c.due, 12, 0, job.tz), job.tz).replace(/, \d\d:\d\d/, '')}. Did it happen?`;
    const actions: TimeAction[] = ['done', 'not-yet', 'drop'];
    await this.deps.outbox.post(job.place, { text, key, jobId: job.id, actions });
    await this.deps.book.markAsked(c, dayIn(this.deps.clock.now(), job.tz));
  }

  private async act(asker: Asker, job: Job, action: TimeAction): Promise<string | null> {
    if (placeKey(asker.place) !== placeKey(job.place)) return null;
    const c = await this.current(job);
    if (!c) return null;
    const today = dayIn(this.deps.clock.now(), job.tz);
    if (action === 'done') {
      await this.deps.book.done(c, today, asker.ownerName);
      return `✅ Noted: it happened (${today}).`;
    }
    if (action === 'not-yet') {
      const at = new Date(this.deps.clock.now().getTime() + NOT_YET_DAYS * 86_400_000);
      this.deps.jobs.setPayload(job.id, { ...job.payload, again: true });
      this.deps.jobs.reschedule(job.id, at);
      return `⏳ Not yet: I'll ask again on ${showTime(at, job.tz)}.`;
    }
    if (action === 'drop') {
      await this.deps.book.drop(c);
      return '🗑️ Dropped: the commitment is held (kept, out of answers).';
    }
    return null;
  }
}
