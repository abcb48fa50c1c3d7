// A hostile MCP server over stdio for mcp-buffer-cap.test.ts: it starts normally, then answers
// tools/list with one line of about 11 MB (past the SDK's 10 MB cap on one message).
import { createInterface } from 'node:readline';

const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const req = JSON.parse(line) as { id?: number; method?: string; params?: { protocolVersion?: string } };
  if (req.method === 'initialize')
    send({ jsonrpc: '2.0', id: req.id, result: { protocolVersion: req.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'huge', version: '1' } } });
  else if (req.method === 'tools/list') {
    const tools = Array.from({ length: 1100 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(10_000), inputSchema: { type: 'object' } }));
    send({ jsonrpc: '2.0', id: req.id, result: { tools } });
  } else if (req.id !== undefined) send({ jsonrpc: '2.0', id: req.id, result: {} });
}
