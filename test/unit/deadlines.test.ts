/**
 * The one table of deadlines: every outside service in it has a setting in the schema whose
 * default is the table's, mirrored in .env.example, and the setting changes config.deadlines.
 * withDeadline ends a call at its deadline even when the call ignores its signal, names the
 * service and how long, and logs it. Cases are generated from the table itself, so a service
 * added to it without a setting fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../src/config.js';
import { DEADLINE_TABLE, DeadlineError, OUTSIDE_SERVICES, withDeadline } from '../../src/core/ports/deadlines.js';
import type { Logger } from '../../src/core/ports/index.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-deadlines-');
const envExample = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');

function recording(lines: object[]): Logger {
  const l: Logger = { debug: () => {}, info: () => {}, warn: (o) => void lines.push(typeof o === 'string' ? { msg: o } : o), error: () => {}, child: () => l };
  return l;
}

describe('the deadline table', () => {
  it('lists every service the issue names (model, embedder, STT, TTS, calendar, MCP, SSH, sync)', () => {
    expect([...OUTSIDE_SERVICES].sort()).toEqual(['calendar', 'embedder', 'mcp', 'model', 'ssh', 'stt', 'sync', 'tts']);
  });

  for (const service of OUTSIDE_SERVICES) {
    const { setting, ms } = DEADLINE_TABLE[service];
    it(`${service}: ${setting} defaults to the table's ${ms} ms, is in .env.example, and changes config.deadlines`, () => {
      expect(Object.keys(configSchema.shape)).toContain(setting);
      expect(envExample).toMatch(new RegExp(`^${setting}=${ms}$`, 'm'));
      expect(loadConfig({}, tmp()).deadlines[service]).toBe(ms);
      const changed = ms + 1000;
      expect(loadConfig({ [setting]: String(changed) }, tmp()).deadlines[service]).toBe(changed);
    });
  }
});

/** Services in the table whose adapters other helpers are still building: their deadline is ready for them. */
const NOT_BUILT_YET = new Set<string>([]);

function sourceTexts(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceTexts(p) : p.endsWith('.ts') && !/src[\\/](config\.ts|core[\\/]ports[\\/]deadlines\.ts)$/.test(p) ? [readFileSync(p, 'utf8')] : [];
  });
}

describe('every service of the table has its deadline wired', () => {
  const src = sourceTexts('src').join('\n');
  for (const service of OUTSIDE_SERVICES) {
    const { setting } = DEADLINE_TABLE[service];
    it(`${service}: an adapter reads ${setting} or config.deadlines.${service}${NOT_BUILT_YET.has(service) ? ' (once it exists)' : ''}`, () => {
      const wired = src.includes(`config.${setting}`) || src.includes(`deadlines.${service}`);
      expect(wired).toBe(!NOT_BUILT_YET.has(service));
    });
  }
});

describe('withDeadline', () => {
  it('ends a call that never answers and ignores its signal, names the service and the time, and logs it', async () => {
    const lines: object[] = [];
    const started = Date.now();
    const err = await withDeadline('calendar', 150, () => new Promise<never>(() => {}), { logger: recording(lines), what: 'poll' }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as DeadlineError).service).toBe('calendar');
    expect((err as DeadlineError).ms).toBe(150);
    expect(String(err)).toMatch(/calendar.*150 ms.*CALENDAR_TIMEOUT_MS/);
    expect(lines).toEqual([expect.objectContaining({ service: 'calendar', ms: 150, what: 'poll' })]);
  });

  it('aborts the signal it handed out, with the DeadlineError as the reason', async () => {
    let seen: AbortSignal | null = null;
    await withDeadline('mcp', 50, (signal) => {
      seen = signal;
      return new Promise<never>(() => {});
    }).catch(() => {});
    expect(seen!.aborted).toBe(true);
    expect(seen!.reason).toBeInstanceOf(DeadlineError);
  });

  it('passes a result through in time, and the caller’s own abort is not called a deadline', async () => {
    expect(await withDeadline('model', 1000, () => Promise.resolve(42))).toBe(42);
    const outer = new AbortController();
    const pending = withDeadline('model', 5000, () => new Promise<never>(() => {}), { signal: outer.signal }).catch((e: unknown) => e);
    outer.abort(new Error('the turn was cancelled'));
    const err = await pending;
    expect(err).not.toBeInstanceOf(DeadlineError);
    expect(String(err)).toMatch(/cancelled/);
  });
});
