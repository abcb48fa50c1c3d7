/**
 * pino, with privacy enforced at the logger rather than at each call site:
 * - keys, tokens, passwords and headers are censored by path (pino `redact`), always;
 * - every string logged (message, fields, error messages) loses URL credentials and anything
 *   shaped like a credential (`removeSecrets`), always;
 * - message and model text (fields such as `text`, `body`, `reply`, `messages`, `query`) is
 *   written only at `debug`; at `info` and above it becomes "[N characters; shown at debug]";
 * - any other value the sensitivity rules label (a project or page named after a diagnosis, a
 *   court case) is written only at `debug` too (seventh outside sweep: a project's name, "… custody
 *   battle", was in the log at info);
 * - a name a person chose (a project, a page, a calendar, an ingested source: NAME_KEYS, and the
 *   folder after `projects/` in any path or error) is written at info and above as a pseudonym,
 *   `[name 3fa2c1]`, the same for the same name: the rules label a name only when its words are in
 *   their table, and the memory lane's verdict comes after the line that created it (eighth outside
 *   sweep: a project's name reached the log at info before the lane labelled it); at debug, as it is;
 * - the same holds for a child logger's bindings (`logger.child({ project })`), which pino writes
 *   without the hook every call goes through.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pino from 'pino';
import type { Logger } from './core/ports/index.js';
import { removeSecrets } from './core/privacy/secrets.js';
import { classifyText } from './core/privacy/sensitivity.js';

export const REDACT_PATHS = [
  'token',
  'apiKey',
  'authorization',
  'password',
  'cookie',
  '*.token',
  '*.apiKey',
  '*.authorization',
  '*.password',
  '*.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["api-key"]',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers["api-key"]',
  '*.headers.cookie',
  'config.DISCORD_TOKEN',
  'config.LLM_API_KEY',
  'config.MEMORY_LLM_API_KEY',
  'config.EMBEDDING_API_KEY',
  'config.STT_API_KEY',
  'DISCORD_TOKEN',
  'LLM_API_KEY',
  'MEMORY_LLM_API_KEY',
];

/** Fields that carry what people said or what a model wrote: only at debug. */
export const MODEL_TEXT_KEYS = new Set(['text', 'content', 'body', 'reply', 'raw', 'messages', 'prompt', 'transcript', 'query', 'args', 'input', 'output', 'arguments']);

/** Fields that carry a name a person chose (a project's slug, a page's title, a calendar's name, an ingested source, a search table named after its project): a pseudonym above debug. */
export const NAME_KEYS = new Set(['project', 'slug', 'target', 'page', 'title', 'name', 'calendar', 'source', 'user', 'key', 'handle', 'table']);

/**
 * Fields whose values Charlie itself chooses (counts, kinds, reasons, ids, durations, its own file
 * paths and settings): written as they are, after the secret and sensitivity scrub every string
 * gets. A field logged under a key in none of the three sets fails `test/unit/log-fields.test.ts`,
 * so a new field is placed by what it carries.
 */
export const CHARLIE_KEYS = new Set(
  `err bot component kind count model reason dropped waiting tts embedder stt status path paths file job url shardId server rejected promoted ms kinds fallback written withheld why waitedMs voice userId guildId total tools tool timeoutMs time subcommand command action saved review retryAfter retry replayed removed remembered rejoins rejections refused redacted quotes decisions progress problem present percent owners of notes next moved module mode messageId locality local line distilled events guilds commands files speechMs sttMs pauseMs crashes aside added cancelled loaded loadMs gpu contextSize chatTemplate step service what behindMs forgotten attempts final deadlineMs history kept created updated facts refreshed links issues code interactionId channelId llama delayMs length lines at baseUrl changed dir engine failures host into series port`.split(
    ' ',
  ),
);

const DEBUG = 20;

/** The same short pseudonym for the same name: lines about one project can still be followed. */
function pseudonym(name: string): string {
  return `[name ${createHash('sha256').update(name).digest('hex').slice(0, 6)}]`;
}

