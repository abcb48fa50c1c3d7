/** Builds the discord.js client Charlie needs: intents, DM partials, and an optional API URL. */
import { Client, GatewayIntentBits, Partials } from 'discord.js';

export const CHARLIE_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent, // privileged: enable "Message Content Intent" on the Bot tab
  GatewayIntentBits.DirectMessages,
  GatewayIntentBits.GuildVoiceStates, // for the voice front door
] as const;

export interface ClientOptions {
  /** REST base, e.g. `https://discord.com/api` (default) or a Spacebar / test server's `/api`. */
  apiUrl?: string;
}

export function createDiscordClient(options: ClientOptions = {}): Client {
  return new Client({
    intents: [...CHARLIE_INTENTS],
    // DM channels are not cached before their first message; without this, DMs are dropped.
    partials: [Partials.Channel],
    rest: options.apiUrl ? { api: options.apiUrl.replace(/\/+$/, '') } : {},
    allowedMentions: { parse: [], repliedUser: false },
  });
}
