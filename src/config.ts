/**
 * Every setting, in one zod schema, read once from the environment and `.env`.
 * Nothing else reads process.env. `.env.example` mirrors this file, a comment per variable.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { availableParallelism, hostname } from 'node:os';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { ConfigError } from './core/errors.js';
import { DEADLINE_TABLE, OUTSIDE_SERVICES, type Deadlines } from './core/ports/deadlines.js';
import { CONSENT_MODES } from './core/privacy/consent.js';
import { PRECHECK_MODES } from './core/turn/precheck.js';
import { isLocalHost, publicUrl, urlIsLocal } from './llm/locality.js';
import { applySettingsFile, type LiveKey } from './settings-file.js';
import { remoteIsLocal } from './sync/remote-locality.js';

export { isLocalHost };

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'expected true or false' }).transform((v) => ['true', '1', 'yes', 'on'].includes(v));
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const num = (min: number, max: number) => z.coerce.number().min(min).max(max);
/** A comma-separated list, trimmed and lower-cased (ids and addresses alike), each item matching `item`. */
const commaList = (item: RegExp, message: string) =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(item, message)));
const idList = commaList(/^\d{5,25}$/, 'expected comma-separated numeric Discord ids');
const url = z
  .string()
  .regex(/^https?:\/\/[^\s/]+/, 'expected a URL such as http://localhost:1234/v1')
  .pipe(z.url('expected a URL such as http://localhost:1234/v1'));
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const configSchema = z.object({
  // which model answers: an OpenAI-compatible server, or the embedded one (llama.cpp in this process)
  LLM_PROVIDER: z.enum(['auto', 'server', 'embedded']).default('auto'),
  EMBEDDED_MODEL: z
    .string()
    .regex(/^(hf:[\w.-]+\/[\w.-]+(\/[^\s]+\.gguf|:[\w.-]+)|https?:\/\/\S+\.gguf(\?\S*)?)$/, 'expected hf:OWNER/REPO/FILE.gguf, hf:OWNER/REPO:QUANT or an https URL of a .gguf file')
    .default('hf:unsloth/Qwen3-4B-Instruct-2507-GGUF/Qwen3-4B-Instruct-2507-Q4_K_M.gguf'),
  EMBEDDED_MODEL_PATH: optional(z.string()),
  EMBEDDED_CONTEXT_SIZE: int(512, 262_144).default(8192),
  EMBEDDED_GPU: z.enum(['auto', 'off', 'cuda', 'vulkan', 'metal']).default('auto'),
  EMBEDDED_GPU_LAYERS: z
    .string()
    .regex(/^(auto|max|\d{1,4})$/, 'expected auto, max or a number of layers')
    .transform((v) => (v === 'auto' || v === 'max' ? v : Number(v)))
    .default('auto'),
  EMBEDDED_THREADS: int(0, 256).default(0),
  EMBEDDED_MAX_TOKENS: int(16, 65_536).default(2048),

  // model server
  LLM_BASE_URL: url.default('http://localhost:1234/v1'),
  LLM_MODEL: z.string().min(1).default('local-model'),
  LLM_API_KEY: optional(z.string()),
  LLM_LOCALITY: z.enum(['auto', 'local', 'hosted']).default('auto'),
  LLM_TIMEOUT_MS: int(1000, 3_600_000).default(DEADLINE_TABLE.model.ms),
  LLM_CONNECT_TIMEOUT_MS: int(100, 600_000).default(10_000),
  LLM_MAX_RETRIES: int(0, 10).default(2),
  LLM_TEMPERATURE: num(0, 2).default(0.4),
  LLM_ACCEPTS_IMAGES: bool.default(false),
  LLM_MAX_TOKENS: int(64, 200_000).default(4096),

  // the memory lane: the local model that writes permanent memory
  MEMORY_LLM_BASE_URL: optional(url),
  MEMORY_LLM_MODEL: optional(z.string().min(1)),
  MEMORY_LLM_API_KEY: optional(z.string()),
  MEMORY_LLM_LOCALITY: z.enum(['auto', 'local']).default('auto'),

  // storage
  PROJECTS_DIR: z.string().min(1).default('./projects'),
  DATA_DIR: z.string().min(1).default('./data'),

  // the turn
  TURN_MAX_STEPS: int(1, 50).default(6),
  TURN_MAX_TOOL_CALLS: int(0, 100).default(12),
  TURN_DEADLINE_MS: int(1000, 3_600_000).default(180_000),
  HISTORY_MESSAGES: int(0, 200).default(20),
  DISTILL_EVERY: int(1, 1000).default(5),
  ASSISTANT_NAME: z.string().min(1).max(40).default('Charlie'),
  OWNER_NAME: optional(z.string().trim().min(1).max(40)),
  REPLY_MAX_CHARS: int(200, 200_000).default(12_000),
  DISTILL_BATCH_CHARS: int(2000, 2_000_000).default(24_000),
  DISTILL_DEADLINE_MS: int(1000, 3_600_000).default(300_000),

  // reflection: the memory lane curates the pages between turns
  REFLECT_ENABLED: bool.default(true),
  REFLECT_QUIET_MINUTES: int(1, 10_080).default(30),
  REFLECT_INTERVAL_HOURS: int(1, 8760).default(24),
  REFLECT_REPORT: z.enum(['log', 'channel']).default('log'),
  REFLECT_MAX_PAGES: int(1, 10_000).default(50),
  REFLECT_DEADLINE_MS: int(1000, 3_600_000).default(300_000),

  // backups: npm run backup, and the scheduled one while Charlie runs
  BACKUP_DIR: z.string().min(1).default('./backups'),
  BACKUP_EVERY_HOURS: int(0, 8760).default(0),
  BACKUP_KEEP: int(1, 1000).default(7),
  BACKUP_AGE_RECIPIENT: optional(z.string().regex(/^age1[0-9a-z]+$/, 'an age public key starts with age1')),
  // sync across the household's devices (docs/sync.md): git to a repository the household owns
  SYNC_REMOTE: optional(z.string().min(1)),
  SYNC_ENCRYPT_TO: optional(z.string().regex(/^[0-9A-Fa-f]{16,40}$|^[^\s@]+@[^\s@]+$/, 'a GPG key id, fingerprint or e-mail address')),
  /** Where SYNC_REMOTE is: auto decides from its address (a folder here, or a host on your network, is local); a hosted remote must be encrypted (SYNC_ENCRYPT_TO). */
  SYNC_LOCALITY: z.enum(['auto', 'local', 'hosted']).default('auto'),
  SYNC_DEVICE: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9][\w.-]{0,62}$/, 'letters, digits, dots, dashes, underscores')
      .default(
        hostname()
          .replace(/[^\w.-]/g, '-')
          .replace(/^[^A-Za-z0-9]+/, '')
          .slice(0, 63) || 'device',
      ),
  ),
  SYNC_EVERY_MINUTES: int(0, 10080).default(15),
  SYNC_BACKGROUND: bool.default(true),
  SYNC_SSH_COMMAND: optional(z.string().min(1)),
  // time: the scheduler (reminders, commitment follow-ups, calendar polls, morning briefs, the scheduled backup, reflection)
  SCHEDULER_ENABLED: bool.default(true),
  /** Due jobs delivered at the same time at most; each has its own deadline, so a stuck one holds only its own slot. */
  SCHEDULER_CONCURRENCY: int(1, 64).default(4),
  /** One CalDAV request or .ics download (headers and body together) gives up after this long. */
  CALENDAR_TIMEOUT_MS: int(1000, 600_000).default(DEADLINE_TABLE.calendar.ms),
  /** One command on an SSH host gives up after this long. */
  SSH_TIMEOUT_MS: int(1000, 3_600_000).default(DEADLINE_TABLE.ssh.ms),
  /** One sync run (git or Syncthing) gives up after this long. */
  SYNC_TIMEOUT_MS: int(1000, 3_600_000).default(DEADLINE_TABLE.sync.ms),
  /** The time zone of whoever has not set their own (/remind zone); empty = the machine's. */
  TZ: z
    .string()
    .default('')
    .transform((v) => v.trim() || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')
    .refine((v) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: v });
        return true;
      } catch {
        return false;
      }
    }, 'expected an IANA time zone such as Europe/Berlin'),

  /** The hour (in TZ) of the morning after a commitment's due day, when Charlie asks whether it happened. */
  FOLLOW_UP_HOUR: int(0, 23).default(9),
  /** Minutes between two polls of a subscribed calendar (an unchanged one costs one small request). */
  CALENDAR_POLL_MINUTES: int(1, 59).default(15),
  /**
   * Where subscribed calendars' servers run: `auto` decides by each address (loopback, a private
   * range, *.local, *.lan … are local); `local` declares them all yours (your own Nextcloud on a
   * public name); `hosted` counts every one as leaving the machine. A sensitive event is never
   * written to a hosted one.
   */
  CALENDAR_LOCALITY: z.enum(['auto', 'local', 'hosted']).default('auto'),
  /** Calendar credentials by handle: `family=ann:app-password;work=ann@example.com:secret`; a subscription names only the handle. */
  CALENDAR_SECRETS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const out: Record<string, { username: string; password: string }> = {};
      for (const part of v
        .split(';')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^([A-Za-z0-9_-]+)=([^:]*):(.*)$/.exec(part);
        if (!m) {
          ctx.addIssue({ code: 'custom', message: 'expected handle=user:password entries separated by ;' });
          return z.NEVER;
        }
        out[m[1]!] = { username: m[2]!, password: m[3]! };
      }
      return out;
    }),

  // retrieval
  EMBEDDER: z.enum(['auto', 'transformers', 'openai', 'builtin']).default('auto'),
  EMBEDDING_MODEL: z.string().min(1).default('Xenova/all-MiniLM-L6-v2'),
  EMBEDDING_MODEL_DIR: optional(z.string()),
  EMBEDDING_BASE_URL: optional(url),
  /** Where EMBEDDING_BASE_URL runs: `auto` decides from its address, as for the model lanes. A hosted embedder never gets sensitive text. */
  EMBEDDING_LOCALITY: z.enum(['auto', 'local', 'hosted']).default('auto'),
  RECALL_VECTOR_WEIGHT: num(0, 1).default(0.7),
  RECALL_KEYWORD_WEIGHT: num(0, 1).default(0.3),
  RECALL_USAGE_WEIGHT: num(0, 1).default(0.3),
  RECALL_MIN_SIMILARITY: num(0, 1).default(0.35),
  WATCH_PROJECTS: bool.default(true),
  EMBEDDING_API_KEY: optional(z.string()),
  EMBEDDING_TIMEOUT_MS: int(1000, 3_600_000).default(DEADLINE_TABLE.embedder.ms),
  EMBEDDING_QUERY_PREFIX: optional(z.string()),
  RECALL_CONTEXT_WEIGHT: num(0, 1).default(0.8),
  RECALL_CONTEXT_MESSAGES: int(0, 10).default(2),
  RECALL_RECENCY_WEIGHT: num(0, 1).default(0.1),
  RECALL_ENTITY_WEIGHT: num(0, 5).default(0.6),
  RECALL_HOP_WEIGHT: num(0, 1).default(0.15),
  RECALL_CANDIDATES: int(10, 1000).default(100),
  INDEX_CPU_THREADS: int(0, 256).default(0),
  CHARLIE_MEMORY_BUDGET: int(32, 65_536).default(256),

  // discord
  DISCORD_TOKEN: optional(z.string().min(20, 'a Discord bot token is longer than that — copy it from the Bot tab')),
  DISCORD_APPLICATION_ID: optional(z.string().regex(/^\d{5,25}$/)),
  DISCORD_DEV_GUILD_ID: optional(z.string().regex(/^\d{5,25}$/)),
  DISCORD_API_URL: optional(url),
  DISCORD_ALLOWED_GUILDS: idList.default([]),
  DISCORD_ALLOWED_USERS: idList.default([]),
  DISCORD_EDIT_INTERVAL_MS: int(250, 10_000).default(1000),
  DISCORD_ATTACHMENT_MAX_BYTES: int(1000, 5_000_000).default(100_000),
  DISCORD_IMAGE_MAX_BYTES: int(1000, 50_000_000).default(5_000_000),
  DISCORD_ATTACHMENT_TIMEOUT_MS: int(1000, 600_000).default(15_000),
  DISCORD_REPLY_MAX_MESSAGES: int(1, 50).default(5),
  DISCORD_MEMORY_EDITOR_ROLE: optional(z.string().min(1).max(100)),

  // voice
  VOICE_WAKE_NAME: z.string().min(1).max(40).default('Charlie'),
  VOICE_WAKE_RULE: z.enum(['auto', 'always', 'never']).default('auto'),
  VOICE_SILENCE_MS: int(200, 10_000).default(1500),
  VOICE_MIN_SPEECH_MS: int(50, 5000).default(350),
  VOICE_BARGE_IN: bool.default(true),
  VOICE_BARGE_IN_MS: int(50, 5000).default(250),
  VOICE_TURN_DETECTION: z.enum(['auto', 'rules', 'model', 'off']).default('auto'),
  VOICE_TURN_PAUSE_MS: int(150, 3000).default(400),
  VOICE_TURN_MODEL: optional(z.string()),
  VOICE_TURN_MODEL_THRESHOLD: num(0.05, 0.95).default(0.5),
  VOICE_MAX_UTTERANCE_MS: int(3000, 120_000).default(30_000),
  VOICE_MAX_NO_SPEECH_MS: int(1000, 120_000).default(10_000),
  STT: z.enum(['auto', 'transformers', 'openai']).default('auto'),
  STT_MODEL: z.string().min(1).default('Xenova/whisper-base.en'),
  STT_MODEL_DIR: optional(z.string()),
  STT_BASE_URL: optional(url),
  /** Where STT_BASE_URL runs: `auto` decides from its address. It only ever receives the speaker's own voice. */
  STT_LOCALITY: z.enum(['auto', 'local', 'hosted']).default('auto'),
  TTS: z.enum(['edge', 'local']).default('edge'),
  TTS_VOICE: z.string().min(1).default('en-US-AvaMultilingualNeural'),
  TTS_TIMEOUT_MS: int(500, 60_000).default(DEADLINE_TABLE.tts.ms),
  STT_SERVER_MODEL: z.string().min(1).default('whisper-1'),
  STT_API_KEY: optional(z.string()),
  STT_TIMEOUT_MS: int(1000, 600_000).default(DEADLINE_TABLE.stt.ms),
  VOICE_MESSAGE_DOWNLOAD_TIMEOUT_MS: int(1000, 600_000).default(30_000),
  STT_LANGUAGE: optional(z.string().regex(/^[a-z]{2,3}$/, 'expected a language code such as en or de')),
  STT_ALLOW_DOWNLOAD: bool.default(true),
  STT_DTYPE: z.enum(['q8', 'fp32', 'fp16', 'q4']).default('q8'),
  TTS_LOCAL_VOICE: z.string().min(1).default('en-us'),
  VOICE_EMPTY_LEAVE_MS: int(0, 3_600_000).default(30_000),

  // web app
  WEB_HOST: z.string().min(1).default('127.0.0.1'),
  WEB_PORT: int(0, 65535).default(3210),
  WEB_TOKEN: optional(z.string().min(16, 'a web token needs at least 16 characters — or leave it empty to have one generated')),
  WEB_PUBLIC_URL: optional(url),
  WEB_ALLOWED_HOSTS: commaList(/^[a-z0-9.[\]:-]+$/, 'expected comma-separated host names, e.g. charlie.example-tailnet.ts.net').default([]),
  WEB_SESSION_DAYS: int(1, 365).default(30),
  WEB_TRUSTED_PROXY: commaList(/^[0-9a-f.:[\]]+$/, 'expected comma-separated IP addresses of your reverse proxy, e.g. 127.0.0.1,::1').default([]),

  // MCP (docs/mcp.md): tool servers Charlie uses, and Charlie's memory as a server for other agents
  MCP_CONFIG: optional(z.string().min(1)),
  MCP_MAX_TOOL_DEFINITIONS: int(1, 256).default(24),
  MCP_CALL_TIMEOUT_MS: int(1000, 3_600_000).default(DEADLINE_TABLE.mcp.ms),
  MCP_START_TIMEOUT_MS: int(1000, 300_000).default(20_000),
  MCP_SERVER_LOCALITY: z.enum(['hosted', 'local']).default('hosted'),
  MCP_SERVER_PROJECT: z.string().min(1).default('general'),

  // asking in the moment (docs/privacy.md): before a sensitive item goes to a hosted service, its person says yes (ask) or it never goes (withhold)
  CONSENT_MODE: z.enum(CONSENT_MODES).default('withhold'),
  CONSENT_TIMEOUT_MS: int(5000, 600_000).default(60_000),
  // the local memory lane judges each message before anything leaves (auto: when a destination that gets it before distillation is hosted)
  PRIVACY_PRECHECK: z.enum(PRECHECK_MODES).default('auto'),
  PRIVACY_PRECHECK_TIMEOUT_MS: int(500, 120_000).default(4000),
  PRIVACY_PRECHECK_CONTEXT: int(0, 40).default(8),

  // machines over SSH (docs/machines.md): every connection and every command ends at this deadline
  SSH_ENABLED: bool.default(true),
  SSH_MAX_OUTPUT_BYTES: int(1000, 1_000_000).default(16_000),

  // logging
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** The server of the memory lane (distillation, extraction, promotion, reflection): always local. */
export interface MemoryLaneSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** `memory` when MEMORY_LLM_* set it, `chat` when it reuses the (local) chat settings. */
  from: 'memory' | 'chat';
}

