/**
 * The web front door and what it shares with the MCP server, started by the composition root
 * (src/main.ts): the web app's wiring, Read aloud through the speech guard, and the lines that
 * describe the MCP tool servers.
 */
import type { App } from './app.js';
import type { Config } from '../config.js';
import { dataFiles } from '../data-files.js';
import { charlieVersion } from '../version.js';
import type { Logger, SynthesizedAudio, TextToSpeech } from '../core/ports/index.js';
import type { LiveSpeech } from './live-settings.js';
import type { IngestStatus } from '../core/writing/ingest-status.js';
import { guardSpeech } from '../core/privacy/egress.js';
import type { Place } from '../core/place.js';
import { transcribeVoiceMessage } from '../speech/voice-message.js';
import { statusLine, type McpToolSource } from '../mcp/client/source.js';
import { memoryEndpoint } from '../mcp/server/memory-http.js';
import type { MemoryServerOptions } from '../mcp/server/memory-server.js';
import { isWebPlace } from '../time/outbox-router.js';
import { settingsView } from '../web/settings.js';
import { webChecks } from '../web/run-checks.js';
import type { WebServer } from '../web/server.js';
import type { FileIntake } from '../web/web-deps.js';
import { ownerName } from './startup.js';
import { tightenFolder } from '../storage/private-files.js';
import { dirname, join } from 'node:path';

/**
 * The web front door, next to the terminal chat or Discord (WEB_PORT=0 turns it off). Prints its
 * address and the owner's login link on stdout (never into the log: the link holds the token).
 */
export async function startWebApp(
  config: Config,
  app: Pick<App, 'assistant' | 'store' | 'privateStore' | 'model'> & {
    settings?: App['settings'];
    mcp?: McpToolSource;
    ingest?: IngestStatus & Partial<FileIntake>;
    time?: Pick<App['time'], 'reminders' | 'outbox'> & Partial<Pick<App['time'], 'calendar'>>;
    machines?: App['machines'];
    sync?: App['sync'];
  },
  logger: Logger,
  speech: LiveSpeech,
  out: NodeJS.WritableStream = process.stdout,
): Promise<WebServer | null> {
  if (config.WEB_PORT === 0) return null;
  // the web server (Hono, the client build) is loaded only when the web app is on
  const [{ startWeb }, { WebAuth }, { WebTimeOutbox }, { MemberBook }] = await Promise.all([
    import('../web/server.js'),
    import('../web/auth.js'),
    import('../web/outbox.js'),
    import('../web/members.js'),
  ]);
  const webTime = app.time ? { desk: app.time.reminders, outbox: new WebTimeOutbox() } : undefined;
  if (app.time && webTime) app.time.outbox.add(isWebPlace, webTime.outbox, 'web');
  const files = dataFiles(config.dataDir);
  const { stt, tts } = speech;
  // a damaged members file turns passkeys off (and says so) rather than the web app, and is kept as it is
  let members: InstanceType<typeof MemberBook> | undefined;
  try {
    members = new MemberBook(join(dirname(files.webSecret), 'members.json'));
  } catch (err) {
    out.write(`! web app: household members and passkeys are off: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  // the voice is read through the live settings at each Read aloud (Settings may have changed it)
  const live = app.settings;
  live?.attachSpeech(speech);
  const voice = () => (live ? live.tts() : tts);
  const guarded = (place: Place | null, text: string) => app.assistant.conversation.speechMustStayLocal(place, text);
  const web = await startWeb(
    {
      assistant: app.assistant,
      auth: new WebAuth({ ownerToken: config.WEB_TOKEN, ownerName: ownerName(config.OWNER_NAME), tokenFile: files.webToken, secretFile: files.webSecret, sessionDays: config.WEB_SESSION_DAYS }),
      logger: logger.child({ component: 'web' }),
      assistantName: config.ASSISTANT_NAME,
      version: charlieVersion(),
      acceptsImages: app.model.acceptsImages,
      speech: {
        ...(stt ? { transcribe: (audio: Uint8Array, mime: string, signal?: AbortSignal) => transcribeVoiceMessage(stt, audio, mime, { language: config.STT_LANGUAGE, signal }) } : {}),
        ...(stt && live ? { listening: () => live.listening() } : {}),
        ...(tts ? { speak: speakerOf(voice, guarded) } : {}),
      },
      clientDir: files.webClient,
      host: config.WEB_HOST,
      port: config.WEB_PORT,
      publicUrl: config.WEB_PUBLIC_URL,
      extraHosts: config.WEB_ALLOWED_HOSTS,
      ...(app.mcp ? { toolServers: () => mcpLines(app.mcp!) } : {}),
      mcpServer: memoryEndpoint(memoryServerOptions(config, app, 'web')),
      trustedProxies: config.WEB_TRUSTED_PROXY,
      settings: () =>
        settingsView(
          live?.current() ?? config,
          app.time?.calendar?.servers() ?? [],
          live ? { embedderFallback: live.embedderFallback, listening: live.listening(), voice: live.view(true).voice.engine } : {},
        ),
      ...(live ? { liveSettings: live } : {}),
      ...(app.ingest ? { ingest: app.ingest } : {}),
      ...(app.ingest?.add ? { files: { add: app.ingest.add.bind(app.ingest) } } : {}),
      runChecks: webChecks(config),
      ...(webTime ? { time: webTime } : {}),
      ...(app.machines ? { machines: app.machines } : {}),
      sync: app.sync ?? null,
      // the members the owner invited and their passkeys, next to the owner token (never under projects/)
      ...(members ? { members: { book: members, ...(config.WEB_PUBLIC_URL ? { publicUrl: config.WEB_PUBLIC_URL } : {}) } } : {}),
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

/**
 * Read aloud: the voice of the moment (Settings may have changed it), through the same speech
 * guard as voice channels; the voice is chosen for each text by where it was said (its stored label).
 */
function speakerOf(
  voice: () => TextToSpeech | undefined,
  mustStayLocal: (place: Place | null, text: string) => Promise<boolean>,
): (text: string, signal?: AbortSignal, place?: Place | null) => Promise<SynthesizedAudio> {
  return (text, signal, place) => {
    const tts = voice();
    if (!tts) return Promise.reject(new Error('text-to-speech is not set up'));
    return guardSpeech(tts, (t) => mustStayLocal(place ?? null, t)).synthesize(text, { signal });
  };
}

/** Charlie's memory as an MCP server: for `npm run mcp` and the web app's /api/mcp. */
export function memoryServerOptions(config: Config, app: Pick<App, 'assistant' | 'store'>, clientName: string): MemoryServerOptions {
  return { assistant: app.assistant, locality: config.MCP_SERVER_LOCALITY, defaultProject: config.MCP_SERVER_PROJECT, version: charlieVersion(), clientName };
}

/** One line per MCP tool server and per problem in its config (for /help and the web settings). */
export function mcpLines(mcp: McpToolSource): string[] {
  return [...mcp.status().map(statusLine), ...mcp.problems.map((p) => `config problem: ${p}`)];
}
