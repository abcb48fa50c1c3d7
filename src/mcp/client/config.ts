/**
 * `data/mcp.json` (or MCP_CONFIG): MCP servers in Claude Desktop's `mcpServers` format, plus a
 * few Charlie settings per server (locality, alwaysAllow, members). Validated with zod; every
 * problem is one line naming the server and the field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { errorMessage } from '../../util/error-text.js';

const name = z.string().regex(/^[A-Za-z0-9][\w.-]{0,39}$/, 'server names are letters, digits, . _ - (at most 40)');

const charlie = {
  /** Overrides the locality read from the transport (a process or a loopback URL is local). */
  locality: z.enum(['local', 'hosted']).optional(),
  /** Tools that run without asking, even when not annotated read-only. */
  alwaysAllow: z.array(z.string().min(1)).default([]),
  /** Who besides the owner may use this server: Discord user ids, or "all". */
  members: z.union([z.literal('all'), z.array(z.string().regex(/^\d{5,25}$/, 'members are Discord user ids'))]).default([]),
  /** One line for the model about what the server is for (otherwise its tools describe it). */
  description: z.string().max(300).optional(),
  disabled: z.boolean().default(false),
};

const stdioServer = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1, 'command is empty'),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    ...charlie,
  })
  .strict();

const httpServer = z
  .object({
    type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
    url: z.url({ protocol: /^https?$/, error: 'url must be an http:// or https:// address' }),
    headers: z.record(z.string(), z.string()).default({}),
    ...charlie,
  })
  .strict();

export type McpServerConfig = (z.infer<typeof stdioServer> & { transport: 'stdio' }) | (z.infer<typeof httpServer> & { transport: 'http' });

export interface McpServerEntry {
  name: string;
  config: McpServerConfig;
  locality: 'local' | 'hosted';
}

export interface McpConfigFile {
  servers: McpServerEntry[];
  /** One line per problem (`mcp.json: servers.x.url: …`); a broken entry is left out, the rest load. */
  problems: string[];
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A process on this machine or a loopback address is local; anything else is hosted, unless the config says. */
export function localityOf(config: McpServerConfig): 'local' | 'hosted' {
  if (config.locality) return config.locality;
  if (config.transport === 'stdio') return 'local';
  const host = new URL(config.url).hostname;
  return LOOPBACK.has(host) || host.startsWith('127.') ? 'local' : 'hosted';
}

function issueLines(where: string, error: z.ZodError): string[] {
  return error.issues.map((i) => `${where}${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`);
}

/** Parses the file's JSON text; `label` names it in problems. */
export function parseMcpConfig(text: string, label = 'mcp.json'): McpConfigFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { servers: [], problems: [`${label}: not valid JSON (${errorMessage(error)})`] };
  }
  const top = z.object({ mcpServers: z.record(z.string(), z.unknown()) }).safeParse(json);
  if (!top.success) return { servers: [], problems: [`${label}: expected { "mcpServers": { "<name>": { "command": … } | { "url": … } } }`] };
  const servers: McpServerEntry[] = [];
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(top.data.mcpServers)) {
    const where = `${label}: mcpServers.${key}`;
    const named = name.safeParse(key);
    if (!named.success) {
      problems.push(`${where}: ${named.error.issues[0]?.message ?? 'bad name'}`);
      continue;
    }
    const isHttp = typeof raw === 'object' && raw !== null && 'url' in raw;
    if (typeof raw === 'object' && raw !== null && 'type' in raw && raw.type === 'sse') {
      problems.push(`${where}: the old SSE transport is not supported; use the server's Streamable HTTP address`);
      continue;
    }
    const parsed = isHttp ? httpServer.safeParse(raw) : stdioServer.safeParse(raw);
    if (!parsed.success) {
      problems.push(...issueLines(where, parsed.error));
      continue;
    }
    if (parsed.data.disabled) continue;
    const config = (isHttp ? { ...parsed.data, transport: 'http' } : { ...parsed.data, transport: 'stdio' }) as McpServerConfig;
    servers.push({ name: key, config, locality: localityOf(config) });
  }
  return { servers, problems };
}

/** Reads the config file; a missing file means no servers (and no problem). */
export function loadMcpConfig(path: string): McpConfigFile {
  if (!existsSync(path)) return { servers: [], problems: [] };
  try {
    return parseMcpConfig(readFileSync(path, 'utf8'), path);
  } catch (error) {
    return { servers: [], problems: [`${path}: ${errorMessage(error)}`] };
  }
}
