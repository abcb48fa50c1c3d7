import { describe, expect, it } from 'vitest';
import { rankWithMessages } from '../../src/core/inspector/why.js';
import type { LogEntry } from '../../src/core/ports/index.js';

const rec = (statement: string, said: string, source: string, pageTitle = 'Caroline') => ({ statement, pageTitle, status: 'active', said, provenance: { source } });
const entry = (time: string, source: string, text: string): LogEntry => ({ time, speaker: 'Caroline', source, text, role: 'user' });

describe('"why?" ranks its best records again with the messages that said them', () => {
  const parade = rec('Caroline went to a pride parade with friends.', '2023-07-03', 'discord:1');
  const friends = rec('Caroline appreciates her friends and family helping with her transition.', '2023-07-06', 'discord:2');
  const beagle = rec('Owns a beagle called Biscuit.', '2023-01-02', 'discord:3', 'Ann');
  const archive = [
    entry('2023-07-03T10:00:00Z', 'discord:1', 'Last week I went to a pride parade!'),
    entry('2023-07-06T10:00:00Z', 'discord:2', 'We even had a picnic last week!'),
    entry('2023-01-02T10:00:00Z', 'discord:3', 'Biscuit had a picnic.'),
  ];

  it('a word only the message had finds the record; only the days of the records in play are read', async () => {
    const asked: string[][] = [];
    const messages = (days: readonly string[]) => {
      asked.push([...days]);
      return Promise.resolve(archive.filter((e) => days.includes(e.time.slice(0, 10))));
    };
    const records = [parade, friends, beagle];
    expect((await rankWithMessages(records, 'When did Caroline have a picnic?', 1, messages))[0]?.statement).toBe(friends.statement);
    expect(asked).toEqual([['2023-07-03', '2023-07-06']]);
    // Ann's record shares no word of its own with the question: it is not in play, its message not read
    expect((await rankWithMessages(records, 'When did Caroline have a picnic?', 3, messages)).map((r) => r.statement)).not.toContain(beagle.statement);
  });

  it('a question no record shares a word with reads nothing and finds nothing', async () => {
    let read = false;
    const none = await rankWithMessages([parade, friends], 'tax return deadline', 3, () => {
      read = true;
      return Promise.resolve(archive);
    });
    expect(none).toEqual([]);
    expect(read).toBe(false);
  });

  it('the message before the one that said a record (what it answered) is read too, on the same day only', async () => {
    const at = (time: string, source: string, text: string, speaker: string): LogEntry => ({ time, speaker, source, text, role: 'user' });
    const plumber = rec('Ann picked Hansen & Sons, the cheapest quote.', '2026-02-10', 'discord:11', 'Ann');
    const noise = rec('Ann says the boiler rattles at night.', '2026-02-03', 'discord:21', 'Ann');
    const others = [
      rec('Ann is learning Spanish.', '2026-01-05', 'discord:31', 'Ann'),
      rec('Ben fixed the gate.', '2026-01-05', 'discord:32', 'Ben'),
      rec('Ben wants a new kettle.', '2026-01-05', 'discord:33', 'Ben'),
    ];
    const asked = at('2026-02-10T18:00:00Z', 'discord:10', 'Which plumber are we getting for the boiler service?', 'Ben');
    const archive = [
      at('2026-02-03T21:00:00Z', 'discord:21', 'It rattles at night again.', 'Ann'),
      at('2026-01-05T09:00:00Z', 'discord:31', 'Hola!', 'Ann'),
      asked,
      at('2026-02-10T18:05:00Z', 'discord:11', 'Hansen & Sons, they were the cheapest.', 'Ann'),
    ];
    const on = (log: LogEntry[]) => (days: readonly string[]) => Promise.resolve(log.filter((e) => days.includes(e.time.slice(0, 10))).sort((a, b) => a.time.localeCompare(b.time)));
    const question = 'Which plumber did Ann choose for the boiler service?';
    expect((await rankWithMessages([...others, noise, plumber], question, 1, on(archive)))[0]?.statement).toBe(plumber.statement);
    expect((await rankWithMessages([...others, plumber, noise], question, 1, on(archive)))[0]?.statement).toBe(plumber.statement);
    // the same question asked the evening before is another day's message: it is not what the record answered
    const dayBefore = archive.map((e) => (e === asked ? { ...e, time: '2026-02-09T18:00:00Z' } : e));
    expect((await rankWithMessages([...others, plumber, noise], question, 1, on(dayBefore)))[0]?.statement).toBe(noise.statement);
  });

  it("a labelled message's words are not read: the order of what an asker is shown does not tell of them", async () => {
    const at = (time: string, source: string, text: string, sensitivity?: 'sensitive'): LogEntry => ({ time, speaker: 'Ann', source, text, role: 'user', ...(sensitivity ? { sensitivity } : {}) });
    const clinic = rec('Ann goes to Riverside on Tuesday.', '2026-03-02', 'discord:42', 'Ann');
    const market = rec('Ann goes to Hollins on Saturday.', '2026-03-01', 'discord:41', 'Ann');
    // the message before the clinic record asks where the test is: a hosted asker must not find the record by its words
    const log = (label?: 'sensitive') => [
      at('2026-03-01T09:00:00Z', 'discord:41', market.statement),
      at('2026-03-02T09:00:00Z', 'discord:40', 'Which day is your blood test, Ann? The blood test at last?', label),
      at('2026-03-02T09:05:00Z', 'discord:42', clinic.statement),
    ];
    const on = (entries: LogEntry[]) => (days: readonly string[]) => Promise.resolve(entries.filter((e) => days.includes(e.time.slice(0, 10))));
    const question = 'Which day does Ann go for the blood test?';
    // unlabelled (a control), the question's words in the message before find the clinic record first
    expect((await rankWithMessages([market, clinic], question, 1, on(log())))[0]?.statement).toBe(clinic.statement);
    // labelled (by its label, whatever its words), they are not read: the records rank by their own words
    const labelled = log('sensitive').map((e) => (e.source === 'discord:40' ? { ...e, text: 'Where is the blood test?' } : e));
    expect((await rankWithMessages([market, clinic], question, 1, on(labelled)))[0]?.statement).toBe(market.statement);
    expect((await rankWithMessages([market, clinic], question, 1, () => Promise.resolve([])))[0]?.statement).toBe(market.statement);
  });
});
