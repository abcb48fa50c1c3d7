import { describe, expect, it } from 'vitest';
import { tellsTime, timeAnchors } from '../../src/memory/index/time-anchors.js';
import { classifyQuery } from '../../src/memory/index/query-kind.js';

// Monday 30 November 2026, 10:00 UTC
const now = new Date('2026-11-30T10:00:00Z');
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const span = (q: string, at = now) => timeAnchors(q, at).map((w) => [new Date(w.start).toISOString().slice(0, 10), new Date(w.end).toISOString().slice(0, 10), w.label]);

describe('relative time anchors', () => {
  it.each([
    ['what did Sam say yesterday?', '2026-11-29', '2026-11-30', 'yesterday'],
    ['the day before yesterday', '2026-11-28', '2026-11-29', 'day before yesterday'],
    ['what did we decide last week?', '2026-11-23', '2026-11-30', 'last week'],
    ['anything planned for next week?', '2026-12-07', '2026-12-14', 'next week'],
    ['what happened last month', '2026-10-01', '2026-11-01', 'last month'],
    ['and this year?', '2026-01-01', '2027-01-01', 'this year'],
    ['3 days ago', '2026-11-27', '2026-11-28', '3 days ago'],
    ['a week ago', '2026-11-23', '2026-11-30', 'a week ago'],
    ['two months ago', '2026-09-01', '2026-10-01', 'two months ago'],
    ['what did we agree last Friday', '2026-11-27', '2026-11-28', 'last friday'],
    ['on Monday', '2026-11-23', '2026-11-24', 'on monday'],
    ['what did I buy in March?', '2026-03-01', '2026-04-01', 'in march'],
    // a month still to come this year means last year's
    ['in December', '2025-12-01', '2026-01-01', 'in december'],
    ['last summer', '2026-06-01', '2026-09-01', 'last summer'],
    ['grades from last semester', '2026-01-01', '2026-07-01', 'last semester'],
  ])('%s', (q, start, end, label) => {
    expect(span(q)).toEqual([[start, end, label]]);
  });

  it('reads "N years ago" as the half-year either side of then', () => {
    const [w] = timeAnchors('where did we live two years ago?', now);
    expect(w!.start).toBeLessThan(day('2024-11-30'));
    expect(w!.end).toBeGreaterThan(day('2024-11-30'));
    expect(w!.end - w!.start).toBeGreaterThan(300 * 86_400_000);
    expect(w!.end).toBeLessThan(day('2025-07-01'));
  });

  it('"since March" runs to now', () => {
    const [w] = timeAnchors('what changed since March?', now);
    expect(w!.start).toBe(day('2026-03-01'));
    expect(w!.end).toBeGreaterThan(now.getTime());
  });

  it('semesters turn with the half-year', () => {
    expect(span('last semester', new Date('2026-03-10T00:00:00Z'))).toEqual([['2025-07-01', '2026-01-01', 'last semester']]);
  });

  it('finds nothing where no time is named, and does not read the modal "may"', () => {
    expect(timeAnchors('may I ask what Sarah does for work?', now)).toEqual([]);
    expect(timeAnchors('what is the weekly plan', now)).toEqual([]);
    // a month with a year is a calendar date, read elsewhere (dateSpans)
    expect(timeAnchors('in March 2024', now)).toEqual([]);
  });

  it('keeps several anchors in the order they appear', () => {
    expect(span('compare yesterday with last month').map((s) => s[2])).toEqual(['yesterday', 'last month']);
  });
});

describe('query kinds', () => {
  it.each([
    ['what did we decide last week?', 'temporal'],
    ['when is the dentist appointment?', 'temporal'],
    ['what happened on 13 October 2023?', 'temporal'],
    ['what kind of food do I like?', 'preference'],
    ['what is her favourite band', 'preference'],
    ['who is Sarah Chen?', 'person'],
    ['what does Sarah do at Acme?', 'person'],
    ['how do we deploy the api', 'general'],
  ])('%s → %s', (q, kind) => {
    expect(classifyQuery(q, now).kind).toBe(kind);
  });

  it('reads "recently" as a wish for what is recent, not as a window', () => {
    const shape = classifyQuery('what has she been up to lately?', now);
    expect(shape).toMatchObject({ kind: 'temporal', windows: [], namesTime: false, recent: true });
  });

  it('says whether the question names a time', () => {
    expect(classifyQuery('what did we decide last week?', now).namesTime).toBe(true);
    expect(classifyQuery('when did we last deploy?', now).namesTime).toBe(false);
  });
});

describe('messages that tell a time', () => {
  it.each([
    'I passed the interviews last Friday!',
    "I've had them for 3 years now",
    'We moved here in 2019.',
    'A buddy of mine adopted a few months ago',
    'Went camping yesterday with the kids',
    'The show is on 13 October.',
    'Three times a week; it keeps us on track.',
  ])('%s', (text) => {
    expect(tellsTime(text)).toBe(true);
  });

  it('not chat without a time, nor the modal "may"', () => {
    expect(tellsTime('I love painting, it calms me.')).toBe(false);
    expect(tellsTime('You may like this book, it is a favourite of mine.')).toBe(false);
  });

  it('marks questions that ask when, how long or how often', () => {
    expect(classifyQuery('When did Nate get his first two turtles?', now).asksWhen).toBe(true);
    expect(classifyQuery('How long has Melanie been creating art?', now).asksWhen).toBe(true);
    expect(classifyQuery('How often does John work out with his family?', now).asksWhen).toBe(true);
    expect(classifyQuery('What did Nate name his turtles?', now).asksWhen).toBe(false);
  });
});
