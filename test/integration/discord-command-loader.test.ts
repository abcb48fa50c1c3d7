/** The command loader reads every file in commands/ and rejects files that are not commands. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCommands } from '../../commands/index.js';
import { commandData } from '../../src/discord/commands-data.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('loadCommands', () => {
  it('loads the shipped commands with unique names and builds registration JSON within Discord limits', async () => {
    const commands = await loadCommands();
    const keys = commands.map((c) => `${c.name} ${c.subcommand?.name ?? ''}`.trim());
    expect(keys).toEqual(expect.arrayContaining(['help', 'memory show', 'memory edit', 'memory search', 'memory forget', 'project style', 'project distill', 'project respond']));
    for (const body of commandData(commands)) {
      expect(body.description.length).toBeLessThanOrEqual(100);
      expect(body.options?.length ?? 0).toBeLessThanOrEqual(25);
    }
  });

  it('accepts an array export and rejects a file that is not a command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charlie-cmds-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, 'a.mjs'),
      "export default [{ name: 'x', description: 'X', subcommand: { name: 'one', description: '1' }, execute() {} }, { name: 'x', description: 'X', subcommand: { name: 'two', description: '2' }, execute() {} }];",
    );
    const ok = await loadCommands(dir);
    expect(commandData(ok)).toMatchObject([{ name: 'x', options: [{ name: 'one' }, { name: 'two' }] }]);
    writeFileSync(join(dir, 'b.mjs'), "export default { name: 'Bad Name', description: 'no' };");
    await expect(loadCommands(dir)).rejects.toThrow(/b\.mjs/);
  });
});
