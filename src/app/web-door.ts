/**
 * The web front door and what it shares with the MCP server, started by the composition root
 * (src/main.ts): the web app's wiring, Read aloud through the speech guard, and the lines that
 * describe the MCP tool servers.
 */
import type { App } from './app.js';
import type { Config } from '../config.js';
import { dataFiles } from '../config.js';
import { charlieVersion } from '../version.js';
import type { Logger, SpeechToText, SynthesizedAudio, TextToSpeech } from '../core/ports/index.js';
import type { IngestStatus } from '../core/writing/ingest-status.js';
import { guardSpeech } from '../core/privacy/egress.js';
import { transcribeVoiceMessage } from '../speech/voice-message.js';
import { statusLine, type McpToolSource } from '../mcp/client/source.js';
import { memoryEndpoint } from '../mcp/server/memory-http.js';
import type { MemoryServerOptions } from '../mcp/server/memory-server.js';
import { isWebPlace } from '../time/outbox-router.js';
import { settingsView } from '../web/settings.js';
import { webChecks } from '../web/run-checks.js';
import type { WebServer } from '../web/server.js';
import { safeUserName } from './startup.js';
import { tightenFolder } from '../storage/private-files.js';

/**
 * The web front door, next to the terminal chat or Discord (WEB_PORT=0 turns it off). Prints its
 * address and the owner's login link on stdout (never into the log: the link holds the token).
 */
export async function startWebApp(
  config: Config,
  app: Pick<App, 'assistant' | 'store' | 'privateStore' | 'model'> & {
    mcp?: McpToolSource;
    ingest?: IngestStatus;
    time?: Pick<App['time'], 'reminders' | 'outbox'> & Partial<Pick<App['time'], 'calendar'>>;
    machines?: App['machines'];
    sync?: App['sync'];
  },
  logger: Logger,
  speech: { stt?: SpeechToText; tts?: TextToSpeech },
  out: NodeJS.WritableStream = process.stdout,
): Promise<WebServer | null> {
  if (config.WEB_PORT === 0) return null;
  // the web server (Hono, the client build) is loaded only when the web app is on
  const [{ startWeb }, { WebAuth }, { WebTimeOutbox }] = await Promise.all([import('../web/server.js'), import('../web/auth.js'), import('../web/outbox.js')]);
  const webTime = app.time ? { desk: app.time.reminders, outbox: new WebTimeOutbox() } : undefined;
  if (app.time && webTime) app.time.outbox.add(isWebPlace, webTime.outbox, 'web');
  const files = dataFiles(config.dataDir);
  const { stt, tts } = speech;
  const web = await startWeb(
    {
      assistant: app.assistant,
      auth: new WebAuth({ ownerToken: config.WEB_TOKEN, ownerName: safeUserName(), tokenFile: files.webToken, secretFile: files.webSecret, sessionDays: config.WEB_SESSION_DAYS }),
      logger: logger.child({ component: 'web' }),
      assistantName: config.ASSISTANT_NAME,
      version: charlieVersion(),
      acceptsImages: app.model.acceptsImages,
      speech: {
        ...(stt ? { transcribe: (audio: Uint8Array, mime: string, signal?: AbortSignal) => transcribeVoiceMessage(stt, audio, mime, { language: config.STT_LANGUAGE, signal }) } : {}),
        ...(tts ? { speak: speakerOf(guardSpeech(tts, (text) => app.assistant.conversation.speechMustStayLocal(null, text))) } : {}),
      },
      clientDir: files.webClient,
      host: config.WEB_HOST,
      port: config.WEB_PORT,
      publicUrl: config.WEB_PUBLIC_URL,
      extraHosts: config.WEB_ALLOWED_HOSTS,
      ...(app.mcp ? { toolServers: () => mcpLines(app.mcp!) } : {}),
      mcpServer: memoryEndpoint(memoryServerOptions(config, app, 'web')),
      trustedProxies: config.WEB_TRUSTED_PROXY,
      settings: () => settingsView(config, app.time?.calendar?.servers() ?? []),
      ...(app.ingest ? { ingest: app.ingest } : {}),
      runChecks: webChecks(config),
      ...(webTime ? { time: webTime } : {}),
      ...(app.machines ? { machines: app.machines } : {}),
      sync: app.sync ?? null,
    },
    logger.child({ component: 'web' }),
  );
  if (!web) {
    out.write(`! web app not started: port ${config.WEB_PORT} on ${config.WEB_HOST} is taken (set WEB_PORT; 0 turns it off)\n`);
    return null;
  }
  // the owner token, the session secret and the client build it just wrote are private like the rest of data/
  tightenFolder(config.dataDir);
  for (const w of web.warnings) out.write(`! ${w}\n`);
  out.write(`web app: ${web.url}  ·  sign in on this device: ${web.ownerLoginUrl}\n`);
  return web;
}

/** The web's Read aloud speaks through the same speech guard as voice channels. */
function speakerOf(tts: TextToSpeech): (text: string, signal?: AbortSignal) => Promise<SynthesizedAudio> {
  return (text, signal) => tts.synthesize(text, { signal });
}

/** Charlie's memory as an MCP server: for `npm run mcp` and the web app's /api/mcp. */
export function memoryServerOptions(config: Config, app: Pick<App, 'assistant' | 'store'>, clientName: string): MemoryServerOptions {
  return { assistant: app.assistant, locality: config.MCP_SERVER_LOCALITY, defaultProject: config.MCP_SERVER_PROJECT, version: charlieVersion(), clientName };
}

/** One line per MCP tool server and per problem in its config (for /help and the web settings). */
export function mcpLines(mcp: McpToolSource): string[] {
  return [...mcp.status().map(statusLine), ...mcp.problems.map((p) => `config problem: ${p}`)];
}
