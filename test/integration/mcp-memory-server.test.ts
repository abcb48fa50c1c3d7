/**
 * Charlie's memory as an MCP server, answered by the SDK's own Client: over stdio (`npm run mcp`
 * as a child process) and over Streamable HTTP (/api/mcp on the web app). Search returns
 * page-and-line hits; propose_fact files a candidate and writes no page; a hosted client
 * (the default) never sees a sensitive page; a request without the token is refused.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { projectFile, startWebFixture, TOKEN, writeProjectFiles, type WebFixture } from '../support/web-fixture.js';
import { readTree, tempDirs } from '../support/temp-dir.js';
import { HOSTED_PROPOSAL } from '../../src/mcp/server/memory-server.js';

const CANARY = 'CANARY-MCP-5d1e vault code 9931';
const files = {
  'general/project.md': projectFile('general', 'terminal:general'),
  'general/notes/People/Alice.md': `---\nschema: 1\ntitle: Alice\nsensitivity: personal\n---\n\n### 2026-11-20\n\nAlice likes climbing at the Boulderhaus.\n\n## Related\n- [[People/Bob]] (friend)\n`,
  // the person's message that the proposed fact repeats (a fact nobody said is refused)
  'general/log/2026-11-20.md': `# 2026-11-20\n\n### 10:00:00 · Alice · [↗](terminal:10)\n\nI am learning to lead climb, Alice here.\n`,
  'general/notes/People/Bob.md': `---\nschema: 1\ntitle: Bob\nsensitivity: sensitive\n---\n\n### 2026-11-20\n\nBob keeps the ${CANARY} for climbing.\n\n## Related\n- [[People/Alice]] (friend)\n`,
};

const tempDir = tempDirs('charlie-mcp-server-');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const text = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** The same checks over either transport. */
async function exercise(client: Client, projectsDir: string, dataDir: string): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(['follow_links', 'list_machines', 'list_pages', 'propose_fact', 'read_page', 'records', 'search', 'why']);
  expect(tools.find((t) => t.name === 'search')?.annotations?.readOnlyHint).toBe(true);
  expect(tools.find((t) => t.name === 'propose_fact')?.annotations?.readOnlyHint).toBe(false);

  const search = text(await client.callTool({ name: 'search', arguments: { query: 'climbing Boulderhaus' } }));
  expect(search).toMatch(/notes\/People\/Alice\.md:\d+-\d+/);
  expect(search).toContain('Boulderhaus');

  const pages = text(await client.callTool({ name: 'list_pages', arguments: {} }));
  expect(pages).toContain('People/Alice.md — Alice');
  expect(text(await client.callTool({ name: 'read_page', arguments: { path: 'People/Alice.md' } }))).toContain('likes climbing');
  // a link to a sensitive page names it and its label can say why: left out for a hosted client, like the page itself
  const links = text(await client.callTool({ name: 'follow_links', arguments: { page: 'People/Alice' } }));
  expect(links).toContain('People/Alice.md — Alice');
  expect(links).not.toContain('Bob');
  expect(links).not.toContain('friend');
  const missing = (await client.callTool({ name: 'read_page', arguments: { path: 'People/Nobody.md' } })) as CallToolResult;
  expect(missing.isError).toBe(true);

  // hosted by default: the sensitive page is never shown, whichever tool asks
  const bob = text(await client.callTool({ name: 'read_page', arguments: { path: 'People/Bob.md' } }));
  expect(bob).toContain('marked sensitive');
  const all = [
    search,
    pages,
    bob,
    text(await client.callTool({ name: 'search', arguments: { query: 'vault code Bob' } })),
    text(await client.callTool({ name: 'why', arguments: { query: 'what does Bob keep' } })),
  ];
  expect(all.join('\n')).not.toContain('CANARY-MCP');

  const before = readTree(projectsDir);
  const proposed = (await client.callTool({ name: 'propose_fact', arguments: { entity: 'Alice', fact: 'Alice is learning to lead climb.' } })) as CallToolResult;
  expect(proposed.isError).toBeFalsy();
  expect(text(proposed)).toBe(HOSTED_PROPOSAL);
  expect(readTree(projectsDir)).toEqual(before);
  const waiting = [...readTree(join(dataDir, 'write-requests')).values()].join('\n');
  expect(waiting).toContain('Alice is learning to lead climb.');
  expect(waiting).toContain('"untrusted": true');
  // what no person said is refused, and nothing is filed; a hosted client hears the same words either way,
  // so it cannot confirm a guessed sentence of a private message (the outside sweep's oracle)
  const mallory = (await client.callTool({ name: 'propose_fact', arguments: { entity: 'Mallory', fact: 'Mallory is the owner' } })) as CallToolResult;
  expect(mallory.isError).toBeFalsy();
  expect(text(mallory)).toBe(text(proposed));
  expect([...readTree(join(dataDir, 'write-requests')).values()].join('\n')).not.toContain('Mallory');
  expect(readTree(projectsDir)).toEqual(before);
}

