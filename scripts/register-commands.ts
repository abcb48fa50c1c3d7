/**
 * `npm run register-commands`: registers Charlie's slash commands from commands/ — to
 * DISCORD_DEV_GUILD_ID when set (instant), else globally (may take up to an hour).
 */
import { loadCommands } from '../commands/index.js';
import { loadConfig } from '../src/config.js';
import { registerCommands } from '../src/discord/register.js';
import { errorMessage } from '../src/util/error-text.js';

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.DISCORD_TOKEN) {
    console.error('DISCORD_TOKEN is not set — put the bot token from the Developer Portal (Bot tab) in .env; see docs/discord.md');
    process.exitCode = 1;
    return;
  }
  const result = await registerCommands({
    token: config.DISCORD_TOKEN,
    commands: await loadCommands(),
    applicationId: config.DISCORD_APPLICATION_ID,
    guildId: config.DISCORD_DEV_GUILD_ID,
    apiUrl: config.DISCORD_API_URL,
  });
  const where = result.scope === 'guild' ? `guild ${config.DISCORD_DEV_GUILD_ID} (available now)` : 'all guilds (global; may take up to an hour to appear)';
  console.log(`Registered /${result.names.join(', /')} for application ${result.applicationId} in ${where}.`);
}

main().catch((error: unknown) => {
  console.error(`register-commands failed: ${errorMessage(error)}`);
  process.exitCode = 1;
});
