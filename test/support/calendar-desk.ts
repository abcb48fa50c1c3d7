/**
 * A calendar desk for tests: the real CalendarDesk over `jobs` and `connector`, on a fixed clock
 * in UTC, whose records' writes are kept in `writes` (what its pages would be given).
 */
import { silentLogger, type GraphWrite } from '../../src/core/ports/index.js';
import { CalendarDesk, type CalendarConnector, type CalendarDeskDeps } from '../../src/core/time/calendar.js';
import type { SqliteJobStore } from '../../src/storage/job-store.js';
import { FixedClock } from './fakes.js';

export function recordingCalendarDesk(jobs: SqliteJobStore, connector: CalendarConnector, now: Date, more: Partial<CalendarDeskDeps> = {}): { calendar: CalendarDesk; writes: GraphWrite[] } {
  const writes: GraphWrite[] = [];
  let n = 0;
  const calendar = new CalendarDesk({
    jobs,
    connector,
    records: { write: async (_p, w) => (writes.push(w), { created: [], updated: [], factsAdded: 0, factsRefreshed: 0, linksAdded: 0, refused: [] }) },
    clock: new FixedClock(now),
    zoneOf: () => 'UTC',
    logger: silentLogger,
    newId: () => `t${++n}`,
    pollMinutes: 15,
    ...more,
  });
  return { calendar, writes };
}
