/**
 * The owner's name in the terminal chat and the web app: OWNER_NAME when set, else the login name
 * of a person's account; a system account (the outside run's server ran as root and showed the
 * owner as "root") names no person, so the owner is "Owner".
 */
import { describe, expect, it } from 'vitest';
import { ownerName } from '../../src/app/startup.js';

describe('the owner’s name', () => {
  it('is OWNER_NAME when set', () => {
    expect(ownerName('Dana', () => 'root')).toBe('Dana');
  });
  it('is the login name of a person’s account', () => {
    expect(ownerName(undefined, () => 'dana')).toBe('dana');
  });
  it('is "Owner" for a system account, an empty name or none', () => {
    for (const login of ['root', 'ROOT', 'admin', 'www-data', ' '])
      expect(
        ownerName(undefined, () => login),
        login,
      ).toBe('Owner');
    expect(
      ownerName(undefined, () => {
        throw new Error('no account');
      }),
    ).toBe('Owner');
  });
});
