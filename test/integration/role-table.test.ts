/**
 * One role table for every front door, tested from the table itself: for each action in
 * ROLE_TABLE × each role × each front door (the web API and Discord), the request that does it
 * is allowed or refused exactly as the table says. An action added to the table without a request
 * here fails to compile (the maps are Records over Action); a Discord command that declares an
 * action but is not exercised here, or a web route group that names an action not exercised,
 * fails the coverage checks.
 *
 * The break this closes: a household member (not an editor) could edit, forget and hold shared
 * records and rename or archive a project in the web app, while Discord refused the same person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../commands/index.js';
import { ACTIONS, may, refusal, ROLES, type Action, type Role } from '../../src/core/roles.js';
import { WEB_ROUTE_GROUPS } from '../../src/web/roles.js';
import { firstCallback, startBotHarness, subcommand, type BotHarness } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { projectFile, startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

interface WebRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/** The web requests that do each action (`null`: the web app has no such request, with why). */
const WEB: Record<Action, WebRequest[]> = {
  'read-memory': [
    { method: 'GET', path: '/api/projects/general/records' },
    { method: 'GET', path: '/api/projects/general/search?q=tent' },
  ],
  'edit-memory': [
    { method: 'PATCH', path: '/api/projects/general/records/note:Topics/Tent.md', body: { text: 'The green tent.' } },
    { method: 'POST', path: '/api/projects/general/records/r-0000/hold' },
    { method: 'POST', path: '/api/projects/general/records/r-0000/release' },
    { method: 'POST', path: '/api/projects/general/restore', body: { page: 'Topics/Tent.md' } },
    { method: 'POST', path: '/api/projects/general/review/r-0000', body: { choice: 'hold' } },
    { method: 'POST', path: '/api/projects/general/candidates/c-0000/promote' },
    { method: 'DELETE', path: '/api/projects/general/records/note:Topics/Tent.md' },
    { method: 'POST', path: '/api/projects/general/machines/nas/revoke' },
  ],
  'rename-project': [{ method: 'PATCH', path: '/api/projects/general', body: { name: 'General camp' } }],
  'archive-project': [
    { method: 'PATCH', path: '/api/projects/general', body: { archived: true } },
    { method: 'PATCH', path: '/api/projects/general', body: { archived: false } },
  ],
  'project-settings': [
    { method: 'GET', path: '/api/settings/projects' },
    { method: 'PUT', path: '/api/settings/projects/general', body: { style: 'brief' } },
  ],
  // POST /api/settings/checks runs the doctor: its guard is the same group as GET
  settings: [
    { method: 'GET', path: '/api/settings' },
    { method: 'GET', path: '/api/settings/checks' },
    { method: 'GET', path: '/api/sync' },
    { method: 'POST', path: '/api/sync/now', body: {} },
    // Settings › Change (GET /api/settings/live is everyone's, read-only)
    { method: 'PUT', path: '/api/settings/live/voice', body: { tts: 'local' } },
    { method: 'PUT', path: '/api/settings/live/model', body: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } },
  ],
};

/** The Discord commands that do each action (`[]`: Discord has none — a channel's name and archive are Discord's own). */
const DISCORD: Record<Action, [string, ReturnType<typeof subcommand>][]> = {
  'read-memory': [['memory', subcommand('show')]],
  'edit-memory': [
    ['memory', subcommand('edit')],
    ['memory', subcommand('forget', [{ type: 3, name: 'item', value: 'note:Topics/Tent.md' }])],
    ['memory', subcommand('restore', [{ type: 3, name: 'page', value: 'Topics/Tent.md' }])],
    ['memory', subcommand('reflect')],
    ['memory', subcommand('candidates', [{ type: 3, name: 'promote', value: 'c-0000' }])],
    [
      'machines',
      subcommand('remove', [
        { type: 3, name: 'machine', value: 'nas' },
        { type: 3, name: 'what', value: 'revoke' },
      ]),
    ],
  ],
  'rename-project': [],
  'archive-project': [],
  'project-settings': [
    ['project', subcommand('style', [{ type: 3, name: 'text', value: 'pirate' }])],
    ['project', subcommand('respond', [{ type: 3, name: 'when', value: 'mention' }])],
    ['project', subcommand('distill')],
    ['calendar', subcommand('unsubscribe', [{ type: 3, name: 'name', value: 'family' }])],
    [
      'calendar',
      subcommand('subscribe', [
        { type: 3, name: 'name', value: 'family' },
        { type: 3, name: 'address', value: 'https://calendar.example.com/family.ics' },
      ]),
    ],
  ],
  settings: [
    ['sync', subcommand('status')],
    ['sync', subcommand('now')],
  ],
};

/** Discord's refusal (it says how one becomes an editor there) or the table's own. */
const DISCORD_REFUSAL = /can change this channel's shared memory|Only Charlie's owner may/;

describe('the role table covers every front door', () => {
  it('every action of a web route group and every Discord command with an action is exercised here', async () => {
    for (const g of WEB_ROUTE_GROUPS) expect(WEB[g.action].length, `web group ${g.action}`).toBeGreaterThan(0);
    const commands = await loadCommands();
    const exercised = new Set(Object.values(DISCORD).flatMap((list) => list.map(([name, sub]) => `${name} ${String((sub as unknown as { name: string }[])[0]?.name)}`)));
    for (const c of commands) {
      const action = c.action ?? c.componentAction;
      if (action && c.subcommand) expect(exercised.has(`${c.name} ${c.subcommand.name}`) || c.componentAction !== undefined, `${c.name} ${c.subcommand.name} (${action})`).toBe(true);
    }
    // at least one door offers each action, so no row of the table is untested
    for (const a of ACTIONS) expect(WEB[a].length + DISCORD[a].length, a).toBeGreaterThan(0);
  });
});

