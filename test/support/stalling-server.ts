/**
 * Local HTTP servers that may never finish answering (a stalled CDN, a download that stops
 * mid-body), closed after each test. `handle` returns true when it kept the response open on
 * purpose; those are destroyed at the end of the test so nothing waits on them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** Call at the top of a test file; each server started is closed after its test. Returns its base URL. */
export function stallingServers(): (handle: (req: IncomingMessage, res: ServerResponse) => boolean) => Promise<string> {
  const open: { server: Server; stalled: ServerResponse[] }[] = [];
  afterEach(async () => {
    for (const { server, stalled } of open.splice(0)) {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return async (handle) => {
    const stalled: ServerResponse[] = [];
    const server = createServer((req, res) => {
      if (handle(req, res)) stalled.push(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ server, stalled });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
}
