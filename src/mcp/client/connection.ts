/**
 * One MCP server, through the official SDK's Client: started on first use, its tool list cached,
 * restarted after a crash with back-off (the first restart at once, then 1 s, 2 s, 4 s … up to
 * a minute; a server that stayed up a minute starts over). No timers: the back-off is a
 * "not before" time checked on the next use, against an injectable clock.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Clock, Logger } from '../../core/ports/index.js';
import type { McpServerEntry } from './config.js';
import { errorWithCause } from '../../util/error-text.js';

export type ServerState = 'not started' | 'starting' | 'running' | 'failed';

export interface ServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  locality: 'local' | 'hosted';
  state: ServerState;
  /** Tools the server listed (last known). */
  tools?: number;
  /** The last failure, one line. */
  error?: string;
  restarts: number;
}

export interface ConnectionOptions {
  clock: Clock;
  logger: Logger;
  version: string;
  /** A tool call gives up after this long in total, progress notifications or not (the deadline table's `mcp`; the turn's own deadline applies too). */
  callTimeoutMs: number;
  /** Starting a server (spawn + initialize + list tools) gives up after this long. */
  startTimeoutMs: number;
}

const BACKOFF_MAX_MS = 60_000;

/**
 * The error the transport reported before the connection closed, said for a person: the SDK's
 * stdio transport drops a message over its buffer cap (10 MB) and closes, and the request then
 * fails with only "Connection closed".
 */
function transportProblem(error: Error | undefined): string | undefined {
  if (!error) return undefined;
  const cap = /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message)?.[1];
  if (!cap) return error.message;
  const mb = Math.round((Number(cap) / 1024 / 1024) * 10) / 10;
  return `its reply (a tool list or a result) is larger than the ${mb} MB cap on one message from an MCP server, so the connection was closed (${error.message})`;
}

const STABLE_MS = 60_000;

export class McpConnection {
  private client: Client | null = null;
  private starting: Promise<Client> | null = null;
  private tools: McpTool[] | null = null;
  private state: ServerState = 'not started';
  private error: string | undefined;
  private crashes = 0;
  private restarts = 0;
  private upSince = 0;
  private notBefore = 0;
  private stderrTail = '';
  /** The first error the transport reported on the current connection (see transportProblem). */
  private transportError: Error | undefined;

  constructor(
    readonly entry: McpServerEntry,
    private readonly o: ConnectionOptions,
  ) {}

  status(): ServerStatus {
    const { name, config, locality } = this.entry;
    return {
      name,
      transport: config.transport,
      locality,
      state: this.state,
      ...(this.tools ? { tools: this.tools.length } : {}),
      ...(this.error ? { error: this.error } : {}),
      restarts: this.restarts,
    };
  }

  /** The server's tools, starting it if needed. */
  async listTools(signal?: AbortSignal): Promise<McpTool[]> {
    await this.connected(signal);
    return this.tools ?? [];
  }

  /**
   * Calls a tool. A crash in the middle fails this call (it may have run: never sent twice);
   * the next call starts the server again.
   */
  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    const client = await this.connected(signal);
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: this.o.callTimeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: this.o.callTimeoutMs,
      })) as CallToolResult;
    } catch (error) {
      const problem = transportProblem(this.transportError);
      throw problem ? new Error(`${this.entry.name}: ${tool} failed: ${problem}`, { cause: error }) : error;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.state = this.state === 'running' ? 'not started' : this.state;
    await client?.close().catch(() => {});
  }

  private connected(signal?: AbortSignal): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    const wait = this.notBefore - this.o.clock.now().getTime();
    if (wait > 0) return Promise.reject(new Error(`${this.entry.name} failed (${this.error ?? 'unknown error'}); next restart in ${Math.ceil(wait / 1000)} s`));
    this.starting ??= this.start(signal).finally(() => (this.starting = null));
    return this.starting;
  }

  private async start(signal?: AbortSignal): Promise<Client> {
    const { name } = this.entry;
    this.state = 'starting';
    // the SDK (and its JSON-schema validator, ~200 modules) loads when a server first starts, not with Charlie
    const [{ Client }, stdio, http] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
    const client = new Client({ name: 'charlie', version: this.o.version });
    this.transportError = undefined;
    client.onerror = (error) => (this.transportError ??= error);
    const transport = this.transport(stdio, http);
    const timeout = AbortSignal.timeout(this.o.startTimeoutMs);
    const bounded = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      await client.connect(transport, { signal: bounded, timeout: this.o.startTimeoutMs });
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined, { signal: bounded, timeout: this.o.startTimeoutMs });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && tools.length < 1000);
      this.tools = tools;
    } catch (error) {
      await client.close().catch(() => {});
      const problem = transportProblem(this.transportError);
      this.fail(problem ? `${problem}; then ${errorWithCause(error)}` : errorWithCause(error));
      throw new Error(`${name} could not start: ${this.error}`, { cause: error });
    }
    this.transportError = undefined;
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = null;
      const problem = transportProblem(this.transportError);
      this.fail(`the server stopped${problem ? `: ${problem}` : this.stderrTail ? ` (${this.stderrTail})` : ''}`);
    };
    this.client = client;
    this.state = 'running';
    this.error = undefined;
    this.upSince = this.o.clock.now().getTime();
    this.o.logger.info({ server: name, tools: this.tools.length }, 'MCP server started');
    return client;
  }

  private fail(message: string): void {
    const now = this.o.clock.now().getTime();
    if (this.upSince && now - this.upSince > STABLE_MS) this.crashes = 0;
    this.crashes++;
    this.restarts++;
    this.upSince = 0;
    this.state = 'failed';
    this.error = message.split('\n')[0]?.slice(0, 200) ?? message;
    // the first restart at once, then doubling from a second
    this.notBefore = this.crashes <= 1 ? now : now + Math.min(BACKOFF_MAX_MS, 1000 * 2 ** (this.crashes - 2));
    this.o.logger.warn({ server: this.entry.name, err: this.error, crashes: this.crashes }, 'MCP server failed');
  }

  private transport(
    { getDefaultEnvironment, StdioClientTransport }: typeof import('@modelcontextprotocol/sdk/client/stdio.js'),
    { StreamableHTTPClientTransport }: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ): StdioClientTransport | StreamableHTTPClientTransport {
    const { config } = this.entry;
    if (config.transport === 'http') return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      const lines = `${this.stderrTail}\n${chunk.toString('utf8')}`.split('\n').filter((l) => l.trim());
      this.stderrTail = (lines.at(-1) ?? '').slice(0, 200);
    });
    return transport;
  }
}
