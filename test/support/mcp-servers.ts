/** The reference MCP servers from node_modules (devDependencies), started by tests offline. */
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { McpServerEntry } from '../../src/mcp/client/config.js';

const root = join(import.meta.dirname, '..', '..', 'node_modules', '@modelcontextprotocol');
export const EVERYTHING = join(root, 'server-everything', 'dist', 'index.js');
export const FILESYSTEM = join(root, 'server-filesystem', 'dist', 'index.js');

export function stdioEntry(name: string, script: string, args: string[], extra: Partial<{ alwaysAllow: string[]; members: 'all' | string[] }> = {}): McpServerEntry {
  return {
    name,
    locality: 'local',
    config: { transport: 'stdio', command: process.execPath, args: [script, ...args], env: {}, alwaysAllow: extra.alwaysAllow ?? [], members: extra.members ?? [], disabled: false },
  };
}

/** Pids of this process's children whose command line contains `needle` (to crash a server the test started). */
export function childPids(needle: string): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes(needle))
    .map((l) => Number(l.trim().split(/\s+/)[0]))
    .filter((n) => Number.isInteger(n) && n > 0);
}
