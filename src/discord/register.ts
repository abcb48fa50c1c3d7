/**
 * Registers the slash commands: to one guild (instant; for development) or globally (can take
 * up to an hour to appear). Replaces the whole set, so removed commands disappear too.
 */
import { REST, Routes, type APIApplication } from 'discord.js';
import type { Command } from './command.js';
import { commandData } from './commands-data.js';

export interface RegisterOptions {
  token: string;
  commands: readonly Command[];
  /** Read from the API (GET /applications/@me) when not given. */
  applicationId?: string;
  /** Register to this guild only; global when absent. */
  guildId?: string;
  apiUrl?: string;
}

export interface RegisterResult {
  scope: 'guild' | 'global';
  applicationId: string;
  names: string[];
}

export async function registerCommands(options: RegisterOptions): Promise<RegisterResult> {
  const rest = new REST(options.apiUrl ? { api: options.apiUrl.replace(/\/+$/, '') } : {}).setToken(options.token);
  const applicationId = options.applicationId ?? ((await rest.get(Routes.currentApplication())) as APIApplication).id;
  const body = commandData(options.commands);
  const route = options.guildId ? Routes.applicationGuildCommands(applicationId, options.guildId) : Routes.applicationCommands(applicationId);
  const saved = (await rest.put(route, { body })) as { name: string }[];
  return { scope: options.guildId ? 'guild' : 'global', applicationId, names: saved.map((c) => c.name) };
}
