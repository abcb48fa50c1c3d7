/** Fake model servers for one test file: each one started is closed after its test. */
import { afterEach } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type FakeModelServerOptions, type Script } from './fake-model-server.js';

export function fakeModelServers(): (script: Script, options?: FakeModelServerOptions) => Promise<FakeModelServer> {
  const open: FakeModelServer[] = [];
  afterEach(async () => {
    // a test may have closed its server already
    for (const server of open.splice(0)) await server.close().catch(() => undefined);
  });
  return async (script, options) => {
    const server = await startFakeModelServer(script, options);
    open.push(server);
    return server;
  };
}