export type Config = z.infer<typeof configSchema> & {
  /** Whether the chat model runs on the owner's machine (explicit, or from the host). */
  llmLocal: boolean;
  /** null when the chat model is hosted and no local memory model is set: nothing writes memory. */
  memoryLane: MemoryLaneSettings | null;
  /** Every outside service's deadline (src/core/ports/deadlines.ts), from its setting. */
  deadlines: Deadlines;
  projectsDir: string;
  dataDir: string;
  /** The settings DATA_DIR/settings.json (changed in the web app) set over .env and the environment. */
  fromSettingsFile: LiveKey[];
};

export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const dotenvPath = resolve(cwd, '.env');
  const fileVars = existsSync(dotenvPath) ? parseEnv(readFileSync(dotenvPath, 'utf8')) : {};
  const merged: Record<string, string | undefined> = { ...fileVars };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) merged[k] = v;
  const fromSettingsFile = applySettingsFile(merged, resolve(cwd, merged.DATA_DIR || './data'));
  // read once: without zod's compiled fast path, whose code for 150 settings costs ~50 ms of a start to write and compile
  const parsed = configSchema.safeParse(merged, { jitless: true });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '?');
      return `  ${name}: ${issue.message} (got ${JSON.stringify(redactIfSecret(name, merged[name]))}) — fix it in .env or the environment; see .env.example`;
    });
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  checkSyncRemote(c);
  const llmLocal = urlIsLocal(c.LLM_BASE_URL, c.LLM_LOCALITY);
  return { ...c, llmLocal, memoryLane: memoryLane(c, llmLocal), deadlines: deadlinesOf(c), projectsDir: resolve(cwd, c.PROJECTS_DIR), dataDir: resolve(cwd, c.DATA_DIR), fromSettingsFile };
}

