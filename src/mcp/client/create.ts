/** Builds the MCP tool source from the settings (main.ts and the doctor share it). */
import { resolve } from 'node:path';
import { type Config } from '../../config.js';
import { dataFiles } from '../../data-files.js';
import type { Clock, Logger } from '../../core/ports/index.js';
import { charlieVersion } from '../../version.js';
import { loadMcpConfig } from './config.js';
import { McpToolSource } from './source.js';

export function mcpConfigPath(config: Pick<Config, 'MCP_CONFIG' | 'dataDir'>): string {
  return config.MCP_CONFIG ? resolve(config.MCP_CONFIG) : dataFiles(config.dataDir).mcp;
}

export function createMcpSource(config: Config, logger: Logger, clock: Clock): McpToolSource {
  const file = loadMcpConfig(mcpConfigPath(config));
  for (const problem of file.problems) logger.warn(problem);
  return new McpToolSource(file, {
    clock,
    logger,
    version: charlieVersion(),
    callTimeoutMs: config.MCP_CALL_TIMEOUT_MS,
    startTimeoutMs: config.MCP_START_TIMEOUT_MS,
    cacheFile: dataFiles(config.dataDir).mcpTools,
  });
}
