/**
 * How the web app reads a place's archive for its conversations (src/web/conversations.ts): the
 * whole archive once, then only its newest entries joined where they meet the kept read; read
 * whole again when they do not meet (more new entries than the tail holds) or after a minute.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../src/core/ports/index.js';
import { WebConversations } from '../../src/web/conversations.js';
import { TraceStore } from '../../src/web/trace-store.js';

const dir = mkdtempSync(join(tmpdir(), 'charlie-entries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (i: number): LogEntry => ({ time: new Date(Date.UTC(2026, 11, 1) + i * 1000).toISOString(), speaker: 'Ann', role: 'user', text: `m${i}`, source: `web:${i}` });

describe('reading a place’s archive for its conversations', () => {
  it('reads it whole once, then only its newest entries, and whole again when they do not meet or a minute has passed', async () => {
    const log = Array.from({ length: 1000 }, (_, i) => entry(i));
    const reads: number[] = [];
    const archive = {
      recentLog: (_slug: string, n: number) => {
        reads.push(n);
        return Promise.resolve(log.slice(-n));
      },
      recentMessages: () => [],
    };
    let now = 0;
    const c = new WebConversations(archive, new TraceStore(join(dir, 'turns')), join(dir, 'conversations'), () => now);
    const w = { userId: 'u', project: 'p', at: { slug: 'p', place: { kind: 'private', userId: 'u', userName: 'u' } as never } };
    const texts = async () => (await c.entries(w)).map((e) => e.text);
    expect(await texts()).toHaveLength(1000);
    log.push(entry(1000), entry(1001));
    expect((await texts()).slice(-3)).toEqual(['m999', 'm1000', 'm1001']);
    expect(await texts()).toHaveLength(1002);
    // more new entries than the tail holds: read whole again, nothing skipped
    for (let i = 1002; i < 1500; i++) log.push(entry(i));
    expect(await texts()).toEqual(log.map((e) => e.text));
    const whole = reads.filter((n) => n > 1000).length;
    expect(whole).toBe(2);
    // a minute later (an entry may have been redacted by Forget): whole again
    log.splice(3, 1);
    now += 61_000;
    expect(await texts()).toEqual(log.map((e) => e.text));
    expect(reads.filter((n) => n > 1000).length).toBe(3);
  });
});
