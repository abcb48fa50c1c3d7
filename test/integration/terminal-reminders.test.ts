/** `/remind` in the terminal chat, and a delivered reminder printed there with its commands. */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { TerminalOutbox } from '../../src/terminal/outbox.js';
import { isTerminalPlace, OutboxRouter } from '../../src/time/outbox-router.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { FixedClock } from '../support/fakes.js';
import { pipeTerminal } from '../support/terminal.js';

describe('/remind in the terminal', () => {
  it('sets, lists and cancels; a due reminder is printed while the chat is open', async () => {
    const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
    const jobs = new SqliteJobStore(':memory:');
    const router = new OutboxRouter();
    const outbox = new TerminalOutbox();
    router.add(isTerminalPlace, outbox);
    let n = 0;
    const desk = new ReminderDesk({ jobs, settings: jobs, outbox: router, clock, defaultZone: 'Europe/Berlin', newId: () => `t${++n}` });
    const out = await pipeTerminal(
      new FakeAssistant(),
      '/remind in 20 minutes to stretch\n/remind every weekday at 8: stand-up\n/remind list\n/remind cancel rem-t2\n/remind list\n/remind zone Asia/Tokyo\n',
      { time: { desk, outbox } },
    );
    expect(out).toContain("⏰ I'll remind you on Tue 1 Dec 2026, 11:20 (Europe/Berlin): stretch (id rem-t1)");
    expect(out).toContain('every weekday at 08:00, first on Wed 2 Dec 2026, 08:00');
    expect(out).toContain('cancelled rem-t2');
    expect(out.split('/remind list').length).toBeLessThan(3); // the command is not echoed
    expect(out.match(/rem-t1 {2}stretch/g)).toHaveLength(2);
    expect(out.match(/stand-up —/g)).toHaveLength(1);
    expect(out).toContain('Your time zone is now Asia/Tokyo');

    // the chat has closed: a delivery now is refused and tried again later
    const scheduler = new Scheduler(jobs, clock, silentLogger);
    desk.attach(scheduler);
    clock.advance(20 * 60_000);
    await scheduler.tick();
    const printed: string[] = [];
    outbox.open((s) => printed.push(s));
    clock.advance(61_000);
    await scheduler.tick();
    expect(printed.join('')).toContain('⏰ Reminder: stretch');
    expect(printed.join('')).toContain('/remind snooze rem-t1');
    jobs.close();
  });
});