describe('Charlie as an MCP server', () => {
  it('over stdio (npm run mcp, from the start-up build), answered by the SDK client', async () => {
    const root = tempDir();
    const projectsDir = join(root, 'projects');
    const dataDir = join(root, 'data');
    writeProjectFiles(projectsDir, files);
    const transport = new StdioClientTransport({
      command: process.execPath,
      // what `npm run mcp` runs: the build, whose zod is bundled while the SDK reads the schemas with its own copy
      args: ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, '..', '..', 'bin', 'run.mjs'), 'mcp'],
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...getDefaultEnvironment(), PROJECTS_DIR: projectsDir, DATA_DIR: dataDir, EMBEDDER: 'builtin', LLM_BASE_URL: 'http://127.0.0.1:9/v1', LOG_LEVEL: 'silent', TTS: 'local' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    closers.push(() => client.close());
    await exercise(client, projectsDir, dataDir);
    // the tools' zod schemas, as the SDK's own zod reads them: JSON Schema with the descriptions, and arguments checked
    const search = (await client.listTools()).tools.find((t) => t.name === 'search');
    expect(search?.inputSchema.required).toEqual(['query']);
    expect(search?.inputSchema.properties?.project).toMatchObject({ type: 'string', maxLength: 100, description: expect.stringContaining('project folder name') });
    const invalid = (await client.callTool({ name: 'search', arguments: { query: '' } })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/query/);
    expect(text(invalid)).toMatch(/>=1 characters/);
  }, 90_000);

  describe('over Streamable HTTP on the web app', () => {
    let fixture: WebFixture;
    const start = async () => {
      fixture = await startWebFixture({ script: [{ text: 'unused' }], files });
      closers.push(() => fixture.close());
      return fixture;
    };

    it('answers the SDK client that sends the owner token', async () => {
      const f = await start();
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${f.web.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
      closers.push(() => client.close());
      await exercise(client, f.projectsDir, f.dataDir);
    }, 60_000);

    it('refuses a request without the token, with a wrong token, and from another site', async () => {
      const f = await start();
      const client = new Client({ name: 'test', version: '1' });
      // no token at all: refused before any route (a POST without Origin needs a Bearer token)
      await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${f.web.url}/api/mcp`)))).rejects.toThrow(/Bearer token/);
      const wrong = new Client({ name: 'test', version: '1' });
      await expect(wrong.connect(new StreamableHTTPClientTransport(new URL(`${f.web.url}/api/mcp`), { requestInit: { headers: { Authorization: 'Bearer not-the-token-000000' } } }))).rejects.toThrow(
        /401|not signed in|not the owner token/,
      );
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` };
      const crossSite = await fetch(`${f.web.url}/api/mcp`, { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body: JSON.stringify(init) });
      expect(crossSite.status).toBe(403);
      // a DNS-rebinding page names its own host (fetch may not set Host: a raw request does)
      const rebound = await new Promise<number>((resolve, reject) => {
        const req = request(`${f.web.url}/api/mcp`, { method: 'POST', headers: { ...headers, host: 'evil.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(JSON.stringify(init));
      });
      expect(rebound).toBe(421);
      const ok = await fetch(`${f.web.url}/api/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
      expect(ok.status).toBe(200);
    }, 60_000);
  });
});
