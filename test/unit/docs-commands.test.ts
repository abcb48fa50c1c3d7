/**
 * The commands the README and the guides in docs/ tell a person to run still exist: every
 * `npm run` script, every slash command (Discord's or the terminal's), every setting set on a
 * command line, and every link to another file. The lists come from the code (package.json,
 * the command files, the terminal's help, the config schema), so a renamed command or setting
 * fails here instead of in a newcomer's terminal.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../commands/index.js';
import { configSchema } from '../../src/config.js';
import { HELP } from '../../src/terminal/chat.js';

const root = join(import.meta.dirname, '../..');
const guides = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const text = (file: string) => readFileSync(join(root, file), 'utf8');
/** Code spans and fenced blocks: where a guide writes something to type. */
function codeOf(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/```[^\n]*\n([\s\S]*?)```/g)) out.push(m[1]!);
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  for (const m of prose.matchAll(/`([^`\n]+)`/g)) out.push(m[1]!);
  return out;
}
const scripts = Object.keys((JSON.parse(text('package.json')) as { scripts: Record<string, string> }).scripts);

describe('the commands in the guides', () => {
  it.each(guides)('%s: every `npm run` script exists', (file) => {
    const named = codeOf(text(file)).flatMap((c) => [...c.matchAll(/npm run (?:(?:--prefix \S+|--?[\w-]+) )*([\w:-]+)/g)].map((m) => m[1]!));
    expect(named.filter((s) => !scripts.includes(s))).toEqual([]);
  });

  it.each(guides)('%s: every slash command exists in Discord or the terminal', async (file) => {
    const commands = await loadCommands();
    const discord = new Set(commands.flatMap((c) => [`/${c.name}`, ...(c.subcommand ? [`/${c.name} ${c.subcommand.name}`] : [])]));
    const terminal = new Set([...HELP.matchAll(/\/[a-z]+(?: [a-z]+)?/g)].flatMap((m) => [m[0], m[0].split(' ')[0]!]));
    const named = codeOf(text(file)).flatMap((c) => [...c.matchAll(/(?:^|[\s>])(\/[a-z]+)(?: ([a-z]+))?/gm)].map((m) => ({ cmd: m[1]!, sub: m[2] })));
    // a path such as /usr/bin or /api/chat is not a command: only names the code knows as commands count
    const known = new Set([...discord, ...terminal]);
    const roots = new Set([...known].map((c) => c.split(' ')[0]!));
    // a command the terminal's help shows with a free-text argument ("/remind WHEN", "/search QUERY")
    const freeText = new Set([...HELP.matchAll(/(\/[a-z]+) [A-Z]/g)].map((m) => m[1]!));
    const withSubcommands = new Set([...known].filter((c) => c.includes(' ')).map((c) => c.split(' ')[0]!));
    const unknown = named
      .filter((n) => roots.has(n.cmd))
      .filter((n) => {
        if (!n.sub || !withSubcommands.has(n.cmd)) return false;
        return !known.has(`${n.cmd} ${n.sub}`) && !freeText.has(n.cmd);
      })
      .map((n) => `${n.cmd} ${n.sub ?? ''}`.trim());
    expect(unknown).toEqual([]);
  });

  it.each(guides)('%s: every setting given on a command line is a setting', (file) => {
    const keys = new Set(Object.keys(configSchema.shape));
    const named = codeOf(text(file)).flatMap((c) => [...c.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]{2,})=/gm)].map((m) => m[1]!));
    // variables of other programs that a guide may set on the same line
    const foreign = new Set([
      'NODE_OPTIONS',
      'NODE_COMPILE_CACHE',
      'NODE_DISABLE_COMPILE_CACHE',
      'MALLOC_ARENA_MAX',
      'MALLOC_MMAP_THRESHOLD_',
      'LANCE_IO_THREADS',
      'LANCE_CPU_THREADS',
      'CI',
      'DEBUG',
      'PATH',
      'HOME',
    ]);
    expect(named.filter((k) => !keys.has(k) && !foreign.has(k))).toEqual([]);
  });

  it.each(guides)('%s: every link to a file in the repository resolves', (file) => {
    const prose = text(file)
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]+`/g, '');
    const links = [...prose.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/i.test(l));
    expect(links.filter((l) => !existsSync(resolve(dirname(join(root, file)), l)))).toEqual([]);
  });
});
