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
});
