/**
 * The web front door over HTTP, through the real composition (buildApp + startWebApp) on a loopback
 * port with a scripted model server: auth, Host and Origin checks, the documented API, a streamed
 * turn, and inspector writes that change the Markdown on disk.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoFiles } from '../support/web-demo-data.js';
import { startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

let f: WebFixture;
const bearer = { authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  f = await startWebFixture({
    files: demoFiles(),
    // this test process plays the reverse proxy: X-Forwarded-For names the client
    env: { WEB_TRUSTED_PROXY: '127.0.0.1,::1' },
    script: (body: { messages: { role: string }[] }) =>
      body.messages[body.messages.length - 1]?.role === 'tool'
        ? { text: 'You are flying to Lisbon on 14 March.', chunkDelayMs: 5 }
        : { toolCalls: [{ name: 'search_memory', arguments: JSON.stringify({ query: 'Lisbon flight' }) }] },
  });
}, 60_000);
afterAll(async () => f.close());

const samplePath = (path: string) => path.replace(':project', 'trip').replace(':id', 'decision:0:0000000000').replace(':turn', 'nope');

describe('web API', () => {
  it('prints its address and a login link with the token at start', () => {
    expect(f.printed).toContain(`web app: ${f.web.url}`);
    expect(f.printed).toContain(`/login?token=${TOKEN}`);
  });

  it('answers health without a token, and 401 on every other API route without one', async () => {
    const health = await fetch(`${f.web.url}/api/health`);
    expect(health.status).toBe(200);
    // the version the footer shows is package.json's
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await health.json()).toMatchObject({ ok: true, version: pkg.version });
    const routes = f.web.apiRoutes.filter((r) => r.path !== '/api/health');
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) {
      const res = await fetch(`${f.web.url}${samplePath(r.path)}`, {
        method: r.method,
        headers: { origin: f.web.url, 'content-type': 'application/json' },
        body: r.method === 'GET' ? undefined : '{}',
      });
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
    }
    const forged = await fetch(`${f.web.url}/api/projects`, { headers: { cookie: 'charlie_session=eyJrIjoib3duZXIifQ.forged' } });
    expect(forged.status).toBe(401);
  });

  it('refuses a Host that is not this server (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(f.web.url);
      const req = request({ host: u.hostname, port: u.port, path: '/api/health', headers: { host: 'attacker.example:80' } }, (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it('exchanges the token for an HttpOnly SameSite=Strict cookie', async () => {
    const ok = await fetch(`${f.web.url}/login?token=${TOKEN}`, { redirect: 'manual' });
    expect(ok.status).toBe(303);
    const cookie = ok.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/charlie_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const me = await fetch(`${f.web.url}/api/me`, { headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(await me.json()).toMatchObject({ kind: 'owner' });
  });

  it('refuses state-changing requests from another origin', async () => {
    const res = await fetch(`${f.web.url}/api/projects`, { method: 'POST', headers: { ...bearer, origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{"name":"x"}' });
    expect(res.status).toBe(403);
    const noOrigin = await fetch(`${f.web.url}/api/logout`, { method: 'POST', headers: { cookie: 'charlie_session=x' } });
    expect(noOrigin.status).toBe(403);
    // what a browser says about a request from another site (or a sibling on the same tailnet)
    for (const site of ['cross-site', 'same-site']) {
      const r = await fetch(`${f.web.url}/login`, {
        method: 'POST',
        headers: { origin: f.web.url, 'sec-fetch-site': site, 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${TOKEN}`,
        redirect: 'manual',
      });
      expect(r.status, site).toBe(403);
    }
    // the opaque origin of a sandboxed frame or a data: page elsewhere
    const opaque = await fetch(`${f.web.url}/login`, { method: 'POST', headers: { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${TOKEN}`, redirect: 'manual' });
    expect(opaque.status).toBe(403);
  });

  it('accepts the sign-in form the way browsers post it (Origin null under a strict referrer policy)', async () => {
    const res = await fetch(`${f.web.url}/login`, {
      method: 'POST',
      headers: { origin: 'null', 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${TOKEN}`,
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    // and the app no longer strips its own Origin: other sites get no Referer, its own pages keep it
    expect((await fetch(`${f.web.url}/`)).headers.get('referrer-policy')).toBe('same-origin');
  });

  it('ends the session on the server at sign-out', async () => {
    const login = await fetch(`${f.web.url}/login?token=${TOKEN}`, { redirect: 'manual' });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect((await fetch(`${f.web.url}/api/me`, { headers: { cookie } })).status).toBe(200);
    const out = await fetch(`${f.web.url}/api/logout`, { method: 'POST', headers: { cookie, origin: f.web.url } });
    expect(out.status).toBe(200);
    // a copy of the old cookie (kept by someone who saw it) is refused
    expect((await fetch(`${f.web.url}/api/me`, { headers: { cookie } })).status).toBe(401);
  });

  it('compresses what it sends and lets hashed assets be cached for a year', async () => {
    const { request } = await import('node:http');
    // node's fetch would decode the body; a raw request shows the bytes on the wire
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }>((resolve, reject) => {
        const u = new URL(f.web.url);
        const req = request({ host: u.hostname, port: u.port, path, headers: { host: u.host, ...headers } }, (res) => {
          let bytes = 0;
          res.on('data', (b: Buffer) => (bytes += b.length));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
        });
        req.on('error', reject);
        req.end();
      });
    const index = await (await fetch(`${f.web.url}/`)).text();
    const script = /src="(\/assets\/app-[^"]+\.js)"/.exec(index)?.[1] ?? '';
    const style = /href="(\/assets\/app-[^"]+\.css)"/.exec(index)?.[1] ?? '';
    expect(script).not.toBe('');
    const plain = await raw(script, {});
    const br = await raw(script, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.bytes).toBeLessThan(plain.bytes / 2);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await raw(style, { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    // the page that names them is revalidated on every visit, so an update is seen at once
    expect((await raw('/', { 'accept-encoding': 'br' })).headers['cache-control']).toBe('no-cache');
    // JSON from the API is compressed on the fly
    const api = await raw('/api/projects/trip/records', { ...bearer, 'accept-encoding': 'gzip' });
    expect(api.status).toBe(200);
    expect(api.headers['content-encoding']).toBe('gzip');
    // an old hashed name is not found (not the index page, cached for a year)
    expect((await raw('/assets/app-OLD.js', {})).status).toBe(404);
  });

  it('sends a strict Content-Security-Policy', async () => {
    const res = await fetch(`${f.web.url}/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
  });

  it('lists projects and the private conversation', async () => {
    const data = (await (await fetch(`${f.web.url}/api/projects`, { headers: bearer })).json()) as { projects: { project: string }[]; private: { project: string } };
    expect(data.projects.map((p) => p.project)).toEqual(['home', 'trip']);
    expect(data.private.project).toBe('@me');
  });

  it('searches with recall: hits carry page, lines and score parts', async () => {
    const data = (await (await fetch(`${f.web.url}/api/projects/trip/search?q=${encodeURIComponent('tiles museum')}`, { headers: bearer })).json()) as {
      hits: { page: string; lineStart: number; parts: Record<string, number> }[];
    };
    expect(data.hits.length).toBeGreaterThan(0);
    const top = data.hits[0];
    expect(top?.page).toMatch(/Sarah-Chen|quotes/);
    expect(Object.keys(top?.parts ?? {}).sort()).toEqual(['keyword', 'recency', 'usage', 'vector']);
    expect(top?.lineStart).toBeGreaterThan(0);
  });

  it('streams a turn as server-sent events: tool call, tool result, text deltas, end', async () => {
    const res = await fetch(`${f.web.url}/api/projects/trip/messages`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'When do we fly?' }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe('accepted');
    expect(events).toContain('tool_call');
    expect(events.indexOf('tool_result')).toBeGreaterThan(events.indexOf('tool_call'));
    expect(events.filter((e) => e === 'text_delta').length).toBeGreaterThan(1);
    expect(events.slice(-3)).toEqual(['turn_end', 'outcome', 'end']);
    expect(text).toContain('Lisbon flight');
    const history = (await (await fetch(`${f.web.url}/api/projects/trip/messages`, { headers: bearer })).json()) as { messages: { role: string; text: string }[] };
    expect(history.messages.slice(-2).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(history.messages.at(-1)?.text).toBe('You are flying to Lisbon on 14 March.');
  });

  it('replays a finished turn to a reloaded page', async () => {
    const turn = (await (await fetch(`${f.web.url}/api/projects/trip/turn`, { headers: bearer })).json()) as { turn: { id: string; done: boolean } };
    expect(turn.turn.done).toBe(true);
    const replay = await (await fetch(`${f.web.url}/api/turns/${turn.turn.id}/events`, { headers: { ...bearer, 'last-event-id': '3' } })).text();
    expect(replay).not.toContain('event: accepted');
    expect(replay).toContain('event: outcome');
  });

  it('edits a decision (source becomes manual) and forgets one, on disk', async () => {
    const file = join(f.projectsDir, 'trip', 'decisions.md');
    const list = (await (await fetch(`${f.web.url}/api/projects/trip/records`, { headers: bearer })).json()) as { records: { id: string; kind: string; text: string }[] };
    const alfama = list.records.find((r) => r.kind === 'decision' && r.text.includes('Alfama'));
    expect(alfama).toBeDefined();
    const edit = await fetch(`${f.web.url}/api/projects/trip/records/${encodeURIComponent(alfama?.id ?? '')}`, {
      method: 'PATCH',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Book the flat in Graça instead' }),
    });
    expect(edit.status).toBe(200);
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('Book the flat in Graça instead');
    expect(after).not.toContain('Alfama');
    const stale = await fetch(`${f.web.url}/api/projects/trip/records/${encodeURIComponent(alfama?.id ?? '')}`, { method: 'DELETE', headers: bearer });
    expect(stale.status).toBe(409);
    const again = (await (await fetch(`${f.web.url}/api/projects/trip/records`, { headers: bearer })).json()) as { records: { id: string; kind: string; text: string; source: string }[] };
    const edited = again.records.find((r) => r.text.includes('Graça'));
    expect(edited?.source).toBe('manual');
    const forget = await fetch(`${f.web.url}/api/projects/trip/records/${encodeURIComponent(edited?.id ?? '')}`, { method: 'DELETE', headers: bearer });
    expect(forget.status).toBe(200);
    expect(readFileSync(file, 'utf8')).not.toContain('Graça');
    // forgotten as /memory forget does: a tombstone, never the text
    const tombstones = readFileSync(join(f.projectsDir, 'trip', 'forgotten.md'), 'utf8');
    expect(tombstones).toMatch(/· decision · decision of \d{4}-\d{2}-\d{2} · by \S+ · `fp:[0-9a-f]+`/);
    expect(tombstones).not.toContain('Graça');
    expect(readFileSync(file, 'utf8')).toContain('Fly to Lisbon');
  });

  it('lists the typed facts of entity pages with their fields', async () => {
    const list = (await (await fetch(`${f.web.url}/api/projects/trip/records`, { headers: bearer })).json()) as { records: Record<string, unknown>[] };
    const facts = list.records.filter((r) => r.kind === 'fact' && r.page === 'notes/People/Sarah-Chen.md');
    expect(facts.map((r) => r.text)).toEqual(['Wants to see the tiles museum in Lisbon.', 'Will send the flat options by Friday.']);
    // the first as Charlie writes it (block id = hash of the statement); the second by hand (manual, confidence 1)
    expect(facts[0]).toMatchObject({ category: 'preference', confidence: 0.85, date: '2026-11-03', source: 'chat', handEdited: false, page: 'notes/People/Sarah-Chen.md', status: 'active' });
    expect(facts[1]).toMatchObject({ category: 'commitment', due: '2026-11-07', date: '2026-11-04', source: 'manual', confidence: 1, handEdited: true, blockId: 'r-88d0' });
  });

  it('forgets a note page', async () => {
    const res = await fetch(`${f.web.url}/api/projects/trip/records/${encodeURIComponent('note:People/David-Kim.md')}`, { method: 'DELETE', headers: bearer });
    expect(res.status).toBe(200);
    expect(existsSync(join(f.projectsDir, 'trip', 'notes', 'People', 'David-Kim.md'))).toBe(false);
  });

  it('builds the graph from [[links]] in the pages, with labels and ghost nodes', async () => {
    const g = (await (await fetch(`${f.web.url}/api/projects/trip/graph`, { headers: bearer })).json()) as {
      nodes: { id: string; category: string; missing?: boolean }[];
      edges: { source: string; target: string; label?: string }[];
    };
    expect(g.edges).toContainEqual({ source: 'notes/People/Sarah-Chen.md', target: 'notes/Places/Lisbon.md', label: 'visiting' });
    expect(g.nodes.find((n) => n.id === 'missing:topics/budget')?.missing).toBe(true);
    expect(g.nodes.find((n) => n.id === 'notes/Places/Lisbon.md')?.category).toBe('Places');
  });

  it('refuses pages outside the project', async () => {
    const res = await fetch(`${f.web.url}/api/projects/trip/page?path=${encodeURIComponent('../home/project.md')}`, { headers: bearer });
    expect(res.status).toBe(400);
    const notMd = await fetch(`${f.web.url}/api/projects/trip/page?path=${encodeURIComponent('notes/x.txt')}`, { headers: bearer });
    expect(notMd.status).toBe(400);
  });

  it('gives a Discord user a single-use link into their own private memory', async () => {
    const link = f.web.loginLinkFor('123456789012345678', 'Sam');
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const me = (await (await fetch(`${f.web.url}/api/me`, { headers: { cookie } })).json()) as { kind: string; name: string };
    expect(me).toMatchObject({ kind: 'member', name: 'Sam' });
    f.app.privateStore.appendMessage('123456789012345678', { time: new Date().toISOString(), speaker: 'Sam', source: 'dm', text: 'my secret plan', role: 'user' });
    const mine = (await (await fetch(`${f.web.url}/api/projects/@me/messages`, { headers: { cookie } })).json()) as { messages: { text: string }[] };
    expect(mine.messages.map((m) => m.text)).toContain('my secret plan');
    const owners = (await (await fetch(`${f.web.url}/api/projects/@me/messages`, { headers: bearer })).json()) as { messages: { text: string }[] };
    expect(owners.messages.map((m) => m.text)).not.toContain('my secret plan');
    expect((await fetch(link, { redirect: 'manual' })).status).not.toBe(303);
  });

  it('shows the owner, and only the owner, which model does each job and where it runs', async () => {
    const res = await fetch(`${f.web.url}/api/settings`, { headers: bearer });
    const view = (await res.json()) as { items: { job: string; what: string; where: string; local: boolean }[]; doctor: string };
    expect(view.items.find((i) => i.job === 'Answers in chat')).toMatchObject({ what: 'fake-model', where: new URL(f.model.url).host, local: true });
    expect(view.items.map((i) => i.job)).toEqual(expect.arrayContaining(['Writes memory (distils, reviews, reflects)', 'Finds related memory (embeddings)', 'Understands speech', 'Speaks']));
    expect(view.items.find((i) => i.job === 'Speaks')).toMatchObject({ local: true });
    expect(view.doctor).toContain('fake-model');
    expect(JSON.stringify(view)).not.toContain(TOKEN);
    const link = await fetch(f.web.loginLinkFor('555', 'Kim'), { redirect: 'manual' });
    const cookie = (link.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect((await fetch(`${f.web.url}/api/settings`, { headers: { cookie } })).status).toBe(403);
  });

  it('rate-limits wrong tokens per client behind the proxy, never the right token', async () => {
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await fetch(`${f.web.url}/login?token=wrong-${i}`, { headers: from('100.64.0.7') })).status);
    const refused = statuses.indexOf(429);
    expect(refused).toBe(5);
    expect(statuses.slice(0, refused).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(refused).every((s) => s === 429)).toBe(true);
    // another client behind the same proxy is not affected
    expect((await fetch(`${f.web.url}/login?token=wrong-x`, { headers: from('100.64.0.8') })).status).toBe(401);
    // the right token still signs in from the blocked client, by form and by Bearer
    expect((await fetch(`${f.web.url}/login?token=${TOKEN}`, { headers: from('100.64.0.7'), redirect: 'manual' })).status).toBe(303);
    expect((await fetch(`${f.web.url}/api/me`, { headers: { ...bearer, ...from('100.64.0.7') } })).status).toBe(200);
  });

  it('rate-limits wrong Bearer tokens too', async () => {
    const headers = { authorization: 'Bearer not-the-token', 'x-forwarded-for': '100.64.0.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await fetch(`${f.web.url}/api/me`, { headers })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect((await fetch(`${f.web.url}/api/me`, { headers: { ...bearer, 'x-forwarded-for': '100.64.0.9' } })).status).toBe(200);
  });
});

describe('web app start', () => {
  it('warns and goes on when the port is taken', async () => {
    const { startWebFixture: again } = await import('../support/web-fixture.js');
    const port = new URL(f.web.url).port;
    await expect(again({ script: [], env: { WEB_PORT: port } })).rejects.toThrow(/port .* is taken/);
  });
});