/** Any path's folder under `projects/` (an error's message, a stack, a `path` field) is a project's name. */
const PROJECT_FOLDER = /(projects[\\/])([^\\/\s'"`,)]+)/g;

/** `text` with each project folder's name as its pseudonym, above debug. */
function withoutFolders(text: string, level: number): string {
  return level <= DEBUG ? text : text.replace(PROJECT_FOLDER, (_m, pre: string, name: string) => pre + pseudonym(name));
}

/** A log value made safe for `level`: credentials always removed, message text only at debug. */
export function scrubForLog(value: unknown, level: number, depth = 0): unknown {
  if (typeof value === 'string') {
    const text = removeSecrets(value).text;
    if (level <= DEBUG) return text;
    return classifyText(text)?.sensitivity === 'sensitive' ? `[${text.length} characters, labelled sensitive; shown at debug]` : withoutFolders(text, level);
  }
  if (value instanceof Error) {
    const out: Record<string, unknown> = { type: value.name, message: withoutFolders(removeSecrets(value.message).text, level) };
    // What classifies it (a ModelError's kind, an HTTP status, a Node or Discord error code) and what caused it.
    for (const key of ['kind', 'status', 'code'] as const) {
      const v: unknown = (value as unknown as Record<string, unknown>)[key];
      if (typeof v === 'string' || typeof v === 'number') out[key] = v;
    }
    // the stack at every level: a warning that cannot say where it came from is not worth logging
    if (value.stack) out.stack = withoutFolders(removeSecrets(value.stack).text, level);
    if (value.cause !== undefined && depth < 4) out.cause = scrubForLog(value.cause, level, depth + 1);
    return out;
  }
  if (!value || typeof value !== 'object' || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => scrubForLog(v, level, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (level > DEBUG && MODEL_TEXT_KEYS.has(key) && v !== undefined && v !== null && typeof v !== 'number' && typeof v !== 'boolean') {
      out[key] = `[${typeof v === 'string' ? v.length : JSON.stringify(v).length} characters; shown at debug]`;
    } else if (level > DEBUG && NAME_KEYS.has(key) && typeof v === 'string') {
      out[key] = pseudonym(v);
    } else out[key] = scrubForLog(v, level, depth + 1);
  }
  return out;
}

/**
 * To stderr (Discord mode), to a file (terminal chat, so logs do not interleave with the
 * conversation), or to a stream given by the caller (tests record the lines).
 */
export function createLogger(level: string, destination?: string | pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { app: 'charlie' },
    // errors are already plain objects here (scrubForLog: type, message, kind, status, code, cause);
    // pino's default err serializer would relabel them as type "Object" with an empty stack
    serializers: { err: (value: unknown) => value },
    hooks: {
      logMethod(args, method, methodLevel) {
        const safe = (args as unknown[]).map((a) => scrubForLog(a, methodLevel));
        method.apply(this, safe as Parameters<typeof method>);
      },
    },
  };
  if (typeof destination === 'string') {
    // the log can hold message text at debug level: private to this account, like all of data/
    mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
    // Synchronous: an asynchronous file destination that is still opening when the process
    // exits throws "sonic boom is not ready yet" from pino's exit hook, hiding the real error.
    return scrubbedChildren(pino(options, pino.destination({ dest: destination, sync: true, mkdir: true, mode: 0o600 })));
  }
  return scrubbedChildren(pino(options, destination ?? pino.destination(2)));
}

const INFO = 30;

/** `logger` whose children (and theirs: pino makes a child from its parent's prototype) get their bindings scrubbed as a line at info is: they are written at every level. */
function scrubbedChildren(logger: pino.Logger): pino.Logger {
  type Child = (this: unknown, bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => unknown;
  const original = Reflect.get(logger, 'child') as Child;
  const scrubbed: Child = function (bindings, options) {
    return original.call(this, scrubForLog(bindings, INFO) as pino.Bindings, options);
  };
  Reflect.set(logger, 'child', scrubbed);
  return logger;
}
