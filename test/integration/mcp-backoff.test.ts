/** Restart back-off of an MCP server that keeps failing, on a fake clock (no waiting). */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { McpConnection } from '../../src/mcp/client/connection.js';
import { FixedClock } from '../support/fakes.js';

describe('MCP server restart back-off', () => {
  it('the first restart at once, then 1 s, 2 s, 4 s before the next try; the status says why', async () => {
    const clock = new FixedClock();
    const entry = {
      name: 'ghost',
      locality: 'local' as const,
      config: { transport: 'stdio' as const, command: '/nonexistent/mcp-server', args: [], env: {}, alwaysAllow: [], members: [], disabled: false },
    };
    const c = new McpConnection(entry, { clock, logger: silentLogger, version: 't', callTimeoutMs: 5000, startTimeoutMs: 5000 });
    expect(c.status()).toMatchObject({ state: 'not started', restarts: 0 });
    await expect(c.listTools()).rejects.toThrow(/ghost could not start/);
    expect(c.status()).toMatchObject({ state: 'failed', restarts: 1 });
    // second try at once: allowed (the first restart is immediate), fails again
    await expect(c.listTools()).rejects.toThrow(/could not start/);
    // now 1 s of back-off: refused without spawning
    await expect(c.listTools()).rejects.toThrow(/next restart in 1 s/);
    expect(c.status().restarts).toBe(2);
    clock.advance(1000);
    await expect(c.listTools()).rejects.toThrow(/could not start/);
    await expect(c.listTools()).rejects.toThrow(/next restart in 2 s/);
    clock.advance(2000);
    await expect(c.listTools()).rejects.toThrow(/could not start/);
    await expect(c.listTools()).rejects.toThrow(/next restart in 4 s/);
    expect(c.status()).toMatchObject({ state: 'failed', restarts: 4 });
    expect(c.status().error).toMatch(/ENOENT|spawn/);
  });
});
