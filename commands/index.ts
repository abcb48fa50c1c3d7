/**
 * Loads every slash command in this folder: each `*.ts` / `*.js` file (except this one and
 * `*.test.*` / `*.d.ts`) default-exports a `Command` or an array of them
 * (`export default { … } satisfies Command`). Adding a command = adding a file; nothing to
 * register here. Order: by file name, so `/help` lists commands predictably.
 */
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from '../src/discord/command.js';
import { validateCommand } from '../src/discord/commands-data.js';

export const COMMANDS_DIR = dirname(fileURLToPath(import.meta.url));

export async function loadCommands(dir = COMMANDS_DIR): Promise<Command[]> {
  const files = (await readdir(dir)).filter((f) => /\.(ts|js|mjs)$/.test(f) && !/^index\.|\.d\.ts$|\.test\./.test(f)).sort();
  const commands: Command[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default?: unknown };
    const exported = Array.isArray(mod.default) ? mod.default : [mod.default];
    for (const value of exported) {
      const command = validateCommand(value, file);
      const key = `${command.name} ${command.subcommand?.name ?? ''}`;
      if (seen.has(key)) throw new Error(`${file}: /${key.trim()} is defined twice`);
      seen.add(key);
      commands.push(command);
    }
  }
  return commands;
}
