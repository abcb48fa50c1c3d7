/**
 * A damaged data/private.db (issue 13, item 4): a corrupt header stopped Charlie for everyone
 * with a raw stack trace, and damaged pages made every DM fail. Now the file is named, projects
 * keep working, DMs say how to recover, and no step that loses DM memory is suggested silently.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../../src/core/place.js';
import { PrivateMemoryError, SqlitePrivateStore } from '../../../src/storage/private-store.js';
import { general, makeAssistant, msg } from '../../support/assistant-fixture.js';
import { ScriptedChatModel } from '../../support/fakes.js';
import { tempDirs } from '../../support/temp-dir.js';

const newDir = tempDirs('charlie-dm-damaged-');
const tempDb = (): string => join(newDir(), 'private.db');

const dm: Place = { kind: 'private', userId: 'u1', userName: 'Ann' };
const entry = (i: number) => ({ time: '2026-11-29T10:00:00.000Z', speaker: 'Ann', source: `discord:${i}`, text: `${'private note '.repeat(20)}${i}`, role: 'user' as const });

/** Every step that moves or deletes the file must say that it loses DM memory. */
function expectHonestRecovery(text: string, path: string) {
  expect(text).toContain(path);
  expect(text).toMatch(/projects keep working/i);
  expect(text).toMatch(/\.recover/);
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    if (/\b(move|delete|remove|rename)\b/i.test(sentence) && !/copy/i.test(sentence)) expect(sentence).toMatch(/los(e|es|t|ing)\b.*(DM|private)/i);
  }
}

describe('a damaged private.db', () => {
  it('a corrupt header: the store opens, names the file and how to recover; projects answer, DMs explain', async () => {
    const path = tempDb();
    writeFileSync(path, Buffer.alloc(8192, 7));
    const store = new SqlitePrivateStore(path);
    expect(store.problem).toBeInstanceOf(PrivateMemoryError);
    expectHonestRecovery(store.problem?.message ?? '', path);
    expect(() => store.recentMessages('u1', 5)).toThrow(PrivateMemoryError);

    const model = new ScriptedChatModel(() => ({ text: 'Hello!' }));
    const { assistant } = makeAssistant({ model, privateStore: store });
    expect((await assistant.conversation.handle(msg('hi', general))).reply).toBe('Hello!');
    const reply = await assistant.conversation.handle(msg('hi', dm));
    expect(reply.reason).toBe('error');
    // A reply never shows host paths: the file is named, its folder is not.
    expectHonestRecovery(reply.reply, 'private.db');
    expect(reply.reply).not.toContain(tmpdir());
    store.close();
    // The damaged file is left exactly as it was.
    expect(readFileSync(path).equals(Buffer.alloc(8192, 7))).toBe(true);
  });

  it('damaged pages: every DM explains what is wrong instead of failing; projects answer', async () => {
    const path = tempDb();
    const before = new SqlitePrivateStore(path);
    for (let i = 0; i < 1500; i++) before.appendMessage(i % 2 ? 'u1' : 'u2', entry(i));
    before.close();
    const bytes = readFileSync(path);
    for (let off = 4096 * 3; off < bytes.length - 4096 * 3; off += 4096) bytes.fill(0xab, off, off + 100);
    writeFileSync(path, bytes);

    const store = new SqlitePrivateStore(path);
    const model = new ScriptedChatModel(() => ({ text: 'Hello!' }));
    const { assistant } = makeAssistant({ model, privateStore: store });
    const reply = await assistant.conversation.handle(msg('what did I tell you?', dm));
    expect(reply.reason).toBe('error');
    expectHonestRecovery(reply.reply, 'private.db');
    expect((await assistant.conversation.handle(msg('hi', general))).reply).toBe('Hello!');
    store.close();
  });
});
