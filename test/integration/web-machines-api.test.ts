/**
 * The web app's machines API against a whole Charlie: the same book as /machines. It lists the
 * machines of a project with the signed-in person's badge (never a secret), revokes a login (the
 * page is marked) and forgets a machine (its page is tombstoned); an unknown action is refused.
 * A member sees the list with their own badge but may not revoke or forget (the role table's
 * `edit-memory`, as `/machines remove` on Discord).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../../src/core/roles.js';
import { projectFile, startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

const NAS = `---
schema: 2
title: NAS
category: Machines
created: 2026-11-01
updated: 2026-11-01
staleness: 4
sensitivity: personal
---

A machine Charlie connects to over SSH.

## Facts
- SSH login: admin@192.168.1.20:22, credential vault:ssh/admin@192.168.1.20. [said:: 2026-11-01] [source:: manual] ^r-a1
- Host key: ssh-ed25519 SHA256:${'Q'.repeat(43)}. [said:: 2026-11-01] [source:: manual] ^r-a2
`;

describe('machines API', { timeout: 120_000 }, () => {
  let f: WebFixture;
  const bearer = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    f = await startWebFixture({ files: { 'home/project.md': projectFile('home', 'web:home'), 'home/notes/Machines/NAS.md': NAS }, script: () => ({ text: 'ok' }) });
  }, 60_000);

  afterAll(async () => {
    await f.close();
  });

  it('shows a member their own badge, never the secret, and refuses their revoke and forget', async () => {
    const SECRET = 'CanaryPw-7f3e1';
    await f.app.vault.put('5552', 'ssh/admin@192.168.1.20', { password: SECRET });
    const link = await fetch(f.web.loginLinkFor('5552', 'Bob', 'member'), { redirect: 'manual' });
    const member = { cookie: (link.headers.get('set-cookie') ?? '').split(';')[0] ?? '', origin: f.web.url };
    const res = await fetch(`${f.web.url}/api/projects/home/machines`, { headers: member });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(SECRET);
    const list = JSON.parse(text) as { machines: { name: string; logins: { login: string; badge: string }[] }[] };
    expect(list.machines.map((m) => [m.name, m.logins])).toEqual([['NAS', [{ login: 'admin@192.168.1.20:22', handle: 'vault:ssh/admin@192.168.1.20', badge: 'password' }]]]);
    const page = readFileSync(join(f.projectsDir, 'home', 'notes', 'Machines', 'NAS.md'), 'utf8');
    for (const action of ['revoke', 'forget', 'forget-key']) {
      const refused = await fetch(`${f.web.url}/api/projects/home/machines/NAS/${action}`, { method: 'POST', headers: member });
      expect(refused.status, action).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe(refusal('edit-memory'));
    }
    expect(readFileSync(join(f.projectsDir, 'home', 'notes', 'Machines', 'NAS.md'), 'utf8')).toBe(page);
    expect(await f.app.vault.resolve('5552', 'vault:ssh/admin@192.168.1.20')).toEqual({ password: SECRET });
  });

  it('lists, revokes and forgets, as /machines does', async () => {
    const list = (await (await fetch(`${f.web.url}/api/projects/home/machines`, { headers: bearer })).json()) as {
      machines: { name: string; hostKey: string; logins: { login: string; badge: string; handle: string }[] }[];
    };
    expect(list.machines).toEqual([
      {
        name: 'NAS',
        path: 'Machines/NAS.md',
        hostKey: `ssh-ed25519 SHA256:${'Q'.repeat(43)}`,
        logins: [{ login: 'admin@192.168.1.20:22', handle: 'vault:ssh/admin@192.168.1.20', badge: 'credential not in your vault' }],
        revoked: [],
      },
    ]);
    expect((await fetch(`${f.web.url}/api/projects/home/machines/NAS/reboot`, { method: 'POST', headers: bearer })).status).toBe(400);
    const revoked = (await (await fetch(`${f.web.url}/api/projects/home/machines/NAS/revoke`, { method: 'POST', headers: bearer })).json()) as { line: string };
    expect(revoked.line).toContain('Revoked admin@192.168.1.20:22');
    expect(readFileSync(join(f.projectsDir, 'home', 'notes', 'Machines', 'NAS.md'), 'utf8')).toContain('SSH login revoked: admin@192.168.1.20:22');
    const forgot = (await (await fetch(`${f.web.url}/api/projects/home/machines/NAS/forget`, { method: 'POST', headers: bearer })).json()) as { line: string };
    expect(forgot.line).toContain('Forgot NAS');
    expect(existsSync(join(f.projectsDir, 'home', 'notes', 'Machines', 'NAS.md'))).toBe(false);
    expect(((await (await fetch(`${f.web.url}/api/projects/home/machines`, { headers: bearer })).json()) as { machines: unknown[] }).machines).toEqual([]);
  });
});