/** The deadline table with each service's setting applied. */
export function deadlinesOf(c: Record<string, unknown>): Deadlines {
  return Object.fromEntries(OUTSIDE_SERVICES.map((s) => [s, Number(c[DEADLINE_TABLE[s].setting] ?? DEADLINE_TABLE[s].ms)])) as Deadlines;
}

function redactIfSecret(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/TOKEN|KEY|SECRET|PASSWORD/.test(name)) return `<${value.length} characters>`;
  // A URL may carry a password (https://user:pass@host): never echo it.
  return value.replace(/[^\s/@]*:[^\s/@]*@/g, '[credentials removed]@');
}

/**
 * The sync remote receives the whole Markdown memory, sensitive pages included, so one on a
 * machine the household does not own must hold only ciphertext (git-remote-gcrypt): a hosted
 * remote without SYNC_ENCRYPT_TO is refused at start, like a hosted memory lane.
 */
function checkSyncRemote(c: z.infer<typeof configSchema>): void {
  if (!c.SYNC_REMOTE || c.SYNC_ENCRYPT_TO || remoteIsLocal(c.SYNC_REMOTE, c.SYNC_LOCALITY)) return;
  throw new ConfigError(
    `invalid configuration:\n  SYNC_REMOTE: ${publicUrl(c.SYNC_REMOTE)} is on a machine this household may not own (hosted), and sync sends it every page, sensitive ones included — set SYNC_ENCRYPT_TO to your GPG key so it holds only ciphertext (docs/sync.md), or SYNC_LOCALITY=local if that machine is yours`,
  );
}

