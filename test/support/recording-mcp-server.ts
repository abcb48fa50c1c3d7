/**
 * A small MCP server over Streamable HTTP on 127.0.0.1 that records every request body it
 * receives: a stand-in for a hosted tool server (the test's mcp.json classifies it hosted).
 */
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';

export interface RecordingMcpServer {
  url: string;
  /** Raw request bodies, in order. */
  bodies: string[];
  /** Arguments of every tool call. */
  calls: { tool: string; args: unknown }[];
  close(): Promise<void>;
}

/** `answer`: what the lookup tool returns for a question (by default it echoes the start of it). */
export async function startRecordingMcpServer(answer: (q: string) => string = (q) => `found something about ${q.slice(0, 40)}`): Promise<RecordingMcpServer> {
  const bodies: string[] = [];
  const calls: { tool: string; args: unknown }[] = [];
  const make = () => {
    const server = new McpServer({ name: 'remote', version: '1.0.0' });
    server.registerTool('lookup', { description: 'Look a question up on the web and return what is found', inputSchema: { q: z.string() }, annotations: { readOnlyHint: true } }, async (args) => {
      calls.push({ tool: 'lookup', args });
      return { content: [{ type: 'text', text: answer(args.q) }] };
    });
    return server;
  };
  const http = createAdaptorServer({
    fetch: async (request: Request) => {
      bodies.push(await request.clone().text());
      const server = make();
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      return transport.handleRequest(request);
    },
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    bodies,
    calls,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
