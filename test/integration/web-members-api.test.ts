/**
 * Household members through the API, against a whole Charlie, with a software authenticator
 * (the server's real WebAuthn checks): the owner invites, the member makes a passkey from the
 * invite (once), signs in with it and is themselves — their own DMs, as on Discord when the invite
 * is linked — and the owner lists and revokes devices and members, after which the sessions they
 * opened get 401 and the passkey is refused in plain words.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InviteWire, MembersWire } from '../../src/web/shared/members.js';
import { SoftAuthenticator, type CreateOptions, type GetOptions } from '../support/soft-authenticator.js';
import { startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

describe('members and passkeys API', { timeout: 120_000 }, () => {
  let f: WebFixture;
  let base = '';
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const owner = { ...bearer, 'content-type': 'application/json' };

  beforeAll(async () => {
    f = await startWebFixture({ script: () => ({ text: 'ok' }) });
    // passkeys are bound to a host name: browsers refuse them on 127.0.0.1
    base = f.web.url.replace('127.0.0.1', 'localhost');
  }, 60_000);
  afterAll(async () => {
    await f.close();
  });

  const page = { origin: '', json: {} as Record<string, string> };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { origin: page.origin, 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (Linux; Android 15) Chrome/140.0', ...headers },
      body: JSON.stringify(body),
    });
  const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';

  async function invite(body: Record<string, string>): Promise<InviteWire> {
    const res = await fetch(`${base}/api/members`, { method: 'POST', headers: owner, body: JSON.stringify(body) });
    expect(res.status).toBe(201);
    return (await res.json()) as InviteWire;
  }
  async function register(auth: SoftAuthenticator, token: string): Promise<Response> {
    const start = (await (await post('/auth/invite/options', { token })).json()) as { ceremony: string; options: CreateOptions };
    return post('/auth/invite/verify', { ceremony: start.ceremony, response: auth.create(start.options) });
  }
  async function signIn(auth: SoftAuthenticator): Promise<Response> {
    const start = (await (await post('/auth/passkey/options', {})).json()) as { ceremony: string; options: GetOptions };
    return post('/auth/passkey/verify', { ceremony: start.ceremony, response: auth.get(start.options) });
  }
  const me = async (cookie: string) => fetch(`${base}/api/me`, { headers: { cookie } });
  const members = async () => ((await (await fetch(`${base}/api/members`, { headers: bearer })).json()) as MembersWire).members;

  it('invite → passkey → sign in → whoami → revoke the device → 401, with plain words for each refusal', async () => {
    page.origin = base;
    const ann = await invite({ name: 'Ann', role: 'member' });
    expect(ann.link.startsWith(`${base}/invite?token=`)).toBe(true);
    expect(Date.parse(ann.expires) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    const opened = await fetch(ann.link);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Welcome, Ann');

    const phone = new SoftAuthenticator(base);
    const made = await register(phone, tokenOf(ann.link));
    expect(made.status).toBe(200);
    const first = cookieOf(made);
    // the invite worked once
    const again = await fetch(ann.link);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('already used');
    const reuse = (await (await post('/auth/invite/options', { token: tokenOf(ann.link) })).json()) as { error: string };
    expect(reuse.error).toContain('already used');

    const signedIn = await signIn(phone);
    expect(signedIn.status).toBe(200);
    const cookie = cookieOf(signedIn);
    const who = (await (await me(cookie)).json()) as { kind: string; name: string; role: string };
    expect(who).toMatchObject({ kind: 'member', name: 'Ann', role: 'member' });
    // the members API is the owner's
    expect((await fetch(`${base}/api/members`, { headers: { cookie } })).status).toBe(403);

    // her own private conversation, not the owner's
    const id = ann.member!.id;
    expect(id).toMatch(/^web-/);
    f.app.privateStore.appendMessage(id, { time: new Date().toISOString(), speaker: 'Ann', source: 'web:1', text: 'Ann keeps this to herself', role: 'user' });
    f.app.privateStore.appendMessage('web-owner', { time: new Date().toISOString(), speaker: 'root', source: 'web:2', text: 'the owner keeps this', role: 'user' });
    const mine = (await (await fetch(`${base}/api/projects/@me/messages`, { headers: { cookie } })).json()) as { messages: { text: string }[] };
    expect(mine.messages.map((m) => m.text)).toEqual(['Ann keeps this to herself']);

    const listed = (await members()).find((m) => m.id === id)!;
    expect(listed.passkeys).toHaveLength(1);
    expect(listed.passkeys[0]).toMatchObject({ label: 'Chrome on Android' });
    expect(listed.sessions).toHaveLength(2);
    expect(listed.invite?.state).toBe('used');

    // her own sign-out leaves the owner's list of her sessions (the outside run saw signed-out sessions listed)
    const third = cookieOf(await signIn(phone));
    expect((await members()).find((m) => m.id === id)!.sessions).toHaveLength(3);
    expect((await post('/api/logout', {}, { cookie: third })).status).toBe(200);
    expect((await me(third)).status).toBe(401);
    const after = (await members()).find((m) => m.id === id)!.sessions as { revoked?: string }[];
    expect(after.map((x) => x.revoked !== undefined)).toEqual([false, false, true]);

    // the owner ends one session: that cookie is refused, the other still works
    expect((await fetch(`${base}/api/members/${id}/sessions/${listed.sessions[0]!.id}`, { method: 'DELETE', headers: bearer })).status).toBe(200);
    expect((await me(first)).status).toBe(401);
    expect((await me(cookie)).status).toBe(200);
    // … then removes the device: its sessions end and its passkey no longer signs in
    const removed = await fetch(`${base}/api/members/${id}/passkeys/${encodeURIComponent(listed.passkeys[0]!.id)}`, { method: 'DELETE', headers: bearer });
    expect(await removed.json()).toMatchObject({ sessions: 1 });
    expect((await me(cookie)).status).toBe(401);
    const refused = await signIn(phone);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toContain('This device was removed');

    // a passkey this Charlie never saw
    const stranger = new SoftAuthenticator(base);
    stranger.create({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'eA' } });
    const unknown = await signIn(stranger);
    expect(unknown.status).toBe(401);
    expect(((await unknown.json()) as { error: string }).error).toContain('not known here');

    // kept in the data folder, owner-only, never under projects/
    const file = join(f.dataDir, 'web', 'members.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('an invite linked to a Discord account is that person: their DMs; removing the member ends everything', async () => {
    page.origin = base;
    const sam = await invite({ name: 'Sam', role: 'editor', discordId: '123456789012345678' });
    expect(sam.member).toMatchObject({ id: '123456789012345678', discord: true, role: 'editor' });
    f.app.privateStore.appendMessage('123456789012345678', { time: new Date().toISOString(), speaker: 'Sam', source: 'dm', text: 'said to Charlie on Discord', role: 'user' });
    const phone = new SoftAuthenticator(base);
    expect((await register(phone, tokenOf(sam.link))).status).toBe(200);
    const cookie = cookieOf(await signIn(phone));
    expect(((await (await me(cookie)).json()) as { role: string }).role).toBe('editor');
    const mine = (await (await fetch(`${base}/api/projects/@me/messages`, { headers: { cookie } })).json()) as { messages: { text: string }[] };
    expect(mine.messages.map((m) => m.text)).toContain('said to Charlie on Discord');

    const gone = await fetch(`${base}/api/members/123456789012345678`, { method: 'DELETE', headers: bearer });
    expect(gone.status).toBe(200);
    expect((await me(cookie)).status).toBe(401);
    const refused = await signIn(phone);
    expect(((await refused.json()) as { error: string }).error).toContain('no longer a member');
    expect((await members()).find((m) => m.id === '123456789012345678')?.revoked).toBeTruthy();
  });

  it('someone signed in with a Discord /web link adds a passkey and is then a member as that same Discord person', async () => {
    page.origin = base;
    const link = await fetch(f.web.loginLinkFor('987654321098765432', 'Kim', 'member').replace('127.0.0.1', 'localhost'), { redirect: 'manual' });
    const cookie = cookieOf(link);
    expect(((await (await fetch(`${base}/api/me/passkeys`, { headers: { cookie } })).json()) as { passkeys: unknown[] }).passkeys).toEqual([]);
    const start = (await (await post('/api/me/passkeys/options', {}, { cookie })).json()) as { ceremony: string; options: CreateOptions };
    const laptop = new SoftAuthenticator(base);
    const made = await post('/api/me/passkeys/verify', { ceremony: start.ceremony, response: laptop.create(start.options) }, { cookie });
    expect(made.status).toBe(200);
    expect((await members()).find((m) => m.id === '987654321098765432')).toMatchObject({ name: 'Kim', discord: true, role: 'member' });
    f.app.privateStore.appendMessage('987654321098765432', { time: new Date().toISOString(), speaker: 'Kim', source: 'dm', text: 'Kim on Discord', role: 'user' });
    const again = cookieOf(await signIn(laptop));
    const mine = (await (await fetch(`${base}/api/projects/@me/messages`, { headers: { cookie: again } })).json()) as { messages: { text: string }[] };
    expect(mine.messages.map((m) => m.text)).toEqual(['Kim on Discord']);
    // a ceremony another member started is not theirs to finish; the owner has the token, not passkeys
    const other = (await (await post('/api/me/passkeys/options', {}, { cookie })).json()) as { ceremony: string; options: CreateOptions };
    const lee = cookieOf(await fetch(f.web.loginLinkFor('1111122222', 'Lee', 'member').replace('127.0.0.1', 'localhost'), { redirect: 'manual' }));
    const stolen = await post('/api/me/passkeys/verify', { ceremony: other.ceremony, response: new SoftAuthenticator(base).create(other.options) }, { cookie: lee });
    expect(stolen.status).toBe(400);
    const owners = await post('/api/me/passkeys/options', {}, bearer);
    expect(((await owners.json()) as { error: string }).error).toContain('owner token');
  });

  it('refuses bad input in plain words', async () => {
    page.origin = base;
    const bad = async (body: unknown) => {
      const res = await fetch(`${base}/api/members`, { method: 'POST', headers: owner, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      return ((await res.json()) as { error: string }).error;
    };
    expect(await bad({ name: '', role: 'member' })).toBe('a name is needed');
    expect(await bad({ name: 'Eve', role: 'owner' })).toContain('the role is one of: editor, member');
    expect(await bad({ name: 'Eve', role: 'member', discordId: 'eve#1234' })).toContain('digits only');
    const unknown = await fetch(`${base}/invite?token=i.nothing`);
    expect(unknown.status).toBe(410);
    expect(await unknown.text()).toContain('not known here');
    // passkeys need a host name, not an IP address
    const ip = (await (await fetch(`${f.web.url}/auth/passkey/options`, { method: 'POST', headers: { origin: f.web.url, 'content-type': 'application/json' }, body: '{}' })).json()) as {
      error: string;
    };
    expect(ip.error).toContain('http://localhost:');
    // a passkey's answer is small: a flood is refused before it is read
    expect((await post('/auth/passkey/verify', { ceremony: 'x', response: 'x'.repeat(100_000) })).status).toBe(413);
    // a ceremony that was never started
    page.origin = base;
    const stale = await post('/auth/passkey/verify', { ceremony: 'nope', response: {} });
    expect(((await stale.json()) as { error: string }).error).toContain('Reload the page');
  });
});

describe('a damaged members file', { timeout: 120_000 }, () => {
  it('turns passkeys off with a warning, keeps the file as it was, and the web app still starts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'charlie-members-damaged-'));
    const file = join(dataDir, 'web', 'members.json');
    mkdirSync(join(dataDir, 'web'), { recursive: true });
    writeFileSync(file, '{"members": [');
    const f = await startWebFixture({ script: () => ({ text: 'ok' }), env: { DATA_DIR: dataDir } });
    try {
      expect(f.printed).toContain('household members and passkeys are off');
      expect((await fetch(`${f.web.url}/api/me`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      expect(readFileSync(file, 'utf8')).toBe('{"members": [');
    } finally {
      await f.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
