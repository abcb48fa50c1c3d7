/**
 * The terminal chat's logger, whose pino (a CommonJS package of 29 modules, about 50 ms of CPU to
 * import) is loaded once the prompt is shown: what is logged before is kept in order, each line
 * with the time it was logged (`loggedAt`), and written through pino then, its levels, redaction
 * and scrubbing applied as to any other line.
 */
import { silentLogger, type Logger } from '../core/ports/index.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
interface Held {
  path: Record<string, unknown>[];
  level: Level;
  obj: object | string;
  msg: string | undefined;
  at: string;
}

export interface LoggerAfterStart {
  logger: Logger;
  /** Loads the real logger and writes what was kept; once, however often called. If it cannot be opened, what was kept and what follows is dropped. */
  start(): Promise<void>;
}

export function loggerAfterStart(open: () => Promise<Logger>): LoggerAfterStart {
  const held: Held[] = [];
  let real: Logger | null = null;
  const make = (path: Record<string, unknown>[]): Logger => {
    let bound: Logger | null = null;
    const target = (): Logger | null => (real ? (bound ??= path.reduce<Logger>((l, b) => l.child(b), real)) : null);
    const log =
      (level: Level) =>
      (obj: object | string, msg?: string): void => {
        const to = target();
        if (!to) held.push({ path, level, obj, msg, at: new Date().toISOString() });
        else if (msg === undefined) to[level](obj);
        else to[level](obj, msg);
      };
    return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), child: (bindings) => make([...path, bindings]) };
  };
  let started: Promise<void> | null = null;
  return {
    logger: make([]),
    start: () =>
      (started ??= open().then(write, (error: unknown) => {
        real = silentLogger;
        held.length = 0;
        throw error;
      })),
  };

  function write(opened: Logger): void {
    real = opened;
    for (const h of held.splice(0)) {
      const to = h.path.reduce<Logger>((l, b) => l.child(b), opened);
      if (typeof h.obj === 'string') to[h.level]({ loggedAt: h.at }, h.obj);
      else if (h.obj instanceof Error) to[h.level]({ err: h.obj, loggedAt: h.at }, h.msg ?? h.obj.message);
      else if (h.msg === undefined) to[h.level]({ ...h.obj, loggedAt: h.at });
      else to[h.level]({ ...h.obj, loggedAt: h.at }, h.msg);
    }
  }
}
