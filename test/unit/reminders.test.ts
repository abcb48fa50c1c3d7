import { describe, expect, it } from 'vitest';
import { remindersFor, remindersPrompt, type Raisable } from '../../src/core/turn/raise.js';

const rec = (over: Partial<Raisable>): Raisable => ({
  id: 'r-1',
  entity: 'Ann',
  statement: 'Will call the bank.',
  category: 'commitment',
  status: 'active',
  state: 'expired',
  due: '2026-06-19',
  vs: '',
  asked: '',
  raised: '',
  sensitive: false,
  owner: true,
  named: true,
  ...over,
});

describe('remindersFor', () => {
  it('asks about an expired commitment of the owner that was not asked yet', () => {
    expect(remindersFor([rec({})], false).map((r) => [r.what, r.ids])).toEqual([['asked', ['r-1']]]);
    expect(remindersFor([rec({ asked: '2026-06-20' })], false)).toEqual([]);
    expect(remindersFor([rec({ owner: false })], false)).toEqual([]);
    expect(remindersFor([rec({ state: 'fresh' })], false)).toEqual([]);
    expect(remindersFor([rec({ category: 'identity' })], false)).toEqual([]);
  });

  it('never raises a held or superseded record, nor a sensitive one to a hosted model', () => {
    expect(remindersFor([rec({ status: 'held' })], false)).toEqual([]);
    expect(remindersFor([rec({ status: 'superseded' })], false)).toEqual([]);
    expect(remindersFor([rec({ sensitive: true })], true)).toEqual([]);
    expect(remindersFor([rec({ sensitive: true })], false)).toHaveLength(1);
  });

  it('mentions a review pair once, only when named, and not when either side was raised or is held', () => {
    const a = rec({ id: 'r-a', category: 'identity', state: 'fresh', status: 'review', vs: 'r-b', statement: 'Works at Acme.' });
    const b = rec({ id: 'r-b', category: 'identity', state: 'fresh', status: 'review', vs: 'r-a', statement: 'Joined Globex.' });
    const out = remindersFor([a, b], false);
    expect(out.map((r) => [r.what, [...r.ids].sort()])).toEqual([['raised', ['r-a', 'r-b']]]);
    expect(remindersPrompt(out)).toContain('two conflicting facts about Ann: "Works at Acme." and "Joined Globex."');
    expect(
      remindersFor(
        [
          { ...a, named: false },
          { ...b, named: false },
        ],
        false,
      ),
    ).toEqual([]);
    expect(remindersFor([a, { ...b, raised: '2026-06-20' }], false)).toEqual([]);
    expect(remindersFor([a, { ...b, status: 'held' }], false)).toEqual([]);
    expect(remindersPrompt([])).toBe('');
  });
});
