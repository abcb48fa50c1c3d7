/**
 * Calendar credentials stay out of memory and logs (issue 27). The whole app (buildApp, a
 * recording logger, a fake clock) subscribes in a DM to an `.ics` address on 127.0.0.1 that
 * needs a password: given inside the URL it is refused and not kept; given as a handle
 * (CALENDAR_SECRETS) the calendar is polled by the scheduler — once answered, once failing —
 * and afterwards no log line, reply, Markdown file or file under data/ (schedule.db,
 * private.db …) holds the password.
 */
import { createServer } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { askerFor } from '../../src/core/time/reminder-desk.js';
import { buildApp } from '../../src/main.js';
import { calendarCommand } from '../../src/terminal/time.js';
import { FixedClock } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';
import { recordingLogger } from '../support/recording-logger.js';

const PASSWORD = 'Cal-Canary-7f3e9b';
const tmp = tempDirs('charlie-calcred-');
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** Every file under `dir` that holds `needle` (as bytes: SQLite files too). */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const full = join(dir, name);
    if (statSync(full).isFile() && readFileSync(full).includes(needle)) found.push(name);
  }
  return found;
}

describe('calendar credentials', () => {
  it('are refused inside an address, and a handle’s password reaches no log, reply or file', async () => {
    let fail = false;
    let authorised = 0;
    const server = createServer((req, res) => {
      const ok = req.headers.authorization === `Basic ${Buffer.from(`ann:${PASSWORD}`).toString('base64')}`;
      if (ok) authorised++;
      if (!ok) return void res.writeHead(401).end();
      if (fail) return void res.writeHead(500).end();
      res
        .writeHead(200, { 'content-type': 'text/calendar' })
        .end(
          'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:a@x\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261203T170000Z\r\nSUMMARY:Parents evening\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
        );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => void server.close());
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    const dir = tmp();
    const config = loadConfig(
      {
        PROJECTS_DIR: join(dir, 'projects'),
        DATA_DIR: join(dir, 'data'),
        EMBEDDER: 'builtin',
        TTS: 'local',
        WEB_PORT: '0',
        WATCH_PROJECTS: 'false',
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        LLM_MAX_RETRIES: '0',
        CALENDAR_SECRETS: `school=ann:${PASSWORD}`,
      },
      dir,
    );
    const logs: string[] = [];
    const clock = new FixedClock(new Date('2026-12-01T10:00:00Z'));
    const app = await buildApp(config, recordingLogger(logs), undefined, undefined, clock);
    closers.push(() => app.close());
    const dm = { kind: 'private' as const, userId: '123456789012', userName: 'Ann' };
    const replies: string[] = [];
    const run = async (args: string) => {
      const out = await calendarCommand(args, app.time.calendar, dm, 'Ann');
      replies.push(out);
      return out;
    };

    // inside the address: refused, and nothing of it kept
    const refused = await run(`subscribe School http://ann:${PASSWORD}@127.0.0.1:${port}/school.ics`);
    expect(refused).toMatch(/^Not subscribed: that address holds a user name or password/);
    expect(app.time.calendar.subscriptions(askerFor(dm, 'Ann', dm.userId))).toEqual([]);

    // by handle: polled by the scheduler, the event becomes a private record
    expect(await run(`subscribe School http://127.0.0.1:${port}/school.ics school`)).toMatch(/^Subscribed to School/);
    await app.time.tick();
    expect(authorised).toBe(1);
    expect(app.privateStore.records.list(dm.userId, clock.now()).map((r) => r.statement)).toEqual([expect.stringContaining('Parents evening')]);
    // a failing poll is logged, without the password
    fail = true;
    clock.advance(16 * 60_000);
    await app.time.tick();
    expect(authorised).toBe(2);
    expect(logs.some((l) => l.includes('HTTP 500'))).toBe(true);
    replies.push(await run('list'), await run('poll'));

    const leak = [...logs, ...replies].find((l) => l.includes(PASSWORD));
    expect(leak).toBeUndefined();
    expect(filesHolding(join(dir, 'data'), PASSWORD)).toEqual([]);
    expect(filesHolding(join(dir, 'projects'), PASSWORD)).toEqual([]);
  }, 60_000);
});
