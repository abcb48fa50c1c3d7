import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { dataFiles } from '../../src/data-files.js';
import { runParts } from '../../src/doctor/check.js';
import { webPart } from '../../src/doctor/web-check.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function listen(handler: (path: string) => { status: number; body: string }): Promise<number> {
  const server: Server = createServer((req, res) => {
    const { status, body } = handler(req.url ?? '');
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanup.push(() => new Promise<void>((done) => server.close(() => done())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A loopback port nothing listens on (the default 3210 may be in use on a developer's machine). */
async function freePort(): Promise<number> {
  const port = await listen(() => ({ status: 404, body: '{}' }));
  await cleanup.pop()?.();
  return port;
}

async function check(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-doctor-web-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const config = loadConfig({ DATA_DIR: join(dir, 'data'), ...env }, dir);
  const results = await runParts([webPart(config)]);
  return { port: results.find((r) => r.name === 'web app: port'), token: results.find((r) => r.name === 'web app: sign-in token'), config };
}

describe('doctor: the web app', () => {
  it('a port held by another program fails with the setting to change', async () => {
    const port = await listen(() => ({ status: 404, body: '{}' }));
    const { port: verdict } = await check({ WEB_PORT: String(port) });
    expect(verdict).toMatchObject({ status: 'fail', detail: `127.0.0.1:${String(port)} is taken by another program: the web app would not start` });
    expect(verdict?.fix).toMatch(/^set WEB_PORT/);
  });

  it('a port where Charlie already answers is fine', async () => {
    const port = await listen((path) => (path === '/api/health' ? { status: 200, body: '{"ok":true,"name":"Charlie"}' } : { status: 404, body: '{}' }));
    const { port: verdict } = await check({ WEB_PORT: String(port) });
    expect(verdict).toMatchObject({ status: 'ok', detail: `Charlie's web app already answers at 127.0.0.1:${String(port)}` });
  });

  it('says where the sign-in token is: WEB_TOKEN, the file, or not made yet; WEB_PORT=0 skips both', async () => {
    const port = String(await freePort());
    expect((await check({ WEB_PORT: port, WEB_TOKEN: 'a-token-of-twenty-chars' })).token?.detail).toBe('the owner token is WEB_TOKEN (from .env or the environment)');
    const none = await check({ WEB_PORT: port });
    expect(none.port?.status).toBe('ok');
    expect(none.token?.detail).toMatch(/^no token yet: npm start creates one in .*owner-token/);
    const file = dataFiles(none.config.dataDir).webToken;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'secret');
    expect((await runParts([webPart(none.config)])).find((r) => r.name === 'web app: sign-in token')?.detail).toBe(`the owner token is in ${file} (npm start prints a sign-in link)`);
    const off = await check({ WEB_PORT: '0' });
    expect([off.port?.status, off.token?.status]).toEqual(['skip', 'skip']);
  });
});
