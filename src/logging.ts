/** pino, with secrets redacted; message text and transcripts are logged only at debug level. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pino from 'pino';
import type { Logger } from './core/ports.js';

export const REDACT_PATHS = [
  'token',
  'apiKey',
  'authorization',
  'password',
  '*.token',
  '*.apiKey',
  '*.authorization',
  '*.password',
  'headers.authorization',
  'config.DISCORD_TOKEN',
  'config.LLM_API_KEY',
  'DISCORD_TOKEN',
  'LLM_API_KEY',
];

/** To stderr (Discord mode) or to a file (terminal chat, so logs do not interleave with the conversation). */
export function createLogger(level: string, file?: string): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { app: 'charlie' } };
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    return pino(options, pino.destination({ dest: file, sync: false, mkdir: true })) as unknown as Logger;
  }
  return pino(options, pino.destination(2)) as unknown as Logger;
}
