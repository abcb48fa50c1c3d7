/**
 * The Discord front door, started by the composition root (src/main.ts) when DISCORD_TOKEN is
 * set: the bot, voice channels, the time outbox and the reflection reports in the project's
 * channel. discord.js and @discordjs/voice are loaded only here.
 */
import type { App } from './app.js';
import type { Config } from '../config.js';
import type { Logger, SpeechToText, TextToSpeech } from '../core/ports/index.js';
import { reportText } from '../core/reflection/reflection.js';
import { transcribeAudioAttachments } from '../speech/voice-message.js';
import { isDiscordPlace } from '../time/outbox-router.js';
import type { WebServer } from '../web/server.js';
import { mcpLines } from './web-door.js';

export interface DiscordDoorDeps {
  config: Config;
  app: App;
  logger: Logger;
  web: WebServer | null;
  speech: { stt: SpeechToText; tts: TextToSpeech };
  /** What the start-up says about the chat model: its description, a warning, the doctor's lines. */
  model: { describe: string; status: string | null; lines: string[] };
  closeAll: () => Promise<void>;
}

/** Starts the bot; SIGINT/SIGTERM stop it, close everything and end the process. */
export async function startDiscordDoor({ config, app, logger, web, speech, model, closeAll }: DiscordDoorDeps): Promise<void> {
  const { stt, tts } = speech;
  // discord.js and @discordjs/voice are loaded only for the Discord front door
  const [{ startDiscord }, { loadCommands }, { VoiceSessions }, { voiceSettings }, { postToChannel }, { DiscordTimeOutbox }, { createTurnModel }] = await Promise.all([
    import('../discord/bot.js'),
    import('../../commands/index.js'),
    import('../voice/sessions.js'),
    import('../voice/settings.js'),
    import('../discord/announce.js'),
    import('../discord/outbox.js'),
    import('../speech/turn/create.js'),
  ]);
  logger.info(`model: ${model.describe}`);
  if (model.status) logger.warn(model.status);
  for (const n of app.notices) logger.warn(n);
  for (const line of model.lines) logger.info({ model: config.LLM_MODEL }, line);
  const voiceLog = logger.child({ component: 'voice' });
  const turnModel = createTurnModel(config, voiceLog);
  const voice = new VoiceSessions({ assistant: app.assistant, stt, tts, settings: voiceSettings(config), logger: voiceLog, turnModel });
  const bot = await startDiscord({
    config,
    commands: await loadCommands(),
    assistant: app.assistant,
    logger,
    acceptsImages: app.model.acceptsImages,
    services: {
      voice,
      web,
      ingest: app.ingest,
      reflectReport: config.REFLECT_REPORT,
      toolServers: () => mcpLines(app.mcp),
      time: app.time.reminders,
      calendar: app.time.calendar,
      brief: app.time.brief,
      ...(app.machines ? { machines: app.machines } : {}),
      sync: app.sync,
    },
    transcribeAudio: (list) => transcribeAudioAttachments(list, { stt, fetch, downloadTimeoutMs: config.VOICE_MESSAGE_DOWNLOAD_TIMEOUT_MS, language: config.STT_LANGUAGE }),
  });
  app.time.outbox.add(isDiscordPlace, new DiscordTimeOutbox(bot.client));
  app.time.start();
  // the report goes to the project's channel (REFLECT_REPORT=channel); it is in the log either way
  app.startReflecting(async (report) => {
    if (config.REFLECT_REPORT !== 'channel' || report.pages === 0) return;
    const channel = (await app.store.getProject(report.project))?.config.discord?.channelIds[0];
    if (channel) await postToChannel(bot.client, channel, `🪞 ${reportText(report)}`);
  });
  const stop = async () => {
    voice.closeAll();
    await bot.stop();
    await closeAll();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
