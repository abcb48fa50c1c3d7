import { describe, expect, it } from 'vitest';
import { rankRecords, type MatchableRecord } from '../../src/core/records/match.js';

const rec = (statement: string, said: string, pageTitle = 'Joanna'): MatchableRecord => ({ statement, pageTitle, status: 'active', said });

describe('rankRecords: the cues of the question', () => {
  const finished = [rec('Joanna finished a presentation for producers last Friday.', '2022-10-21'), rec('Joanna finished her first full screenplay last Friday.', '2022-01-23')];

  it.each([
    ['What did Joanna finish last Friday on 23 January, 2022?', 'screenplay'],
    ['What did Joanna finish on January 21, 2022?', 'screenplay'],
    ['What did Joanna finish in October 2022?', 'presentation'],
  ])('%s → the record said then', (question, word) => {
    for (const records of [finished, [...finished].reverse()]) expect(rankRecords(records, question, 1)[0]?.statement).toContain(word);
  });

  it('a day the question names outside every record changes nothing', () => {
    for (const records of [finished, [...finished].reverse()]) expect(rankRecords(records, 'What did Joanna finish on 3 March, 2019?', 2)).toEqual(rankRecords(records, 'What did Joanna finish?', 2));
  });

  it('"what kind of" asks for the thing, not for kindness', () => {
    const records = [
      rec("Joanna appreciates Nate's kind words and encouragement.", '2022-01-01'),
      rec('Joanna considers writing a huge part of her life and is heavily invested in it.', '2022-01-01'),
    ];
    expect(rankRecords(records, 'What kind of writings does Joanna do?', 1)[0]).toBe(records[1]);
    expect(rankRecords(records, 'Is Nate kind?', 1)[0]).toBe(records[0]);
  });

  it("the person the question names before another's record that mentions them", () => {
    const records = [rec('Maria painted a sunset with Nate.', '2022-01-01', 'Maria'), rec('Nate painted a turtle.', '2022-01-01', 'Nate')];
    expect(rankRecords(records, 'What did Nate paint?', 1)[0]).toBe(records[1]);
  });
});
