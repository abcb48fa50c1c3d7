/** A logger that keeps every line as text, errors as the real logger writes them (message, stack, cause), so a test can search the lines for what must never be logged. */
import type { Logger } from '../../src/core/ports/index.js';

const errors = (_key: string, value: unknown) => (value instanceof Error ? { type: value.name, message: value.message, stack: value.stack, cause: value.cause } : value);

export function recordingLogger(lines: string[]): Logger {
  const log = (level: string) => (obj: object | string, msg?: string) => void lines.push(`${level} ${JSON.stringify(obj, errors)} ${msg ?? ''}`);
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), child: () => logger };
  return logger;
}
