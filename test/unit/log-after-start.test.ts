/**
 * The terminal chat's logger before pino is loaded (src/app/log-after-start.ts): what is logged
 * before the prompt is written once it is started, in order, under its child's bindings, with the
 * time it was logged, through the real logger's levels and redaction.
 */
import { describe, expect, it } from 'vitest';
import { loggerAfterStart } from '../../src/app/log-after-start.js';
import { createLogger } from '../../src/logging.js';
import { RecordingSink } from '../support/recording-sink.js';

describe('a logger started after the prompt', () => {
  it('keeps what is logged before it starts and writes it in order, with bindings, levels and redaction, then writes at once', async () => {
    const sink = new RecordingSink();
    let opened = 0;
    const later = loggerAfterStart(async () => {
      opened++;
      return createLogger('info', sink);
    });
    const llm = later.logger.child({ component: 'llm' });
    later.logger.info('first');
    llm.warn({ apiKey: 'key-123', status: 503 }, 'second');
    later.logger.debug({ text: 'below the level' }, 'hidden');
    llm.child({ attempt: 2 }).error(new Error('third'));
    expect(sink.logText).toBe('');

    await Promise.all([later.start(), later.start()]);
    expect(opened).toBe(1);
    const lines = sink.logText
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.msg)).toEqual(['first', 'second', 'third']);
    expect(lines[1]).toMatchObject({ component: 'llm', status: 503, apiKey: '[redacted]' });
    expect(lines[2]).toMatchObject({ component: 'llm', attempt: 2, err: { message: 'third' } });
    for (const l of lines) expect(Date.parse(String(l.loggedAt))).toBeGreaterThan(0);
    expect(sink.logText).not.toContain('key-123');

    llm.info('after');
    const last = JSON.parse(sink.logText.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(last).toMatchObject({ msg: 'after', component: 'llm' });
    expect(last.loggedAt).toBeUndefined();
  });

  it('drops what it kept, and all that follows, when the log cannot be opened', async () => {
    const later = loggerAfterStart(() => Promise.reject(new Error('EACCES: logs/')));
    later.logger.info('kept until then');
    await expect(later.start()).rejects.toThrow('EACCES');
    expect(() => later.logger.child({ component: 'llm' }).warn('after')).not.toThrow();
    await expect(later.start()).rejects.toThrow('EACCES');
  });
});
