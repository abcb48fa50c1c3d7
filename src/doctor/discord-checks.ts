/**
 * Discord, when a token is set: the token works, the application has the privileged intent
 * Charlie needs, the bot sits in the allowed servers, the slash commands registered on
 * Discord are the ones in commands/, and the voice stack (Opus, encryption, DAVE) is complete.
 * Plain REST calls with a deadline: the doctor must not log in to the gateway.
 */
import { generateDependencyReport } from '@discordjs/voice';
import type { Config } from '../config.js';
import { commandData } from '../discord/commands-data.js';
import type { Command } from '../discord/command.js';
import { fail, ok, skip, warn, type Check, type Part, type Verdict } from './check.js';
import { networkReason, parseJson, request, trimSlash } from './http.js';

/** Application flags (discord.com/developers/docs/resources/application#application-object-application-flags). */
const FLAG = {
  GATEWAY_GUILD_MEMBERS: 1 << 14,
  GATEWAY_GUILD_MEMBERS_LIMITED: 1 << 15,
  GATEWAY_MESSAGE_CONTENT: 1 << 18,
  GATEWAY_MESSAGE_CONTENT_LIMITED: 1 << 19,
} as const;

interface DiscordState {
  botId: string | undefined;
  applicationId: string | undefined;
}

type Get = (path: string, signal: AbortSignal) => Promise<{ status: number; body: unknown }>;

function getter(config: Config): Get {
  const base = `${trimSlash(config.DISCORD_API_URL ?? 'https://discord.com/api')}/v10`;
  return async (path, signal) => {
    const answer = await request(`${base}${path}`, { headers: { authorization: `Bot ${config.DISCORD_TOKEN ?? ''}` }, timeoutMs: 8000, signal });
    return { status: answer.status, body: parseJson(answer.text) };
  };
}

const field = (body: unknown, key: string): unknown => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined);
const text = (value: unknown, otherwise: string): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : otherwise);

function tokenCheck(get: Get, state: DiscordState): Check {
  return {
    name: 'discord: token',
    async run(signal) {
      let res;
      try {
        res = await get('/users/@me', signal);
      } catch (err) {
        return fail(`Discord cannot be reached: ${networkReason(err)}`, 'check the internet connection (or DISCORD_API_URL)');
      }
      if (res.status === 401) return fail('Discord refused the token (401)', 'reset the token in the Developer Portal → Bot → Reset Token, and put it in DISCORD_TOKEN');
      if (res.status >= 400) return fail(`Discord answered ${String(res.status)} for the bot user`, 'try again later; check discordstatus.com');
      state.botId = text(field(res.body, 'id'), '');
      return ok(`logged in as ${text(field(res.body, 'username'), '?')} (${state.botId})`);
    },
  };
}

function intentsCheck(get: Get, state: DiscordState): Check {
  return {
    name: 'discord: privileged intents',
    async run(signal): Promise<Verdict> {
      if (state.botId === undefined) return skip('no valid token');
      const res = await get('/applications/@me', signal);
      if (res.status >= 400) return warn(`could not read the application (${String(res.status)})`, 'check the token belongs to a bot application');
      state.applicationId = text(field(res.body, 'id'), '');
      const flags = Number(field(res.body, 'flags') ?? 0);
      const content = (flags & (FLAG.GATEWAY_MESSAGE_CONTENT | FLAG.GATEWAY_MESSAGE_CONTENT_LIMITED)) !== 0;
      const members = (flags & (FLAG.GATEWAY_GUILD_MEMBERS | FLAG.GATEWAY_GUILD_MEMBERS_LIMITED)) !== 0;
      if (!content) {
        return fail(
          'the Message Content intent is not enabled: Charlie would see empty messages (and Discord refuses the connection)',
          'Developer Portal → your application → Bot → Privileged Gateway Intents → turn on Message Content Intent, save',
        );
      }
      return ok(`Message Content enabled; Server Members ${members ? 'enabled' : 'off (not needed)'}`);
    },
  };
}

function guildsCheck(get: Get, config: Config, state: DiscordState): Check {
  return {
    name: 'discord: servers',
    async run(signal): Promise<Verdict> {
      if (state.botId === undefined) return skip('no valid token');
      const res = await get('/users/@me/guilds', signal);
      if (res.status >= 400 || !Array.isArray(res.body)) return warn(`could not list the bot's servers (${String(res.status)})`, 'check the token');
      const inGuilds = new Map((res.body as unknown[]).map((g) => [text(field(g, 'id'), ''), text(field(g, 'name'), '?')]));
      const allowed = config.DISCORD_ALLOWED_GUILDS;
      if (allowed.length === 0) {
        return warn(
          `the bot is in ${String(inGuilds.size)} server(s); DISCORD_ALLOWED_GUILDS is empty, so only the application's owner is served`,
          'list your server ids in DISCORD_ALLOWED_GUILDS (Developer Mode → right-click the server → Copy ID)',
        );
      }
      const missing = allowed.filter((id) => !inGuilds.has(id));
      const invite = `invite it: Developer Portal → OAuth2 → URL Generator, scopes bot + applications.commands (see docs/discord.md, "Invite it to your server")`;
      if (missing.length > 0) return fail(`the bot is not in allowed server(s) ${missing.join(', ')}`, invite);
      return ok(`in every allowed server: ${allowed.map((id) => inGuilds.get(id) ?? id).join(', ')}`);
    },
  };
}

