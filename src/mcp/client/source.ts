/**
 * The configured MCP servers as the core's tool source. Nothing starts until the model requests
 * a server's category; what each server's tools are called and say is remembered in
 * `data/mcp-tools.json`, so the pre-suggestion pass knows them on the next run without starting
 * anything. Status lines for /help, the web settings and the doctor.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolGroup, ToolSource, ToolUser } from '../../core/turn/tool-source.js';
import type { SourceCategory, Tool } from '../../core/tools/tool.js';
import type { McpConfigFile } from './config.js';
import { McpConnection, type ConnectionOptions, type ServerStatus } from './connection.js';
import { categoryOf, toCharlieTool } from './tools.js';

const STOP = new Set(
  'the and for with from that this into your you are was were will have has not but all any can its out use used uses using when what which who how get set one two than then them they their there these those also only more most some such each other about over under after before while file files tool tools given return returns'.split(
    ' ',
  ),
);

const cacheSchema = z.record(z.string(), z.object({ tools: z.array(z.object({ name: z.string(), description: z.string().default('') })) }));
type ToolCache = z.infer<typeof cacheSchema>;

export interface McpSourceOptions extends ConnectionOptions {
  /** Where learnt tool names and descriptions are kept (derived, disposable); absent: not kept. */
  cacheFile?: string;
}

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4 && !STOP.has(w));
}

export class McpToolSource implements ToolSource {
  private readonly connections: Map<SourceCategory, McpConnection>;
  private readonly cache: ToolCache;

  constructor(
    private readonly config: McpConfigFile,
    private readonly o: McpSourceOptions,
  ) {
    this.connections = new Map(config.servers.map((entry) => [categoryOf(entry.name), new McpConnection(entry, o)]));
    this.cache = this.readCache();
  }

  groups(user: ToolUser): ToolGroup[] {
    return [...this.connections.entries()]
      .filter(([, c]) => user.owner || c.entry.config.members === 'all' || (user.id !== undefined && c.entry.config.members.includes(user.id)))
      .map(([category, c]) => {
        const { name, config, locality } = c.entry;
        const known = this.cache[name]?.tools ?? [];
        const about =
          config.description ??
          (known.length
            ? `${known.length} tools: ${known
                .slice(0, 8)
                .map((t) => t.name)
                .join(', ')}${known.length > 8 ? ', …' : ''}`
            : 'an MCP tool server');
        const words = [...new Set([...wordsOf(config.description ?? ''), ...known.flatMap((t) => wordsOf(t.description))])];
        return { category, description: `${about}${locality === 'hosted' ? '; hosted: it never sees sensitive memory' : ''}`, names: [name, ...known.map((t) => t.name)], words };
      });
  }

  async load(category: SourceCategory, signal?: AbortSignal): Promise<Tool[]> {
    const connection = this.connections.get(category);
    if (!connection) throw new Error(`no tool server ${category}`);
    const tools = await connection.listTools(signal);
    this.learn(connection.entry.name, tools);
    return tools.map((t) => toCharlieTool(connection, t));
  }

  /** One entry per configured server (not started ones included), then the config's problems. */
  status(): ServerStatus[] {
    return [...this.connections.values()].map((c) => c.status());
  }

  get problems(): readonly string[] {
    return this.config.problems;
  }

  /** Starts every server and lists its tools (the doctor's check): status afterwards. */
  async probe(signal?: AbortSignal): Promise<ServerStatus[]> {
    await Promise.all([...this.connections.keys()].map((category) => this.load(category, signal).catch(() => [])));
    return this.status();
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }

  private learn(server: string, tools: McpTool[]): void {
    const entry = { tools: tools.map((t) => ({ name: t.name, description: (t.description ?? '').slice(0, 500) })) };
    if (JSON.stringify(this.cache[server]) === JSON.stringify(entry)) return;
    this.cache[server] = entry;
    if (!this.o.cacheFile) return;
    try {
      mkdirSync(dirname(this.o.cacheFile), { recursive: true });
      writeFileSync(this.o.cacheFile, JSON.stringify(this.cache, null, 1));
    } catch (error) {
      this.o.logger.warn({ err: error }, 'MCP tool cache not written');
    }
  }

  private readCache(): ToolCache {
    if (!this.o.cacheFile) return {};
    try {
      const parsed = cacheSchema.safeParse(JSON.parse(readFileSync(this.o.cacheFile, 'utf8')));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }
}

/** One line per server: `filesystem (local, stdio): 14 tools` or `web (hosted, http): failed — …`. */
export function statusLine(s: ServerStatus): string {
  const head = `${s.name} (${s.locality}, ${s.transport})`;
  if (s.state === 'failed') return `${head}: failed — ${s.error ?? 'unknown error'}`;
  if (s.state === 'not started') return `${head}: not started yet${s.tools !== undefined ? ` (${s.tools} tools)` : ''}`;
  return `${head}: ${s.state}${s.tools !== undefined ? `, ${s.tools} tools` : ''}${s.restarts ? `, restarted ${s.restarts}×` : ''}`;
}
