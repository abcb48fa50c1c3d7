/**
 * Child process for the scheduler's kill -9 test: runs the real scheduler on DIR/schedule.db
 * with the system clock and delivers every occurrence by appending "key redelivery" to
 * DIR/sent.log (as a front door would post it), then says "drained" when no one-off job is left.
 * The parent kills it with SIGKILL at random moments.
 *
 *     node --import tsx test/chaos/schedule-worker.ts DIR
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: schedule-worker.ts DIR');
const store = new SqliteJobStore(join(dir, 'schedule.db'));
const BATCH = 15;
const scheduler = new Scheduler(store, systemClock, silentLogger, { batch: BATCH });
scheduler.handle('reminder', async (d) => {
  await turn(); // the window between the claim and the delivery
  appendFileSync(join(dir, 'sent.log'), `${d.key} ${d.redelivery ? 1 : 0}\n`);
  await turn(); // the window between the delivery and marking it delivered
});
process.stdout.write('ready\n');
for (;;) {
  // a full tick (a whole batch) means one-off jobs are still being claimed: look for the end only after a short one
  const handed = await scheduler.tick();
  if (handed < BATCH && store.list({ status: 'pending' }).every((j) => j.rule) && store.unfinished(new Date()).length === 0) {
    process.stdout.write('drained\n');
  }
  await turn();
}
