/** Builds the slash command registration JSON from loaded Command files. */
import { ApplicationCommandOptionType, ApplicationCommandType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from './command.js';

const NAME = /^[-_\p{Ll}\p{N}]{1,32}$/u;

export function validateCommand(value: unknown, file: string): Command {
  const c = value as Partial<Command> | null;
  if (!c || typeof c !== 'object' || typeof c.name !== 'string' || typeof c.execute !== 'function' || typeof c.description !== 'string') {
    throw new Error(`${file}: the default export is not a Command (needs name, description, execute)`);
  }
  if (!NAME.test(c.name) || (c.subcommand && !NAME.test(c.subcommand.name))) throw new Error(`${file}: command names must be 1-32 lower-case letters, digits, - or _`);
  return c as Command;
}

export function commandData(commands: readonly Command[]): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const byName = new Map<string, RESTPostAPIChatInputApplicationCommandsJSONBody>();
  for (const c of commands) {
    let entry = byName.get(c.name);
    if (!entry) {
      entry = { name: c.name, description: c.description.slice(0, 100), type: ApplicationCommandType.ChatInput, options: [] };
      byName.set(c.name, entry);
    }
    if (c.subcommand) {
      entry.options!.push({
        type: ApplicationCommandOptionType.Subcommand,
        name: c.subcommand.name,
        description: c.subcommand.description.slice(0, 100),
        options: c.options ?? [],
      });
    } else {
      if (entry.options!.length) throw new Error(`/${c.name} is defined both as a command and with subcommands`);
      entry.options = [...(c.options ?? [])];
    }
  }
  return [...byName.values()];
}
