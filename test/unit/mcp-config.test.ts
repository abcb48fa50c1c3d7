/** mcp.json in Claude Desktop's format: what is accepted, what each problem says, locality, members, cues. */
import { describe, expect, it } from 'vitest';
import { localityOf, parseMcpConfig } from '../../src/mcp/client/config.js';
import { McpToolSource } from '../../src/mcp/client/source.js';
import { confirmReason, modelToolName } from '../../src/mcp/client/tools.js';
import { presuggestGroups } from '../../src/core/turn/presuggest.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { FixedClock } from '../support/fakes.js';

const claudeDesktop = {
  mcpServers: {
    filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/Desktop'] },
    homeassistant: { url: 'http://127.0.0.1:8123/mcp', headers: { Authorization: 'Bearer x' } },
    search: { url: 'https://search.example.com/mcp', alwaysAllow: ['web_search'], members: 'all' },
    nas: { url: 'https://nas.example-tailnet.ts.net/mcp', locality: 'local' },
    off: { command: 'x', disabled: true },
  },
};

describe('mcp.json', () => {
  it('reads Claude Desktop entries: stdio and HTTP, locality from the transport unless overridden', () => {
    const { servers, problems } = parseMcpConfig(JSON.stringify(claudeDesktop));
    expect(problems).toEqual([]);
    expect(servers.map((s) => [s.name, s.config.transport, s.locality])).toEqual([
      ['filesystem', 'stdio', 'local'],
      ['homeassistant', 'http', 'local'],
      ['search', 'http', 'hosted'],
      ['nas', 'http', 'local'],
    ]);
    expect(localityOf({ transport: 'http', url: 'http://[::1]:9/mcp', headers: {}, alwaysAllow: [], members: [], disabled: false })).toBe('local');
  });

  it('names the server and the field of each problem, and keeps the good entries', () => {
    const { servers, problems } = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          good: { command: 'node' },
          noCommand: { args: [] },
          badUrl: { url: 'ftp://x' },
          old: { type: 'sse', url: 'http://127.0.0.1/sse' },
          typo: { command: 'x', argz: [] },
          'bad name!': { command: 'x' },
        },
      }),
      'data/mcp.json',
    );
    expect(servers.map((s) => s.name)).toEqual(['good']);
    expect(problems.some((p) => p.startsWith('data/mcp.json: mcpServers.noCommand.command'))).toBe(true);
    expect(problems.some((p) => p.startsWith('data/mcp.json: mcpServers.badUrl.url') && p.includes('http'))).toBe(true);
    expect(problems.some((p) => p.includes('mcpServers.old') && p.includes('Streamable HTTP'))).toBe(true);
    expect(problems.some((p) => p.includes('mcpServers.typo') && p.includes('argz'))).toBe(true);
    expect(problems.some((p) => p.includes('mcpServers.bad name!'))).toBe(true);
    expect(parseMcpConfig('{ not json').problems[0]).toMatch(/not valid JSON/);
    expect(parseMcpConfig('{"servers": {}}').problems[0]).toMatch(/mcpServers/);
  });

  it('offers a server to the owner, to listed members or everyone with "all", and to nobody else', () => {
    const { servers } = parseMcpConfig(JSON.stringify({ mcpServers: { mine: { command: 'x' }, shared: { command: 'y', members: ['123456789012'] }, open: { command: 'z', members: 'all' } } }));
    const source = new McpToolSource({ servers, problems: [] }, { clock: new FixedClock(), logger: silentLogger, version: 't', callTimeoutMs: 1000, startTimeoutMs: 1000 });
    const names = (user: { owner: boolean; id?: string }) => source.groups(user).map((g) => g.category);
    expect(names({ owner: true })).toEqual(['mcp:mine', 'mcp:shared', 'mcp:open']);
    expect(names({ owner: false, id: '123456789012' })).toEqual(['mcp:shared', 'mcp:open']);
    expect(names({ owner: false, id: '999999999999' })).toEqual(['mcp:open']);
    expect(names({ owner: false })).toEqual(['mcp:open']);
  });
});

describe('tool rules', () => {
  it('asks unless read-only and not destructive, or always allowed', () => {
    const tool = (annotations?: Record<string, boolean>) => ({ name: 't', inputSchema: { type: 'object' as const }, ...(annotations ? { annotations } : {}) });
    expect(confirmReason(tool({ readOnlyHint: true }), [])).toBeNull();
    expect(confirmReason(tool(), [])).toMatch(/read-only/);
    expect(confirmReason(tool({ readOnlyHint: false }), [])).toMatch(/read-only/);
    expect(confirmReason(tool({ readOnlyHint: true, destructiveHint: true }), [])).toMatch(/destructive/);
    expect(confirmReason(tool({ destructiveHint: true }), ['t'])).toBeNull();
  });

  it('gives the model API-safe, bounded names', () => {
    expect(modelToolName('fs', 'read_text_file')).toBe('fs__read_text_file');
    expect(modelToolName('a.b', 'x y/z')).toBe('a_b__x_y_z');
    expect(modelToolName('s', 'x'.repeat(100))).toHaveLength(64);
  });

  it('the pre-suggestion pass picks a server by its name, a tool name, or two description words', () => {
    const groups = [{ category: 'mcp:calendar' as const, description: '', names: ['calendar', 'list_events'], words: ['appointments', 'events', 'calendar', 'meeting'] }];
    expect(presuggestGroups('check my calendar', groups)).toEqual(['mcp:calendar']);
    expect(presuggestGroups('run list events please', groups)).toEqual(['mcp:calendar']);
    expect(presuggestGroups('any appointments or events on friday?', groups)).toEqual(['mcp:calendar']);
    expect(presuggestGroups('any events?', groups)).toEqual([]);
    expect(presuggestGroups('what did we decide about the tent?', groups)).toEqual([]);
  });
});
