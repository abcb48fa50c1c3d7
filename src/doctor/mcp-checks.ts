/**
 * MCP tool servers: one line per configured server, started here and asked for its tools
 * (`filesystem (local, stdio): 14 tools`), or its error; one line per problem in mcp.json.
 */
import type { Config } from '../config.js';
import { silentLogger, systemClock } from '../core/ports/index.js';
import { loadMcpConfig } from '../mcp/client/config.js';
import { mcpConfigPath } from '../mcp/client/create.js';
import { McpToolSource } from '../mcp/client/source.js';
import { categoryOf } from '../mcp/client/tools.js';
import { charlieVersion } from '../version.js';
import { fail, ok, skip, type Check, type Part } from './check.js';
import { errorMessage } from '../util/error-text.js';

export function mcpPart(config: Config): Part {
  const path = mcpConfigPath(config);
  const file = loadMcpConfig(path);
  const source = new McpToolSource(file, {
    clock: systemClock,
    logger: silentLogger,
    version: charlieVersion(),
    callTimeoutMs: config.MCP_CALL_TIMEOUT_MS,
    startTimeoutMs: config.MCP_START_TIMEOUT_MS,
  });
  const checks: Check[] = file.servers.map((entry) => ({
    name: `MCP server ${entry.name}`,
    timeoutMs: config.MCP_START_TIMEOUT_MS + 2000,
    async run(signal) {
      const where = `${entry.name} (${entry.locality}, ${entry.config.transport})`;
      try {
        const tools = await source.load(categoryOf(entry.name), signal);
        const asks = tools.filter((t) => t.origin?.confirm).length;
        return ok(`${where}: ${tools.length} tools${asks ? `, ${asks} ask before they run` : ''}`);
      } catch (err) {
        // the message already names the cause in one line (connection.ts)
        return fail(`${where}: ${errorMessage(err)}`, `check its command/url in ${path} (docs/mcp.md); Charlie answers without it meanwhile`);
      }
    },
  }));
  for (const problem of file.problems) checks.push({ name: 'mcp.json', run: () => Promise.resolve(fail(problem, 'fix the entry (docs/mcp.md: the mcp.json format); the other servers still load')) });
  if (checks.length === 0) checks.push({ name: 'MCP servers', run: () => Promise.resolve(skip(`no servers in ${path}: Charlie uses its own tools only (docs/mcp.md)`)) });
  return { name: 'MCP tool servers', checks, parallel: true, dispose: () => source.close() };
}
