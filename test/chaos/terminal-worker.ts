/**
 * Child process for the terminal's kill -9 test: the real scheduler, reminder desk, router and
 * terminal outbox (marking what it printed in the job store, as src/main.ts wires them) on DIR/schedule.db,
 * printing each delivered reminder on stdout as the terminal chat does; says "drained" when
 * every reminder was delivered. With KILL_AT it kills itself with SIGKILL in the middle of that
 * delivery, just before or just after the print.
 *
 *     node --import tsx test/chaos/terminal-worker.ts DIR [KILL_AT before|after]
 */
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { TerminalOutbox } from '../../src/terminal/outbox.js';
import { isTerminalPlace, OutboxRouter } from '../../src/time/outbox-router.js';

const [dir, killAtArg = '0', phase = 'after'] = process.argv.slice(2);
if (!dir) throw new Error('usage: terminal-worker.ts DIR [KILL_AT before|after]');
const killAt = Number(killAtArg);
const store = new SqliteJobStore(join(dir, 'schedule.db'));
const router = new OutboxRouter();
const outbox = new TerminalOutbox({ was: (key) => store.wasDelivered(key), mark: (key) => store.delivered(key, systemClock.now()) });
// the kill -9 lands mid-delivery, at the post number KILL_AT: before the print (claimed, not
// shown: it must be printed after the restart) or after it (shown, the scheduler has not marked
// it delivered yet: it must not be printed again)
let posts = 0;
router.add(isTerminalPlace, {
  post: async (place, message) => {
    posts++;
    if (posts === killAt && phase === 'before') process.kill(process.pid, 'SIGKILL');
    await outbox.post(place, message);
    if (posts === killAt && phase === 'after') process.kill(process.pid, 'SIGKILL');
  },
});
const desk = new ReminderDesk({ jobs: store, settings: store, outbox: router, clock: systemClock, defaultZone: 'UTC', newId: () => 'unused' });
const scheduler = new Scheduler(store, systemClock, silentLogger, { batch: 15 });
desk.attach(scheduler);
// the terminal chat's output, written at once (stdout to a pipe is synchronous on Linux)
outbox.open((s) => writeSync(1, s));
writeSync(1, 'ready\n');
for (;;) {
  await scheduler.tick();
  if (store.list({ status: 'pending' }).length === 0 && store.unfinished(new Date()).length === 0) writeSync(1, 'drained\n');
  await turn();
}
