import { describe, expect, it } from 'vitest';
import { exactCopy, withItem } from '../../src/util/exact-list.js';

describe('exact lists', () => {
  it('give a new list of the items (and one more), leaving the one given as it was', () => {
    const list = Object.freeze([3, 1, 2]);
    expect(withItem(list, 7)).toEqual([3, 1, 2, 7]);
    expect(withItem([], 7)).toEqual([7]);
    expect(exactCopy(list)).toEqual([3, 1, 2]);
    expect(exactCopy(list)).not.toBe(list);
    expect(exactCopy([])).toEqual([]);
    expect(list).toEqual([3, 1, 2]);
  });
});
