/**
 * Web sign-in state that must hold across restarts and behind proxies: a used `/web` link stays
 * used and a signed-out session stays dead for a new WebAuth on the same files; the failed-login
 * limit never refuses a correct token; the client behind a trusted proxy is the forwarded address.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FailedLoginLimiter, WebAuth } from '../../src/web/auth.js';
import { clientAddress } from '../../src/web/guard.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function authAt(dir: string, now: () => number = Date.now): WebAuth {
  return new WebAuth({ ownerToken: 'owner-token-0123456789', ownerName: 'Ada', tokenFile: join(dir, 'owner-token'), secretFile: join(dir, 'secret'), sessionDays: 30, now });
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'charlie-auth-'));
  dirs.push(d);
  return d;
}

describe('WebAuth', () => {
  it('keeps a used /web link used after a restart', () => {
    const dir = tempDir();
    const link = authAt(dir).issueLinkToken('42', 'Sam');
    const first = authAt(dir);
    expect(first.exchange(link)).toMatchObject({ kind: 'member', id: '42', name: 'Sam' });
    expect(first.exchange(link)).toBeNull();
    expect(authAt(dir).exchange(link)).toBeNull();
    // another link for the same person still works
    expect(authAt(dir).exchange(authAt(dir).issueLinkToken('42', 'Sam'))).toMatchObject({ id: '42' });
  });

  it('ends one session on sign-out, for good, and leaves the others', () => {
    const dir = tempDir();
    const auth = authAt(dir);
    const a = auth.sessionValue(auth.owner());
    const b = auth.sessionValue(auth.owner());
    expect(auth.readSession(a)).toMatchObject({ kind: 'owner' });
    expect(auth.endSession(a)).toBe(true);
    expect(auth.readSession(a)).toBeNull();
    expect(authAt(dir).readSession(a)).toBeNull();
    expect(authAt(dir).readSession(b)).toMatchObject({ kind: 'owner' });
    expect(auth.endSession('forged.value')).toBe(false);
  });

  it('forgets used links once they have expired', () => {
    const dir = tempDir();
    let t = 1_000_000;
    const auth = authAt(dir, () => t);
    expect(auth.exchange(auth.issueLinkToken('7', 'Kim'))).not.toBeNull();
    t += 16 * 60_000;
    const link = auth.issueLinkToken('8', 'Lee');
    expect(auth.exchange(link)).not.toBeNull();
    // the state file holds only the link still unexpired
    const state = JSON.parse(readFileSync(join(dir, 'used.json'), 'utf8')) as { links: Record<string, number> };
    expect(Object.keys(state.links)).toHaveLength(1);
  });

  it('tells a wrong Bearer token from none', () => {
    const auth = authAt(tempDir());
    expect(auth.readBearer(undefined)).toBeNull();
    expect(auth.readBearer('Bearer nope')).toBe('wrong');
    expect(auth.readBearer('Bearer owner-token-0123456789')).toMatchObject({ kind: 'owner' });
  });
});

describe('FailedLoginLimiter', () => {
  it('blocks after five failures in the window and forgets them after a success or the window', () => {
    let t = 0;
    const limiter = new FailedLoginLimiter(5, 1000, () => t);
    for (let i = 0; i < 5; i++) limiter.fail('a');
    expect(limiter.blocked('a')).toBe(true);
    expect(limiter.blocked('b')).toBe(false);
    limiter.succeed('a');
    expect(limiter.blocked('a')).toBe(false);
    for (let i = 0; i < 5; i++) limiter.fail('a');
    t = 1001;
    expect(limiter.blocked('a')).toBe(false);
  });
});

describe('clientAddress', () => {
  it('believes X-Forwarded-For only from a trusted proxy, and only its nearest untrusted hop', () => {
    expect(clientAddress('127.0.0.1', '100.64.0.9', [])).toBe('127.0.0.1');
    expect(clientAddress('::ffff:127.0.0.1', '100.64.0.9', ['127.0.0.1'])).toBe('100.64.0.9');
    // a client that forges its own X-Forwarded-For only adds entries to the left
    expect(clientAddress('127.0.0.1', '6.6.6.6, 100.64.0.9', ['127.0.0.1'])).toBe('100.64.0.9');
    expect(clientAddress('127.0.0.1', '100.64.0.9, 10.0.0.2', ['127.0.0.1', '10.0.0.2'])).toBe('100.64.0.9');
    expect(clientAddress('10.9.9.9', '100.64.0.9', ['127.0.0.1'])).toBe('10.9.9.9');
    expect(clientAddress('127.0.0.1', undefined, ['127.0.0.1'])).toBe('127.0.0.1');
  });
});
