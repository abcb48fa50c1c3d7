import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

async function logged(level: string, write: (log: ReturnType<typeof createLogger>) => void): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-log-'));
  dirs.push(dir);
  const file = join(dir, 'logs', 'charlie.log');
  const log = createLogger(level, file);
  write(log);
  await new Promise((r) => setTimeout(r, 50));
  (log as unknown as { flush(cb?: () => void): void }).flush();
  await new Promise((r) => setTimeout(r, 50));
  return readFileSync(file, 'utf8');
}

describe('logging', () => {
  it('redacts secrets wherever they appear in a log object', async () => {
    const text = await logged('info', (log) => {
      log.info({ config: { DISCORD_TOKEN: 'tok-123', LLM_API_KEY: 'key-456' }, apiKey: 'key-789', headers: { authorization: 'Bearer abc' } }, 'start');
      log.child({ component: 'llm' }).warn({ token: 'tok-999' }, 'retry');
    });
    expect(text).toContain('start');
    expect(text).toContain('retry');
    for (const secret of ['tok-123', 'key-456', 'key-789', 'Bearer abc', 'tok-999']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

  it('message text logged at debug does not appear at info', async () => {
    const text = await logged('info', (log) => log.debug({ text: 'my private message' }, 'message'));
    expect(text).not.toContain('my private message');
    const debug = await logged('debug', (log) => log.debug({ text: 'my private message' }, 'message'));
    expect(debug).toContain('my private message');
  });
});
