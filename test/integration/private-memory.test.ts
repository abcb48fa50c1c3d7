/**
 * Your private memory is yours to delete: /private forget (an item, a message range, with
 * tombstones) and /private wipe, on the real SQLite file (opened directly by the test), and
 * through the fake Discord (a wipe button pressed by someone else is refused).
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { systemClock } from '../../src/core/ports/index.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { tempPrivateStores } from '../support/private-db.js';
import { botHarnesses, firstCallback, subcommand } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { ScriptedChatModel } from '../support/fakes.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const dana: Place = { kind: 'private', userId: '1001', userName: 'Dana' };
const eve: Place = { kind: 'private', userId: '1002', userName: 'Eve' };
const reply = JSON.stringify({ summary: 'Dana plans a move.', decisions: [{ text: 'Sell the old car before moving', message: 1 }], quotes: [] });

const newPrivateStore = tempPrivateStores('charlie-private-');

function setup() {
  const { privateStore, file } = newPrivateStore();
  const memory = new ScriptedChatModel(() => ({ text: reply }));
  const { assistant } = makeAssistant({ model: memory, privateStore, clock: systemClock });
  const say = async (place: Place, text: string) =>
    assistant.conversation.handle({ place, speaker: place.kind === 'private' ? place.userName : 'x', text, source: `dm:${Math.random()}`, reply: false });
  const rows = () => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const count = (table: string, user: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`).get(user) as { n: number }).n;
      const tables = ['dm_messages', 'dm_memory', 'dm_tombstones'];
      return { dana: tables.map((t) => count(t, '1001')), eve: tables.map((t) => count(t, '1002')) };
    } finally {
      db.close();
    }
  };
  return { assistant, privateStore, say, rows };
}

describe('private memory is yours to delete', () => {
  it('/private wipe leaves no row of that user in private.db; other users are untouched', async () => {
    const t = setup();
    await t.say(dana, 'I will sell the old car before moving');
    await t.say(eve, 'my own private thing');
    await t.assistant.memory.distillNow(dana);
    await t.assistant.memory.distillNow(eve);
    await t.assistant.private.forgetPrivate(dana, { kind: 'decision', index: 1 });
    const before = t.rows();
    expect(before.dana.every((n) => n > 0)).toBe(true);
    expect(before.eve[0]).toBe(1);
    expect(await t.assistant.private.wipePrivate(dana)).toBe(true);
    const after = t.rows();
    expect(after.dana).toEqual([0, 0, 0]);
    expect(after.eve).toEqual(before.eve);
    expect((await t.assistant.private.privateMemory(eve))?.messages.count).toBe(1);
    // a project place cannot wipe anything
    expect(await t.assistant.private.wipePrivate({ kind: 'project', origin: { name: 'general', key: 'terminal:general' } })).toBe(false);
  });

  it('/private forget: a decision stays forgotten when its messages are distilled again; a message range goes with what came from it', async () => {
    const t = setup();
    await t.say(dana, 'I will sell the old car before moving');
    await t.assistant.memory.distillNow(dana);
    expect((await t.assistant.private.privateMemory(dana))?.layers.decisions.map((d) => d.text)).toEqual(['Sell the old car before moving']);
    const out = await t.assistant.private.forgetPrivate(dana, { kind: 'decision', index: 1 });
    expect(out.forgotten).toBe(true);
    // replay: the same message again, the same distillation reply
    await t.say(dana, 'I will sell the old car before moving');
    await t.assistant.memory.distillNow(dana);
    expect((await t.assistant.private.privateMemory(dana))?.layers.decisions).toEqual([]);
    expect(t.privateStore.tombstones('1001')[0]).toMatchObject({ kind: 'decision', description: expect.stringMatching(/^private decision of/) });
    expect(JSON.stringify(t.privateStore.tombstones('1001'))).not.toContain('old car');

    const gone = await t.assistant.private.forgetPrivate(dana, { kind: 'messages', lastN: 1 });
    expect(gone).toMatchObject({ forgotten: true, messages: 1 });
    expect((await t.assistant.private.privateMemory(dana))?.messages.count).toBe(1);
  });
});

describe('/private through Discord', () => {
  const startHarness = botHarnesses();

  it('wipe asks first; only the owner of that memory can confirm; in a channel it refuses', async () => {
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant });
    const dm = h.fake.dmChannel(h.alice);
    const ask = h.fake.runCommand(dm, h.alice, 'private', subcommand('wipe'));
    const cb = await firstCallback(h, ask);
    const buttons = ((cb.data as Json).components as Json[]).flatMap((r) => r.components as Json[]);
    const yes = String(buttons.find((b) => String(b.custom_id).includes(':yes:'))!.custom_id);
    expect(yes).toBe(`private-wipe:yes:${h.alice.id}`);
    const message = { id: 'w1', channel_id: dm.id, content: '', components: (cb.data as Json).components };

    // someone else presses the button (e.g. the owner, in their own DM): refused, nothing wiped
    const ownerDm = h.fake.dmChannel(h.fake.owner);
    const byOwner = await firstCallback(h, h.fake.pressButton(ownerDm, h.fake.owner, message, yes));
    expect(String((byOwner.data as Json).content)).toMatch(/Only the person whose private memory this is/);
    expect(assistant.wiped).toEqual([]);

    const confirmed = await firstCallback(h, h.fake.pressButton(dm, h.alice, message, yes));
    expect(confirmed.type).toBe(7);
    expect(assistant.wiped).toEqual([h.alice.id]);

    const inGuild = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'private', subcommand('show')));
    expect(String((inGuild.data as Json).content)).toMatch(/only shown, forgotten or wiped in a DM/);
  });
});
