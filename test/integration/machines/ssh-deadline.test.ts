/** Every SSH connection has a deadline and can be stopped: a server that accepts and never answers is ended by both. */
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Ssh2Connector } from '../../../src/machines/ssh2-connector.js';
import { SshError } from '../../../src/core/ports/machines.js';

const sockets: Socket[] = [];
const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

/** Accepts connections and never says a word. */
async function hungServer(): Promise<number> {
  const server = createServer((socket) => sockets.push(socket));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

const request = (port: number, timeoutMs: number, signal?: AbortSignal) => ({
  target: { host: '127.0.0.1', port, user: 'nobody' },
  credential: { password: 'never-sent' },
  timeoutMs,
  signal,
  acceptHostKey: () => Promise.resolve(true),
});

describe('SSH deadlines', () => {
  it('a hung server is ended by the deadline', async () => {
    const port = await hungServer();
    const started = Date.now();
    const err = await new Ssh2Connector().connect(request(port, 700)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SshError);
    expect((err as SshError).failure).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("the turn's signal stops a connection in progress", async () => {
    const port = await hungServer();
    const controller = new AbortController();
    const pending = new Ssh2Connector().connect(request(port, 60_000, controller.signal)).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    const err = await pending;
    expect((err as SshError).failure).toBe('cancelled');
  });

  it('nothing listening is "unreachable", not a crash', async () => {
    const port = await hungServer();
    await new Promise<void>((r) => servers.pop()?.close(() => r()));
    const err = await new Ssh2Connector().connect(request(port, 5000)).catch((e: unknown) => e);
    expect((err as SshError).failure).toBe('unreachable');
  });
});
