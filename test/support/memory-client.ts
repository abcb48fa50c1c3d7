/**
 * Charlie's MCP server as a client sees it, in process (the SDK's in-memory transport): every
 * tool it lists called with each of its probe argument sets. What a call echoes of its own
 * arguments (a query, a path) is taken out of its output: the client said that itself.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AssistantApi } from '../../src/core/assistant-api.js';
import { createMemoryServer } from '../../src/mcp/server/memory-server.js';

export interface MemoryClientRun {
  /** The tools the server listed. */
  tools: string[];
  /** Each call's text, its own arguments taken out. */
  outputs: string[];
}

const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);

export async function callEveryMemoryTool(
  app: { assistant: Pick<AssistantApi, 'conversation' | 'memory' | 'projects'> },
  argsFor: Record<string, Record<string, unknown>[]>,
  locality: 'local' | 'hosted' = 'hosted',
): Promise<MemoryClientRun> {
  const server = createMemoryServer({ assistant: app.assistant, locality, defaultProject: 'general', version: 'test', clientName: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const outputs: string[] = [];
    for (const name of tools) {
      for (const args of argsFor[name] ?? []) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        let text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') + JSON.stringify(result.structuredContent ?? '');
        for (const s of strings(args).sort((a, b) => b.length - a.length)) text = text.split(s).join('');
        outputs.push(text);
      }
    }
    return { tools, outputs };
  } finally {
    await client.close();
    await server.close();
  }
}
