/** What the time commands (/remind, /calendar) share: who is asking, and a desk that may not be running. */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { Place } from '../core/place.js';
import { askerFor, type Asker } from '../core/time/reminder-desk.js';
import { ephemeral } from './command.js';

/** The person who used a command or a button, in the place it was used, as the time desks read them. */
export function commandAsker(interaction: { user: { id: string; username: string; globalName: string | null } }, ctx: { place: Place }): Asker {
  const user = interaction.user;
  return askerFor(ctx.place, user.globalName ?? user.username, user.id);
}

/** The desk a command needs, or null once the user has been told it is not running (`Reminders are`). */
export async function runningDesk<T>(interaction: ChatInputCommandInteraction, desk: T | undefined, what: string): Promise<T | null> {
  if (desk) return desk;
  await interaction.reply(ephemeral(`${what} not running right now.`));
  return null;
}
