/** `npm run doctor` lists each configured MCP server with its tool count or its error (real servers from node_modules). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runParts } from '../../src/doctor/check.js';
import { mcpPart } from '../../src/doctor/mcp-checks.js';
import { formatLine } from '../../src/doctor/report.js';
import { EVERYTHING, FILESYSTEM } from '../support/mcp-servers.js';
import { tempDirs } from '../support/temp-dir.js';

const tempDir = tempDirs('charlie-doctor-mcp-');

describe('doctor: MCP tool servers', () => {
  it('one line per server: tool count, or the error; one per bad entry', async () => {
    const dir = tempDir();
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
          files: { command: process.execPath, args: [FILESYSTEM, dir] },
          missing: { command: join(dir, 'no-such-program') },
          broken: { url: 'not a url' },
        },
      }),
    );
    const config = loadConfig({ MCP_CONFIG: file, DATA_DIR: join(dir, 'data'), PROJECTS_DIR: join(dir, 'projects') }, dir);
    const results = await runParts([mcpPart(config)], () => {});
    const line = (name: string) => results.find((r) => r.name === name);
    expect(line('MCP server everything')).toMatchObject({ status: 'ok' });
    expect(line('MCP server everything')!.detail).toMatch(/^everything \(local, stdio\): \d+ tools, \d+ ask before they run$/);
    expect(line('MCP server files')!.detail).toMatch(/^files \(local, stdio\): 1[0-9] tools, [1-9] ask before they run$/);
    expect(line('MCP server missing')).toMatchObject({ status: 'fail' });
    expect(line('MCP server missing')!.detail).toMatch(/ENOENT|could not start/);
    const bad = results.filter((r) => r.name === 'mcp.json');
    expect(bad).toHaveLength(1);
    expect(bad[0]!.detail).toContain('mcpServers.broken.url');
    expect(results.map(formatLine).join('\n')).toContain('everything (local, stdio)');
  }, 60_000);

  it('without mcp.json: one skipped line naming the file', async () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: join(dir, 'data'), PROJECTS_DIR: join(dir, 'projects') }, dir);
    const results = await runParts([mcpPart(config)], () => {});
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: 'skip' });
    expect(results[0]!.detail).toContain(join(dir, 'data', 'mcp.json'));
  });
});
