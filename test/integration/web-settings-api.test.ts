/**
 * The owner's Settings API against a whole Charlie: "Run checks" runs the doctor on the server
 * (owner only, joined and repeated rather than run twice), and each project's style and response
 * mode are saved through the assistant (as /project style and /project respond), validated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFiles } from '../support/web-demo-data.js';
import { startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

describe('Settings API', { timeout: 120_000 }, () => {
  let f: WebFixture;
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const json = { ...bearer, 'content-type': 'application/json' };
  let member = '';

  beforeAll(async () => {
    f = await startWebFixture({ files: demoFiles(), script: () => ({ text: 'ok' }) });
    const link = await fetch(f.web.loginLinkFor('555', 'Kim'), { redirect: 'manual' });
    member = (link.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  }, 60_000);

  afterAll(async () => {
    await f.close();
  });

  it('runs the doctor for the owner, joins a run already going, and refuses a member', async () => {
    expect(await (await fetch(`${f.web.url}/api/settings/checks`, { headers: bearer })).json()).toEqual({ available: true, run: null });
    const [a, b] = await Promise.all([
      fetch(`${f.web.url}/api/settings/checks`, { method: 'POST', headers: bearer }).then(
        (r) => r.json() as Promise<{ run: { at: string; checks: { part: string; name: string; status: string }[] }; fresh: boolean }>,
      ),
      fetch(`${f.web.url}/api/settings/checks`, { method: 'POST', headers: bearer }).then((r) => r.json() as Promise<{ run: { at: string }; fresh: boolean }>),
    ]);
    expect([a.fresh, b.fresh].sort()).toEqual([false, true]);
    expect(b.run.at).toBe(a.run.at);
    // the doctor's own parts, with the fake model checked live
    expect(a.run.checks.map((c) => c.part)).toEqual(expect.arrayContaining(['config', 'storage']));
    expect(a.run.checks.every((c) => ['ok', 'warn', 'fail', 'skip'].includes(c.status))).toBe(true);
    expect(JSON.stringify(a.run)).not.toContain(TOKEN);
    const again = (await (await fetch(`${f.web.url}/api/settings/checks`, { method: 'POST', headers: bearer })).json()) as { fresh: boolean; run: { at: string } };
    expect(again).toMatchObject({ fresh: false, run: { at: a.run.at } });
    expect(((await (await fetch(`${f.web.url}/api/settings/checks`, { headers: bearer })).json()) as { run: { at: string } }).run.at).toBe(a.run.at);
    expect((await fetch(`${f.web.url}/api/settings/checks`, { method: 'POST', headers: { cookie: member } })).status).toBe(403);
    // signed out: refused (by the origin guard or the sign-in check)
    expect([401, 403]).toContain((await fetch(`${f.web.url}/api/settings/checks`, { method: 'POST' })).status);
  });

  it('saves a project’s style and response mode into project.md, as /project style does', async () => {
    const list = (await (await fetch(`${f.web.url}/api/settings/projects`, { headers: bearer })).json()) as { projects: { project: string; style: string; respond: string }[] };
    expect(list.projects.map((p) => p.project)).toContain('trip');
    const res = await fetch(`${f.web.url}/api/settings/projects/trip`, { method: 'PUT', headers: json, body: JSON.stringify({ style: '  short answers,\nBritish spelling ', respond: 'mention' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project: 'trip', style: 'short answers, British spelling', respond: 'mention' });
    const file = readFileSync(join(f.projectsDir, 'trip', 'project.md'), 'utf8');
    expect(file).toMatch(/style: .*short answers, British spelling/);
    expect(file).toMatch(/respond: mention/);
    // what the assistant itself now reads
    expect((await f.app.assistant.settings.showMemory({ kind: 'project', origin: { name: 'trip', key: 'web:trip' } })).style).toBe('short answers, British spelling');
  });

  it('refuses bad input with a clear error, and a member', async () => {
    const put = (body: unknown, headers: Record<string, string> = json, project = 'trip') =>
      fetch(`${f.web.url}/api/settings/projects/${project}`, { method: 'PUT', headers, body: JSON.stringify(body) });
    const tooLong = await put({ style: 'x'.repeat(1001) });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: string }).error).toContain('at most 1000 characters');
    const mode = await put({ respond: 'sometimes' });
    expect(((await mode.json()) as { error: string }).error).toContain('"always" or "mention"');
    expect(((await (await put({})).json()) as { error: string }).error).toContain('send a style');
    expect((await put({ style: 'a\u0007b' })).status).toBe(400);
    expect((await put({ style: 'x', extra: 1 })).status).toBe(400);
    expect((await put({ style: 'x' }, json, 'no-such-project')).status).toBe(404);
    expect((await put({ style: 'x' }, { cookie: member, 'content-type': 'application/json' })).status).toBe(403);
    expect(readFileSync(join(f.projectsDir, 'trip', 'project.md'), 'utf8')).toMatch(/short answers, British spelling/);
  });
});
