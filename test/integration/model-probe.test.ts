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
});
