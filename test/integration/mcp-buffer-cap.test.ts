/**
 * A server whose tool list is over the MCP SDK's 10 MB cap on one message: the failure names
 * the server and the cap, not just "Connection closed".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { McpConnection } from '../../src/mcp/client/connection.js';
import { FixedClock } from '../support/fakes.js';
import { stdioEntry } from '../support/mcp-servers.js';

const SERVER = join(import.meta.dirname, '..', 'support', 'huge-tools-mcp-server.ts');

describe('an MCP server past the buffer cap', () => {
  it('fails naming the server and the 10 MB cap', async () => {
    const connection = new McpConnection(stdioEntry('hoarder', '--import', ['tsx', SERVER]), {
      clock: new FixedClock(),
      logger: silentLogger,
      version: 'test',
      callTimeoutMs: 20_000,
      startTimeoutMs: 30_000,
    });
    try {
      const failure = await connection.listTools().then(
        () => new Error('listed'),
        (error: unknown) => error as Error,
      );
      expect(failure.message).toMatch(/^hoarder could not start: .*larger than the 10 MB cap on one message from an MCP server/);
      expect(connection.status()).toMatchObject({ state: 'failed', error: expect.stringContaining('10 MB cap') as string });
    } finally {
      await connection.close();
    }
  }, 60_000);
});