describe('the web API follows the table', { timeout: 120_000 }, () => {
  let f: WebFixture;
  const headers: Record<Role, Record<string, string>> = { owner: {}, editor: {}, member: {} };

  beforeAll(async () => {
    f = await startWebFixture({
      files: {
        'general/project.md': projectFile('general', 'terminal:general'),
        'general/notes/Topics/Tent.md': `---\nschema: 1\ntitle: Tent\nsensitivity: personal\n---\n\n### 2026-11-20\n\nThe blue tent.\n`,
      },
      script: () => ({ text: 'ok' }),
    });
    const session = async (role: Role) => {
      const link = await fetch(f.web.loginLinkFor(role === 'editor' ? '5551' : '5552', role, role), { redirect: 'manual' });
      return (link.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    };
    headers.owner = { authorization: `Bearer ${TOKEN}` };
    headers.editor = { cookie: await session('editor'), origin: f.web.url };
    headers.member = { cookie: await session('member'), origin: f.web.url };
  }, 60_000);

  afterAll(async () => {
    await f.close();
  });

  // members first: a refused request changes nothing, so the owner's and editor's run on the same project
  const cases = ACTIONS.flatMap((action) => [...ROLES].reverse().map((role) => [action, role] as const));
  it.each(cases)('%s by %s', async (action, role) => {
    for (const r of WEB[action]) {
      const res = await fetch(`${f.web.url}${r.path}`, {
        method: r.method,
        headers: { ...headers[role], ...(r.body ? { 'content-type': 'application/json' } : {}) },
        ...(r.body ? { body: JSON.stringify(r.body) } : {}),
      });
      const what = `${r.method} ${r.path} as ${role}`;
      if (may(role, action)) expect(res.status, what).not.toBe(403);
      else {
        expect(res.status, what).toBe(403);
        // a route that does several actions (PATCH a project: rename or archive) names the first one refused
        const refusals = ACTIONS.filter((a) => !may(role, a)).map(refusal);
        expect(refusals, what).toContain(((await res.json()) as { error: string }).error);
      }
    }
  });

  it('a member may change their own private memory (@me), as in a DM', async () => {
    const res = await fetch(`${f.web.url}/api/projects/@me/records/r-0000/hold`, { method: 'POST', headers: headers.member });
    expect(res.status).not.toBe(403);
  });
});

describe('Discord follows the table', () => {
  let h: BotHarness;
  beforeAll(async () => {
    const assistant = new FakeAssistant();
    assistant.notes = [{ path: 'Topics/Tent.md', title: 'Tent', tags: [], updated: '2026-11-01', body: 'The blue tent.', aliases: [], staleness: 3, confidence: 0.8, sensitivity: 'public' }];
    h = await startBotHarness({ assistant });
  });
  afterAll(async () => {
    await h.close();
  });

  const cases = ACTIONS.filter((a) => DISCORD[a].length > 0).flatMap((action) => [...ROLES].reverse().map((role) => [action, role] as const));
  it.each(cases)('%s by %s', async (action, role) => {
    const user = { owner: h.fake.owner, editor: h.alice, member: h.bob }[role];
    for (const [name, options] of DISCORD[action]) {
      const cb = await firstCallback(h, h.fake.runCommand(h.general, user, name, options));
      const content = String((cb.data as Json | undefined)?.content ?? '');
      const what = `/${name} ${String((options as unknown as { name: string }[])[0]?.name)} as ${role}`;
      if (may(role, action)) expect(content, what).not.toMatch(DISCORD_REFUSAL);
      else expect(content, what).toMatch(DISCORD_REFUSAL);
    }
  });

  it('a /web link asked for in a DM carries the person’s role across Charlie’s servers into the web session', async () => {
    const issued: [string, Role][] = [];
    const web = { url: 'http://charlie.test', loginLinkFor: (id: string, _name: string, role: Role) => (issued.push([id, role]), 'http://charlie.test/login?token=x') };
    const h2 = await startBotHarness({ assistant: new FakeAssistant(), services: { web } });
    try {
      for (const user of [h2.fake.owner, h2.bob]) await firstCallback(h2, h2.fake.runCommand(h2.fake.dmChannel(user), user, 'web'));
      expect(issued).toEqual([
        [h2.fake.owner.id, 'owner'],
        [h2.bob.id, 'member'],
      ]);
    } finally {
      await h2.close();
    }
  });

  it('a /memory review button is checked against the table when pressed', async () => {
    const message = { id: 'm-review', channel_id: h.general.id, content: '', components: [] };
    const bob = await firstCallback(h, h.fake.pressButton(h.general, h.bob, message, 'memory-review:hold:r-0000'));
    expect(String((bob.data as Json).content)).toMatch(DISCORD_REFUSAL);
    const alice = await firstCallback(h, h.fake.pressButton(h.general, h.alice, message, 'memory-review:hold:r-0000'));
    expect(String((alice.data as Json | undefined)?.content ?? '')).not.toMatch(DISCORD_REFUSAL);
  });
});
