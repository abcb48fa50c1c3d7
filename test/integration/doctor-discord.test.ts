import { afterEach, describe, expect, it } from 'vitest';
import { loadCommands } from '../../commands/index.js';
import { loadConfig } from '../../src/config.js';
import { runParts, type CheckResult } from '../../src/doctor/check.js';
import { discordPart } from '../../src/doctor/discord-checks.js';
import { registerCommands } from '../../src/discord/register.js';
import { startFakeDiscord, type FakeDiscord } from '../support/fake-discord/server.js';

const open: FakeDiscord[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});

async function check(fake: FakeDiscord, env: Record<string, string> = {}) {
  const config = loadConfig({ DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, ...env }, '/nonexistent-doctor-cwd');
  const results = await runParts([discordPart(config, () => loadCommands())]);
  return (name: string): CheckResult => {
    const found = results.find((r) => r.name === `discord: ${name}`);
    if (!found) throw new Error(`no check ${name}`);
    return found;
  };
}

describe('doctor: Discord against the fake Discord', () => {
  it('reports a missing Message Content intent as such, with where to turn it on', async () => {
    const fake = await startFakeDiscord({ rejectPrivilegedIntents: true });
    open.push(fake);
    const by = await check(fake);
    expect(by('token').status).toBe('ok');
    expect(by('privileged intents').status).toBe('fail');
    expect(by('privileged intents').detail).toContain('Message Content intent is not enabled');
    expect(by('privileged intents').fix).toContain('Privileged Gateway Intents → turn on Message Content Intent');
  });

  it('a good setup: intents, allowed servers, commands registered and current, voice stack', async () => {
    const fake = await startFakeDiscord();
    open.push(fake);
    const home = fake.addGuild('home', ['general']);
    let by = await check(fake, { DISCORD_ALLOWED_GUILDS: home.id });
    expect(by('privileged intents').status).toBe('ok');
    expect(by('servers')).toMatchObject({ status: 'ok', detail: 'in every allowed server: home' });
    expect(by('slash commands').status).toBe('warn');
    expect(by('slash commands').detail).toBe('slash commands globally: missing /calendar, /help, /machines, /memory, /privacy, /private, /project, /remind, /sync, /voice, /web');
    expect(by('slash commands').fix).toContain('npm run register-commands');
    expect(by('voice stack')).toMatchObject({ status: 'ok' });
    expect(by('voice stack').detail).toContain('DAVE: @snazzah/davey');

    await registerCommands({ token: fake.token, commands: await loadCommands(), apiUrl: fake.apiUrl });
    by = await check(fake, { DISCORD_ALLOWED_GUILDS: home.id });
    expect(by('slash commands').status).toBe('ok');
    expect(by('slash commands').detail).toMatch(/commands registered globally and current$/);

    const registered = fake.registeredCommands.get('global') ?? [];
    const help = registered.find((c) => c.name === 'help');
    if (help === undefined) throw new Error('help not registered');
    help.description = 'an older description';
    by = await check(fake, { DISCORD_ALLOWED_GUILDS: home.id });
    expect(by('slash commands')).toMatchObject({ status: 'warn', detail: 'slash commands globally: out of date /help' });
  });

  it('a bad token and a server the bot is not in are failures', async () => {
    const fake = await startFakeDiscord();
    open.push(fake);
    const byBadToken = await check(fake, { DISCORD_TOKEN: 'not-the-right-token-0123456789abcdef' });
    expect(byBadToken('token')).toMatchObject({ status: 'fail', detail: 'Discord refused the token (401)' });
    expect(byBadToken('privileged intents').status).toBe('skip');
    const by = await check(fake, { DISCORD_ALLOWED_GUILDS: '123456789012345678' });
    expect(by('servers')).toMatchObject({ status: 'fail', detail: 'the bot is not in allowed server(s) 123456789012345678' });
  });
});
