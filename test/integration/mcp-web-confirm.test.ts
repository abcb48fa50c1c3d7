/**
 * The web app's side of MCP: a tool that asks first shows a `confirm` event in the turn's
 * stream; the page's Run it / Don't answers with POST /api/turns/:turn/confirm; the owner sees
 * one line per tool server in /api/me. Real server-filesystem, real composition.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../support/fake-model-server.js';
import { FILESYSTEM } from '../support/mcp-servers.js';
import { projectFile, startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});
const bearer = { authorization: `Bearer ${TOKEN}` };

function writer(target: string): (request: unknown, n: number) => ScriptedReply {
  return (_request, n) =>
    [
      { toolCalls: [{ name: 'request_tools', arguments: JSON.stringify({ categories: ['mcp:fs'] }) }] },
      { toolCalls: [{ name: 'fs__write_file', arguments: JSON.stringify({ path: target, content: 'from the web' }) }] },
    ][n % 3] ?? { text: 'Handled.' };
}

async function start(): Promise<{ f: WebFixture; folder: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'charlie-mcp-web-'));
  closers.push(() => rmSync(folder, { recursive: true, force: true }));
  const config = join(folder, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM, folder] } } }));
  mkdirSync(join(folder, 'out'));
  const f = await startWebFixture({ script: writer(join(folder, 'out', 'note.txt')), files: { 'general/project.md': projectFile('general', 'terminal:general') }, env: { MCP_CONFIG: config } });
  closers.push(() => f.close());
  return { f, folder };
}

/** Sends a message and answers the first `confirm` event with `allow`; returns the whole stream. */
async function turnAnswering(f: WebFixture, allow: boolean): Promise<{ stream: string; confirm: Record<string, unknown> }> {
  const res = await fetch(`${f.web.url}/api/projects/general/messages`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'write the note' }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let stream = '';
  let confirm: Record<string, unknown> | null = null;
  while (!stream.includes('event: end')) {
    const { value, done } = await reader.read();
    if (done) break;
    stream += decoder.decode(value, { stream: true });
    const asked = /event: confirm\ndata: (.+)\n/.exec(stream);
    if (asked && !confirm) {
      confirm = JSON.parse(asked[1]!) as Record<string, unknown>;
      const turnId = (JSON.parse(/event: accepted\ndata: (.+)\n/.exec(stream)![1]!) as { turnId: string }).turnId;
      const answered = await fetch(`${f.web.url}/api/turns/${turnId}/confirm`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ id: confirm.id, allow }),
      });
      expect(answered.status).toBe(200);
      const again = await fetch(`${f.web.url}/api/turns/${turnId}/confirm`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ id: confirm.id, allow }),
      });
      expect(again.status).toBe(409);
    }
  }
  return { stream, confirm: confirm ?? {} };
}

describe('MCP in the web app', () => {
  it('Run it writes the file; the question shows the exact arguments; /api/me lists the server', async () => {
    const { f, folder } = await start();
    const target = join(folder, 'out', 'note.txt');
    const { stream, confirm } = await turnAnswering(f, true);
    expect(confirm).toMatchObject({ server: 'fs', tool: 'write_file', args: { path: target, content: 'from the web' } });
    expect(stream).toContain('event: confirm_done');
    expect(stream).toContain('"source":{"server":"fs","tool":"write_file"}');
    expect(readFileSync(target, 'utf8')).toBe('from the web');
    const me = (await (await fetch(`${f.web.url}/api/me`, { headers: bearer })).json()) as { toolServers?: string[] };
    expect(me.toolServers?.[0]).toMatch(/^fs \(local, stdio\): running, \d+ tools/);
  }, 60_000);

  it("Don't leaves the file unwritten and the reply still comes", async () => {
    const { f, folder } = await start();
    const { stream } = await turnAnswering(f, false);
    expect(existsSync(join(folder, 'out', 'note.txt'))).toBe(false);
    expect(stream).toContain('"summary":"declined"');
    expect(stream).toContain('Handled.');
  }, 60_000);
});
