/**
 * Charlie's memory as an MCP server over stdio, for Claude Desktop, Claude Code, Cursor…:
 *   npm run --silent mcp [-- --project NAME] [--client NAME]
 * (`--silent` keeps npm's banner off stdout, which carries the protocol.) Logs go to
 * data/logs/charlie.log. The client counts as hosted unless MCP_SERVER_LOCALITY=local.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../src/config.js';
import { dataFiles } from '../src/data-files.js';
import { createLogger } from '../src/logging.js';
import { buildApp } from '../src/main.js';
import { memoryServerOptions } from '../src/app/web-door.js';
import { createMemoryServer } from '../src/mcp/server/memory-server.js';

const { values } = parseArgs({ options: { project: { type: 'string', short: 'p' }, client: { type: 'string', default: 'stdio-client' } } });
const loaded = loadConfig();
// another Charlie may be running on the same folders: this one only reads and files candidates
const config = { ...loaded, WATCH_PROJECTS: false, REFLECT_ENABLED: false, ...(values.project ? { MCP_SERVER_PROJECT: values.project } : {}) };
const logger = createLogger(config.LOG_LEVEL, dataFiles(config.dataDir).log);
const app = await buildApp(config, logger.child({ component: 'mcp-server' }));
const server = createMemoryServer(memoryServerOptions(config, app, values.client));
const transport = new StdioServerTransport();
let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await server.close().catch(() => {});
  await app.close();
  process.exit(0);
};
transport.onclose = () => void stop();
process.stdin.once('end', () => void stop());
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
await server.connect(transport);
logger.info({ project: config.MCP_SERVER_PROJECT, locality: config.MCP_SERVER_LOCALITY }, 'MCP memory server on stdio');
