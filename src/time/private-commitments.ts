/**
 * The commitments of DMs behind follow-ups: a commitment record in someone's private records
 * (private.db) is followed up in their DM, and the answer is written back there — `asked`
 * noted, an episode for Done, the record held for Drop — never in Markdown, like the DM.
 * `bothBooks` puts the projects' book and this one behind the one port the follow-ups use.
 */
import type { Clock, PrivateRecords } from '../core/ports/index.js';
import { doneWrite, type Commitment, type CommitmentBook } from '../core/time/follow-ups.js';

type Records = Pick<PrivateRecords, 'list' | 'write' | 'review' | 'mark'>;

export function privateCommitments(records: Records, owners: () => string[], clock: Clock): CommitmentBook {
  const userOf = (c: Commitment) => (c.place.kind === 'private' ? c.place.userId : null);
  return {
    commitments(now) {
      const out: Commitment[] = [];
      for (const userId of owners()) {
        for (const r of records.list(userId, now)) {
          if (r.category !== 'commitment' || !r.id || !r.due) continue;
          out.push({
            place: { kind: 'private', userId, userName: '' },
            id: r.id,
            entity: r.entity,
            statement: r.statement,
            due: r.due,
            asked: r.asked,
            status: r.status,
            sensitive: r.sensitivity.startsWith('sensitive'),
          });
        }
      }
      return Promise.resolve(out);
    },
    markAsked(c, date) {
      const userId = userOf(c);
      if (userId) records.mark(userId, [c.id], 'asked', date);
      return Promise.resolve();
    },
    done(c, date, by) {
      const userId = userOf(c);
      if (userId) records.write(userId, doneWrite(c, date, by));
      return Promise.resolve();
    },
    drop(c) {
      const userId = userOf(c);
      if (userId) records.review(userId, c.id, 'hold', clock.now().toISOString().slice(0, 10));
      return Promise.resolve();
    },
  };
}

/** The projects' commitments and the DMs', each answered in its own book. */
export function bothBooks(projects: CommitmentBook, dms: CommitmentBook): CommitmentBook {
  const of = (c: Commitment) => (c.place.kind === 'private' ? dms : projects);
  return {
    async commitments(now) {
      return [...(await projects.commitments(now)), ...(await dms.commitments(now))];
    },
    markAsked: (c, date) => of(c).markAsked(c, date),
    done: (c, date, by) => of(c).done(c, date, by),
    drop: (c) => of(c).drop(c),
  };
}
