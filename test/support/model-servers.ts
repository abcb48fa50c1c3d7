/** Fake model servers for one test file: each one started is closed after its test. */
import { afterEach } from 'vitest';
import type { Locality } from '../../src/core/ports/index.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/llm/openai-chat.js';
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

/** Charlie's OpenAI-compatible client as end-to-end tests use it: local, no retries, short timeouts. */
export function testChatModel<L extends Locality = 'local'>(baseUrl: string, options: Partial<OpenAIChatModelOptions<L>> = {}): OpenAIChatModel<L> {
  return new OpenAIChatModel<L>({
    baseUrl,
    model: 'test',
    locality: 'local' as L,
    acceptsImages: false,
    timeoutMs: 3000,
    connectTimeoutMs: 500,
    maxRetries: 0,
    temperature: 0,
    maxTokens: 1024,
    ...options,
  });
}