/** Registered command shape, reduced to what `register-commands` sends, for comparison. */
function shape(command: unknown): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) {
      if (
        [
          'id',
          'application_id',
          'version',
          'guild_id',
          'default_member_permissions',
          'dm_permission',
          'nsfw',
          'integration_types',
          'contexts',
          'name_localizations',
          'description_localizations',
        ].includes(k)
      )
        continue;
      if (k === 'options' && Array.isArray(x) && x.length === 0) continue;
      if ((k === 'required' || k === 'autocomplete') && x === false) continue;
      out[k] = strip(x);
    }
    return out;
  };
  return JSON.stringify(strip(command));
}

function commandsCheck(get: Get, config: Config, state: DiscordState, loadCommands: () => Promise<Command[]>): Check {
  return {
    name: 'discord: slash commands',
    async run(signal): Promise<Verdict> {
      const appId = config.DISCORD_APPLICATION_ID ?? state.applicationId;
      if (state.botId === undefined || appId === undefined || appId === '') return skip('no valid token');
      const scope = config.DISCORD_DEV_GUILD_ID ? `/guilds/${config.DISCORD_DEV_GUILD_ID}` : '';
      const res = await get(`/applications/${appId}${scope}/commands`, signal);
      if (res.status >= 400 || !Array.isArray(res.body)) return warn(`could not list the registered commands (${String(res.status)})`, 'run `npm run register-commands`');
      const local = new Map(commandData(await loadCommands()).map((c) => [c.name, shape(c)]));
      const remote = new Map((res.body as unknown[]).map((c) => [String(field(c, 'name')), shape(c)]));
      const missing = [...local.keys()].filter((n) => !remote.has(n));
      const stale = [...local.keys()].filter((n) => remote.has(n) && remote.get(n) !== local.get(n));
      const extra = [...remote.keys()].filter((n) => !local.has(n));
      const where = scope ? `in server ${config.DISCORD_DEV_GUILD_ID ?? ''}` : 'globally';
      if (missing.length + stale.length + extra.length === 0) return ok(`${String(local.size)} commands registered ${where} and current`);
      const parts = [
        missing.length ? `missing /${missing.join(', /')}` : '',
        stale.length ? `out of date /${stale.join(', /')}` : '',
        extra.length ? `no longer in commands/: /${extra.join(', /')}` : '',
      ];
      return warn(`slash commands ${where}: ${parts.filter(Boolean).join('; ')}`, 'run `npm run register-commands` (global registration can take up to an hour to show)');
    },
  };
}

function voiceStackCheck(): Check {
  return {
    name: 'discord: voice stack',
    async run(): Promise<Verdict> {
      const report = generateDependencyReport();
      const found = (name: string) => new RegExp(`- ${name.replace(/[/.]/g, '\\$&')}: (?!not found)`).test(report);
      const opus = ['@discordjs/opus', 'opusscript'].filter(found);
      const crypto = /native crypto support for aes-256-gcm: yes/.test(report) || ['sodium-native', 'sodium', 'libsodium-wrappers', '@stablelib/xchacha20poly1305', '@noble/ciphers'].some(found);
      const dave = found('@snazzah/davey');
      const missing = [opus.length === 0 ? 'an Opus library' : '', crypto ? '' : 'an encryption library', dave ? '' : 'the DAVE library (@snazzah/davey)'].filter(Boolean);
      if (missing.length > 0) return fail(`voice stack incomplete: no ${missing.join(', ')}`, 'run `npm ci` (the packages are dependencies of Charlie); Node must be 22.12 or newer');
      return ok(`Opus: ${opus.join(', ')}; encryption: ok; DAVE: @snazzah/davey`);
    },
  };
}

export function discordPart(config: Config, loadCommands: () => Promise<Command[]>): Part {
  if (!config.DISCORD_TOKEN) {
    return { name: 'discord', checks: [{ name: 'discord', run: () => Promise.resolve(skip('DISCORD_TOKEN is not set: the Discord bot does not start (see docs/discord.md)')) }] };
  }
  const get = getter(config);
  const state: DiscordState = { botId: undefined, applicationId: undefined };
  return {
    name: 'discord',
    checks: [tokenCheck(get, state), intentsCheck(get, state), guildsCheck(get, config, state), commandsCheck(get, config, state, loadCommands), voiceStackCheck()],
  };
}
