/**
 * The household members' book on its own file, with a clock: an invite works until it expires
 * and only once, a new invite ends the earlier one, what was written is read back after a
 * restart (0600), a damaged file is refused rather than emptied, and a removed member's passkey
 * and invite say why they no longer work.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INVITE_HOURS, MemberBook, type Passkey } from '../../src/web/members.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function fileIn(): string {
  const d = mkdtempSync(join(tmpdir(), 'charlie-members-'));
  dirs.push(d);
  return join(d, 'web', 'members.json');
}
const key = (id: string): Passkey => ({ id, publicKey: 'cHVi', counter: 0, transports: [], label: 'Chrome on Android', created: '2026-12-06T10:00:00.000Z' });

describe('MemberBook', () => {
  it('an invite works until it expires, and says so after', () => {
    let now = Date.parse('2026-12-06T10:00:00Z');
    const book = new MemberBook(fileIn(), () => now);
    const { token, member } = book.invite({ name: 'Ann', role: 'member' });
    now += (INVITE_HOURS - 1) * 3_600_000;
    expect(book.openInvite(token).id).toBe(member.id);
    now += 2 * 3_600_000;
    expect(() => book.openInvite(token)).toThrow(`This invite link expired (links last ${INVITE_HOURS} hours)`);
  });

  it('an invite is used once; a new invite ends the one before', () => {
    const book = new MemberBook(fileIn());
    const { token, member } = book.invite({ name: 'Ann', role: 'editor' });
    const second = book.reinvite(member.id);
    expect(() => book.openInvite(token)).toThrow('already used');
    book.useInvite(second.token, key('k1'));
    expect(() => book.useInvite(second.token, key('k2'))).toThrow('already used');
    expect(book.get(member.id)?.passkeys.map((p) => p.id)).toEqual(['k1']);
    expect(() => book.openInvite('i.never-made')).toThrow('not known here');
  });

  it('keeps members across a restart in a 0600 file, and refuses a damaged one instead of emptying it', () => {
    const file = fileIn();
    const book = new MemberBook(file);
    const { member } = book.invite({ name: 'Sam', role: 'member', discordId: '4242424242' });
    expect(member.id).toBe('4242424242');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new MemberBook(file).get('4242424242')).toMatchObject({ name: 'Sam', discord: true });
    expect(() => book.invite({ name: 'Sam again', role: 'member', discordId: '4242424242' })).toThrow('already a member');
    writeFileSync(file, JSON.stringify({ members: [{ id: 'x' }] }));
    expect(() => new MemberBook(file)).toThrow('does not hold');
    writeFileSync(file, '{"members": [');
    expect(() => new MemberBook(file)).toThrow('is not JSON');
  });

  it('a removed member, or a removed device, is refused in words, and their sessions are handed back to end', () => {
    const book = new MemberBook(fileIn());
    const ann = book.invite({ name: 'Ann', role: 'member' });
    const member = book.useInvite(ann.token, key('k1'));
    const { passkey } = book.passkey('k1');
    book.signedIn(member, passkey, 3, { sid: 's1', expires: new Date(Date.now() + 86_400_000).toISOString(), label: 'Chrome on Android' });
    expect(book.passkey('k1').passkey.counter).toBe(3);
    expect(book.revokePasskey(member.id, 'k1')).toEqual([{ sid: 's1', expires: expect.any(Number) as number }]);
    expect(() => book.passkey('k1')).toThrow('This device was removed');
    expect(() => book.passkey('k9')).toThrow('not known here');
    const bob = book.invite({ name: 'Bob', role: 'member' });
    expect(book.revokeMember(bob.member.id)).toEqual([]);
    expect(() => book.openInvite(bob.token)).toThrow('withdrawn');
    expect(book.revokeMember(bob.member.id)).toBeNull();
  });
});
