import { describe, expect, it } from 'vitest';
import { privateWhy } from '../../src/core/inspector/why.js';
import type { PrivateRecord } from '../../src/core/ports/private-store.js';
import { rankRecords, rememberedRecords, type MatchableRecord } from '../../src/core/records/match.js';

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

  it('a month named alone ("in August") finds the records said in that month of any year; "may" the verb names none', () => {
    const parades = [rec('Caroline went to a pride parade last week.', '2023-07-03', 'Caroline'), rec('Caroline went to a pride parade last Friday.', '2023-08-14', 'Caroline')];
    for (const records of [parades, [...parades].reverse()]) {
      expect(rankRecords(records, 'When did Caroline go to a pride parade in August?', 1)[0]?.said).toBe('2023-08-14');
      expect(rankRecords(records, 'Which parade did Caroline go to in the second week of July?', 1)[0]?.said).toBe('2023-07-03');
      expect(rankRecords(records, 'May Caroline go to a pride parade?', 2)).toEqual(rankRecords(records, 'Caroline go to a pride parade?', 2));
    }
  });

  it.each([
    ['Where did John explore on a road trip last year?', 'John explored the Pacific Northwest coast on the road trip.', 'John keeps a picture of a road trip taken last year.'],
    ['Who gave Maria money when she was younger?', 'Maria had to rely on money from her auntie when she was younger.', 'Maria gave money to a shelter when she was younger.'],
    ['How long has Caroline had her friends?', 'Caroline has known her friends for 4 years.', 'Caroline had a picnic with her friends.'],
  ])('%s → the record that holds a place, a person, a number', (question, answer, other) => {
    const records = [rec(other, '2023-01-01', 'John'), rec(answer, '2023-01-01', 'John')];
    for (const list of [records, [...records].reverse()]) expect(rankRecords(list, question, 1)[0]?.statement).toBe(answer);
  });

  it('a question about a plan finds the record that tells one; the same words without it find the other', () => {
    const records = [
      rec('Melanie went camping with her family last weekend.', '2023-07-17', 'Melanie'),
      rec('Melanie is thinking about going camping with her family next month.', '2023-05-25', 'Melanie'),
    ];
    for (const list of [records, [...records].reverse()]) {
      expect(rankRecords(list, 'When is Melanie planning on going camping with her family?', 1)[0]).toBe(records[1]);
      expect(rankRecords(list, 'When did Melanie go camping with her family?', 1)[0]).toBe(records[0]);
    }
  });

  it("the record's source message is searched too, below its statement", () => {
    const friends = { ...rec('Caroline appreciates her friends and family helping with her transition.', '2023-07-06', 'Caroline'), context: 'We even had a picnic last week!' };
    const parade = rec('Caroline went to a pride parade with friends.', '2023-07-06', 'Caroline');
    expect(rankRecords([parade, friends], 'When did Caroline have a picnic?', 1)[0]).toBe(friends);
    expect(rankRecords([friends, parade], 'When did Caroline have a picnic?', 1)[0]).toBe(friends);
    expect(rankRecords([{ ...friends, context: '' }, parade], 'When did Caroline have a picnic?', 1)[0]).not.toBe(friends);
    // a word of the statement outweighs the same word in another record's message
    const told = { ...rec('Caroline had a picnic with friends.', '2023-07-06', 'Caroline') };
    expect(rankRecords([friends, told], 'When did Caroline have a picnic?', 1)[0]).toBe(told);
  });
});

describe('rankRecords: coverage and names (household questions)', () => {
  const home = (statement: string, pageTitle = 'Ann'): MatchableRecord => ({ statement, pageTitle, status: 'active', said: '2026-03-02' });
  const filler = [
    home('Ann walks the dog before breakfast.'),
    home('Ann is learning Spanish on her phone.'),
    home('Ben fixed the garden gate.', 'Ben'),
    home('Ben wants a quieter dishwasher.', 'Ben'),
  ];

  it('a record that holds most of what is asked beats one that holds one word of it many times', () => {
    const others = [
      home('Ann is learning Spanish on her phone.'),
      home('Ben fixed the garden gate.', 'Ben'),
      home('Tom plays football.', 'Tom'),
      home('Tom likes rain.', 'Tom'),
      home("Ben's dog barks at the postman.", 'Ben'),
      home('Tom will walk home from school.', 'Tom'),
      home('Ben likes to walk to work.', 'Ben'),
    ];
    const covers = home('Ann walks the dog on Saturday mornings.');
    const repeats = { ...home('Ann thinks the vet is good.'), context: 'The vet was lovely. Best vet, honestly, the vet.' };
    for (const list of [
      [...others, repeats, covers],
      [...others, covers, repeats],
    ])
      expect(rankRecords(list, 'Does Ann walk the dog to the vet?', 1)[0]).toBe(covers);
  });

  it.each([
    ['What game does Sam play with his friends online?', 'Sam', 'Sam plays Minecraft online with his friends after school.', 'Sam plays online with his friends.'],
    ['What book is Ann reading to the kids?', 'Ann', "Ann is reading 'The Hobbit' to the kids at bedtime.", 'Ann is reading to the kids.'],
    ['Which podcast does Ben listen to on the drive to work?', 'Ben', 'Ben listens to “The Daily” on the drive to work each morning.', 'Ben listens to the radio on the drive to work.'],
  ])('%s → the record that names it', (question, subject, named, other) => {
    const answer = home(named, subject);
    const near = home(other, subject);
    for (const list of [
      [...filler, near, answer],
      [...filler, answer, near],
    ])
      expect(rankRecords(list, question, 1)[0]).toBe(answer);
    // the same words asked without asking for a name keep the shorter record first
    expect(rankRecords([...filler, answer, near], question.replace(/^(?:What|Which) \w+/, 'How'), 1)[0]).toBe(near);
  });
});

describe("privateWhy: a DM's records are ranked without being remembered", () => {
  it('leaves none of their words in the ranking memory, which a project question fills', () => {
    const dm = (id: string, statement: string): PrivateRecord => ({
      id,
      statement,
      entity: 'Ann',
      category: 'preference',
      confidence: 0.9,
      status: 'active',
      said: '2026-11-02',
      source: 'dm:1',
      via: 'chat',
      effective: 0.9,
      state: 'fresh',
      sensitivity: 'personal',
      about: '',
      superseded: '',
      happened: '',
      due: '',
      vs: '',
      asked: '',
      raised: '',
    });
    const before = rememberedRecords();
    const answer = privateWhy([dm('a1b2c3', 'Ann keeps her spare key under the blue plant pot'), dm('d4e5f6', 'Ann drinks oat milk')], { query: 'where is the spare key' }, () => []);
    expect(answer.chains.map((c) => c.statement)).toEqual(['Ann keeps her spare key under the blue plant pot']);
    expect(rememberedRecords()).toBe(before);
    rankRecords([{ statement: 'Sam keeps the bike key in the hall drawer', pageTitle: 'Sam', said: '2026-11-02', status: 'active' }], 'where is the bike key');
    expect(rememberedRecords()).toBe(before + 1);
  });
});
