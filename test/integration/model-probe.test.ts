import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { probeModelServer } from '../../src/llm/probe.js';
import { fakeModelServers } from '../support/model-servers.js';

const startServer = fakeModelServers();

describe('probeModelServer', () => {
  it('lists the models of a running server', async () => {
    const server = await startServer([]);
    expect(await probeModelServer(server.url, undefined, 2000)).toEqual({ ok: true, models: ['fake-model'] });
  });

  it('says what to do when nothing listens', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    const result = await probeModelServer(`http://127.0.0.1:${port}/v1`, undefined, 2000);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain('set LLM_BASE_URL');
  });

  it('sends the key, and tells a refused key, a server without /models and an answer that is not JSON apart', async () => {
    const answers: { status: number; body: string }[] = [
      { status: 401, body: '{"error":"bad key"}' },
      { status: 404, body: 'not found' },
      { status: 200, body: '<html>not json</html>' },
    ];
    const seen: IncomingHttpHeaders[] = [];
    const server = createHttpServer((req, res) => {
      seen.push(req.headers);
      const next = answers.shift()!;
      res.writeHead(next.status, { 'content-type': 'text/plain' }).end(next.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      const refused = await probeModelServer(url, 'sk-test', 2000);
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.message).toContain('refused the key (401)');
      expect(seen[0]?.authorization).toBe('Bearer sk-test');
      expect(await probeModelServer(url, undefined, 2000)).toEqual({ ok: true, models: [] });
      expect(seen[1]?.authorization).toBeUndefined();
      expect(await probeModelServer(url, undefined, 2000)).toEqual({ ok: true, models: [] });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('gives up after its time limit on a server that never answers', async () => {
    const server = createHttpServer(() => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const result = await probeModelServer(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, undefined, 200);
      expect(result.ok).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
