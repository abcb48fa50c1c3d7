/**
 * Reminders through the real discord.js client and the fake Discord, driven by a fake clock:
 * one set in a channel is delivered in that channel at its time with Snooze and Done buttons
 * that work; one set in a DM is delivered in the DM and listed nowhere else; a redelivery of the
 * same occurrence (a crash before it was marked delivered) posts once (enforced nonce).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { Scheduler } from '../../src/core/time/scheduler.js';
import { nextOccurrence } from '../../src/core/time/recurrence.js';
import { DiscordTimeOutbox } from '../../src/discord/outbox.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { isDiscordPlace, OutboxRouter } from '../../src/time/outbox-router.js';
import { botHarnesses, EPHEMERAL, firstCallback, subcommand } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { FixedClock } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const startHarness = botHarnesses();
const tmp = tempDirs('charlie-discord-remind-');

async function setup() {
  const clock = new FixedClock(new Date('2026-12-04T16:00:00Z')); // Friday 17:00 in Berlin
  const jobs = new SqliteJobStore(join(tmp(), 'schedule.db'));
  const outbox = new OutboxRouter();
  let n = 0;
  const desk = new ReminderDesk({ jobs, settings: jobs, outbox, clock, defaultZone: 'Europe/Berlin', newId: () => `t${++n}` });
  const scheduler = new Scheduler(jobs, clock, silentLogger);
  desk.attach(scheduler);
  const h = await startHarness({ assistant: new FakeAssistant(), services: { time: desk } });
  outbox.add(isDiscordPlace, new DiscordTimeOutbox(h.bot.client));
  return { clock, jobs, desk, scheduler, h };
}

const option = (name: string, value: string) => ({ type: 3, name, value });
const buttons = (m: Json) => ((m.components as Json[])[0]?.components as Json[] | undefined)?.map((b) => String(b.custom_id)) ?? [];

describe('/remind through the fake Discord', () => {
  it('a reminder set in a channel is delivered there at its time; Snooze brings it back, Done closes it', async () => {
    const { clock, jobs, scheduler, h } = await setup();
    const set = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'remind', subcommand('set', [option('when', 'at 6'), option('what', 'take the bread out')])));
    const said = String((set.data as Json).content);
    expect(said).toContain('Fri 4 Dec 2026, 18:00 (Europe/Berlin)');
    expect(Number((set.data as Json).flags ?? 0) & EPHEMERAL).toBe(0); // the channel sees it

    clock.advance(59 * 60_000);
    expect(await scheduler.tick()).toBe(0);
    expect(h.fake.botMessagesIn(h.general.id)).toHaveLength(0);
    clock.advance(60_000);
    expect(await scheduler.tick()).toBe(1);
    const [post] = await h.fake.waitFor(() => (h.fake.botMessagesIn(h.general.id).length ? h.fake.botMessagesIn(h.general.id) : null), 5000, 'reminder post');
    expect(String(post!.content)).toContain('⏰ Reminder: take the bread out');
    expect(String(post!.content)).toContain(`<@${h.alice.id}>`);
    const [snooze, done] = buttons(post!);
    expect([snooze, done]).toEqual([expect.stringMatching(/^remind:snooze:rem-t1$/), 'remind:done:rem-t1']);
    expect(h.fake.botMessagesIn(h.kitchen.id)).toHaveLength(0);

    const snoozed = await firstCallback(h, h.fake.pressButton(h.general, h.alice, post!, snooze!));
    expect(snoozed.type).toBe(7);
    expect(String((snoozed.data as Json).content)).toContain('Snoozed: I’ll remind you again at Fri 4 Dec 2026, 18:10'.replace('’', "'"));
    expect((snoozed.data as Json).components).toEqual([]);
    clock.advance(10 * 60_000);
    expect(await scheduler.tick()).toBe(1);
    const again = await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id)[1], 5000, 'snoozed post');
    expect(String(again.content)).toContain('take the bread out');
    const closed = await firstCallback(h, h.fake.pressButton(h.general, h.alice, again, buttons(again)[1]!));
    expect(String((closed.data as Json).content)).toContain('✅ Done: take the bread out');
    expect(jobs.list({ kind: 'reminder', status: 'pending' })).toEqual([]);
    jobs.close();
  });

  it('a reminder set in a DM is delivered in the DM, and is not listed in a channel', async () => {
    const { clock, jobs, scheduler, h } = await setup();
    const dm = h.fake.dmChannel(h.bob);
    const set = await firstCallback(h, h.fake.runCommand(dm, h.bob, 'remind', subcommand('set', [option('when', 'in 20 minutes'), option('what', 'pick up the prescription')])));
    expect(String((set.data as Json).content)).toContain('Fri 4 Dec 2026, 17:20');
    const inChannel = await firstCallback(h, h.fake.runCommand(h.general, h.bob, 'remind', subcommand('list')));
    expect(String((inChannel.data as Json).content)).toBe('No reminders are set here.');
    const inDm = await firstCallback(h, h.fake.runCommand(dm, h.bob, 'remind', subcommand('list')));
    expect(String((inDm.data as Json).content)).toContain('pick up the prescription');

    clock.advance(20 * 60_000);
    expect(await scheduler.tick()).toBe(1);
    const post = await h.fake.waitFor(() => h.fake.botMessagesIn(dm.id)[0], 5000, 'DM post');
    expect(String(post.content)).toContain('pick up the prescription');
    expect(String(post.content)).not.toContain('<@'); // no ping in a DM
    for (const c of [h.general, h.kitchen]) expect(h.fake.botMessagesIn(c.id)).toHaveLength(0);
    jobs.close();
  });

  it('the same occurrence handed out twice (a crash before it was marked delivered) posts once', async () => {
    const { clock, jobs, h } = await setup();
    await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'remind', subcommand('set', [option('when', 'in 5 minutes'), option('what', 'stretch')])));
    clock.advance(5 * 60_000);
    jobs.claimDue(clock.now(), nextOccurrence, 10); // the dead process claimed it and may have posted it
    const [claim] = jobs.unfinished(clock.now());
    const outbox = new DiscordTimeOutbox(h.bot.client);
    const message = { text: '⏰ Reminder: stretch', key: claim!.key, jobId: claim!.job.id, actions: ['snooze', 'done'] as const };
    await outbox.post(claim!.job.place, { ...message, actions: [...message.actions] });
    const restarted = new Scheduler(jobs, clock, silentLogger);
    new ReminderDesk({ jobs, settings: jobs, outbox, clock, defaultZone: 'Europe/Berlin', newId: () => 'x' }).attach(restarted);
    expect(await restarted.tick()).toBe(1);
    await h.bot.idle();
    expect(h.fake.botMessagesIn(h.general.id).filter((m) => String(m.content).includes('stretch'))).toHaveLength(1);
    jobs.close();
  });

  it('/remind zone sets the time zone reminders are read in', async () => {
    const { jobs, h } = await setup();
    const zone = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'remind', subcommand('zone', [option('tz', 'America/New_York')])));
    expect(String((zone.data as Json).content)).toContain('America/New_York');
    const set = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'remind', subcommand('set', [option('when', 'tomorrow at 9am'), option('what', 'coffee')])));
    expect(String((set.data as Json).content)).toContain('Sat 5 Dec 2026, 09:00 (America/New_York)');
    const bad = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'remind', subcommand('zone', [option('tz', 'Mars/Olympus')])));
    expect(String((bad.data as Json).content)).toContain('not a time zone');
    jobs.close();
  });
});
