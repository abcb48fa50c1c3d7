/**
 * The reminder tools through the real Assistant and tool loop: the model sets a reminder from a
 * natural phrase and reads back the resolved time; a reminder set in a DM is stored with the DM
 * (SQLite only, nothing in the Markdown store) and listed only there; a hosted chat model may
 * set one (it is not memory); cancel takes only what the asker may see.
 */
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import type { ChatMessage } from '../../src/core/ports/index.js';
import { askerFor, ReminderDesk } from '../../src/core/time/reminder-desk.js';
import { SqliteJobStore } from '../../src/storage/job-store.js';
import { OutboxRouter } from '../../src/time/outbox-router.js';
import { general, makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';

const dm: Place = { kind: 'private', userId: '123456789012', userName: 'Ann' };

function desk(clock: FixedClock) {
  const jobs = new SqliteJobStore(':memory:');
  let n = 0;
  return { jobs, desk: new ReminderDesk({ jobs, settings: jobs, outbox: new OutboxRouter(), clock, defaultZone: 'Europe/Berlin', newId: () => `t${++n}` }) };
}

const toolResult = (m: ScriptedChatModel<'local' | 'hosted'>) =>
  (m.requests.at(-1)?.messages ?? []).filter((x): x is Extract<ChatMessage, { role: 'tool' }> => x.role === 'tool').map((x) => x.content);

describe('reminder tools', () => {
  it('set_reminder in a DM resolves the phrase, keeps the reminder with the DM and nowhere in Markdown', async () => {
    const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
    const { jobs, desk: reminders } = desk(clock);
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'set_reminder', arguments: '{"what":"call mum","when":"Friday at 6"}' }] }, { text: 'Done — Friday 18:00.' }]);
    const { assistant, store } = makeAssistant({ model, clock, reminders });
    const out = await assistant.conversation.handle({ place: dm, speaker: 'Ann', speakerId: '123456789012', text: 'remind me on Friday at 6 to call mum', source: 'discord:dm:1' });
    expect(out.reply).toBe('Done — Friday 18:00.');
    expect(toolResult(model)[0]).toContain('Fri 4 Dec 2026, 18:00 (Europe/Berlin)');
    const [job] = jobs.list({ kind: 'reminder' });
    expect(job).toMatchObject({ owner: '123456789012', place: dm, payload: { text: 'call mum' } });
    expect(job!.due.toISOString()).toBe('2026-12-04T17:00:00.000Z');
    expect(store.projects.size).toBe(0); // nothing of the DM reached the Markdown store
    // listed in Ann's DM, not in a channel
    expect(reminders.list(askerFor(dm, 'Ann', '123456789012'))).toHaveLength(1);
    expect(reminders.list(askerFor(general, 'Ann', '123456789012'))).toHaveLength(0);
    expect(reminders.cancel(askerFor(general, 'Bob', '999999999999'), job!.id)).toBe(false);
  });

  it('a hosted chat model may set a reminder (not memory); a phrase it cannot read comes back as a tool result', async () => {
    const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
    const { jobs, desk: reminders } = desk(clock);
    const model = new ScriptedChatModel(
      [
        { toolCalls: [{ name: 'set_reminder', arguments: '{"what":"water the plants","when":"whenever"}' }] },
        { toolCalls: [{ name: 'set_reminder', arguments: '{"what":"water the plants","when":"every first Monday"}' }] },
        { toolCalls: [{ name: 'list_reminders', arguments: '{}' }] },
        { text: 'Set.' },
      ],
      false,
      'hosted',
    );
    const { assistant } = makeAssistant({ model, clock, reminders, memoryModel: null });
    await assistant.conversation.handle({ place: general, speaker: 'Ann', text: 'remind us every first Monday to water the plants', source: 'terminal:1' });
    const results = toolResult(model);
    expect(results[0]).toContain('Not set');
    expect(results[1]).toContain('every first Monday at 09:00, first on Mon 7 Dec 2026, 09:00');
    expect(results[2]).toContain('water the plants');
    expect(jobs.list({ kind: 'reminder' })[0]?.rule?.cron).toBe('0 9 * * 1#1');
    // one set by hand about health is withheld from the hosted model's list
    reminders.set(askerFor(general, 'Ann'), 'collect the prescription', 'tomorrow at 9am');
    const again = new ScriptedChatModel([{ toolCalls: [{ name: 'list_reminders', arguments: '{}' }] }, { text: 'ok' }], false, 'hosted');
    await makeAssistant({ model: again, clock, reminders, memoryModel: null }).assistant.conversation.handle({ place: general, speaker: 'Ann', text: 'what reminders are set?', source: 'terminal:2' });
    expect(toolResult(again)[0]).toContain('[withheld: a reminder is marked sensitive]');
    expect(toolResult(again)[0]).not.toContain('prescription');
  });

  it('the scheduler production always builds: a phrase that is no time is refused with the reason, and nothing is set', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'set_reminder', arguments: '{"what":"x","when":"whenever you like"}' }] },
      { toolCalls: [{ name: 'list_reminders', arguments: '{}' }] },
      { text: 'ok' },
    ]);
    const { assistant } = makeAssistant({ model });
    await assistant.conversation.handle({ place: general, speaker: 'Ann', text: 'remind me whenever', source: 'terminal:1' });
    const [set, list] = toolResult(model);
    expect(set).toMatch(/^Not set: /);
    expect(list).toBe('No reminders are set.');
  });
});