/**
 * The memory lane: MEMORY_LLM_* when set (refused at start unless local), otherwise the chat
 * settings when those are local, otherwise none (a hosted chat model never writes memory).
 */
function memoryLane(c: z.infer<typeof configSchema>, chatLocal: boolean): MemoryLaneSettings | null {
  if (c.MEMORY_LLM_BASE_URL) {
    if (!urlIsLocal(c.MEMORY_LLM_BASE_URL, c.MEMORY_LLM_LOCALITY)) {
      throw new ConfigError(
        `invalid configuration:\n  MEMORY_LLM_BASE_URL: ${publicUrl(c.MEMORY_LLM_BASE_URL)} is a hosted address, and the memory lane writes permanent memory, so it accepts only a local model — point it at a server on this machine or your network (LM Studio, Ollama), or set MEMORY_LLM_LOCALITY=local if that server is yours`,
      );
    }
    const lane: MemoryLaneSettings = { baseUrl: c.MEMORY_LLM_BASE_URL, model: c.MEMORY_LLM_MODEL ?? (chatLocal ? c.LLM_MODEL : 'local-model'), from: 'memory' };
    const key = c.MEMORY_LLM_API_KEY ?? (chatLocal && c.MEMORY_LLM_BASE_URL === c.LLM_BASE_URL ? c.LLM_API_KEY : undefined);
    if (key) lane.apiKey = key;
    return lane;
  }
  if (!chatLocal) {
    if (c.MEMORY_LLM_MODEL)
      throw new ConfigError('invalid configuration:\n  MEMORY_LLM_MODEL is set but MEMORY_LLM_BASE_URL is not, and the chat server is hosted — set MEMORY_LLM_BASE_URL to your local server');
    return null;
  }
  const lane: MemoryLaneSettings = { baseUrl: c.LLM_BASE_URL, model: c.MEMORY_LLM_MODEL ?? c.LLM_MODEL, from: 'chat' };
  const key = c.MEMORY_LLM_API_KEY ?? c.LLM_API_KEY;
  if (key) lane.apiKey = key;
  return lane;
}

/**
 * LanceDB sizes its CPU thread pool from LANCE_CPU_THREADS when it first needs it. With fewer
 * than 4 threads its full-text index build deadlocks once a table holds ~50k chunks (measured
 * on a 2-core machine), so at least 4 are used unless the owner set the variable. Call once,
 * before the search index is opened. INDEX_CPU_THREADS=0 means max(4, CPU count).
 */
export function applyIndexRuntime(config: Pick<Config, 'INDEX_CPU_THREADS'>, env: Record<string, string | undefined> = process.env): void {
  if (env.LANCE_CPU_THREADS) return;
  env.LANCE_CPU_THREADS = String(config.INDEX_CPU_THREADS || Math.max(4, availableParallelism()));
}

/** The environment of a child process (git for sync): this process's, with `extra` on top. */
export function childEnvironment(extra: Record<string, string> = {}, env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  return { ...env, ...extra };
}
