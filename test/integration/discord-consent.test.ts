/**
 * Asking in the moment on Discord (issue 40), on the real discord.js client against the fake
 * Discord server: in a shared channel the question goes to the asker's DMs and the channel sees
 * only a line without item names; only the asker can answer; Once / Always / No reach the turn;
 * no answer in time, the turn ending, or closed DMs are `no`; in a DM it is asked in place.
 */
import { describe, expect, it } from 'vitest';
import type { ConsentItem } from '../../src/core/privacy/consent.js';
import { CONSENT_PREFIX, discordConsentAsk } from '../../src/discord/consent-ask.js';
import { FakeAssistant, type ScriptedTurn } from '../support/fake-assistant.js';
import { botHarnesses, type BotHarness } from '../support/fake-discord/bot-harness.js';
import type { FakeChannel, Json } from '../support/fake-discord/server.js';

const start = botHarnesses();

const content = (m: Json) => String(m.content ?? '');
const buttons = (m: Json) => ((m.components as Json[] | undefined) ?? []).flatMap((row) => (row.components as Json[] | undefined) ?? []);
const isQuestion = (m: Json) => buttons(m).some((b) => String(b.custom_id).startsWith(`${CONSENT_PREFIX}:`));

const medication: ConsentItem = { id: 'r-med001', where: 'People/Alice', name: 'medication', kind: 'phi', subject: 'alice' };
const salary: ConsentItem = { id: 'r-pay001', where: 'People/Alice', name: 'salary', kind: 'financial', subject: 'alice' };
const SERVICE = { kind: 'chat', id: 'gpt-4o@api.openai.com' } as const;

/** A turn that asks once about Alice's two items, then replies. */
function asking(extra: Partial<NonNullable<ScriptedTurn['consent']>> = {}): FakeAssistant {
  // the turn's own line, as the core writes it: naming the items in a DM, counting them in a shared place
  const line = (shared: boolean) =>
    `sent to the chat model (gpt-4o@api.openai.com) for this answer: ${shared ? '2 items alice was asked about' : 'People/Alice › medication (health); People/Alice › salary (money)'}`;
  return new FakeAssistant((m) => ({ consent: { items: [medication, salary], service: SERVICE, timeoutMs: 20_000, ...extra }, reply: 'done', notices: [line(m.place.kind === 'project')] }));
}

async function questionIn(h: BotHarness, channel: FakeChannel): Promise<Json> {
  return h.fake.waitFor(() => h.fake.botMessagesIn(channel.id).find(isQuestion), 15_000, 'the consent question');
}

async function answered(h: BotHarness, assistant: FakeAssistant): Promise<void> {
  await h.fake.waitFor(() => assistant.consentAnswers.length > 0, 15_000, 'the turn told');
}

function mentionIn(h: BotHarness, channel: FakeChannel, text = 'what did the doctor say?'): void {
  h.fake.postMessage(channel, h.alice, `<@${h.fake.bot.id}> ${text}`, { mentions: [h.fake.bot] });
}

describe('Discord: asking in the moment', () => {
  for (const [label, answer] of [
    ['Once', 'once'],
    ['Always for these', 'always'],
    ['No', 'no'],
  ] as const) {
    it(`in a shared channel the question goes to the asker's DMs; ${label} → ${answer}`, async () => {
      const assistant = asking();
      const h = await start({ assistant });
      mentionIn(h, h.general);
      const dm = h.fake.dmChannel(h.alice);
      const asked = await questionIn(h, dm);
      expect(content(asked)).toContain('People/Alice › medication (health)');
      expect(content(asked)).toContain('People/Alice › salary (money)');
      expect(content(asked)).toContain('the chat model');
      expect(content(asked)).toContain('gpt-4o@api.openai.com');
      expect(content(asked)).toContain('#general');
      expect(buttons(asked).map((b) => b.label)).toEqual(['Once', 'Always for these', 'No']);
      // the channel sees that a DM went, never what it is about
      const line = await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id).find((m) => content(m).includes('in a DM')), 15_000, 'the channel line');
      expect(content(line)).toContain('alice');
      expect(h.fake.botMessagesIn(h.general.id).some(isQuestion)).toBe(false);

      const button = String(buttons(asked).find((b) => b.label === label)!.custom_id);
      const other = h.fake.pressButton(dm, h.bob, asked, button);
      await h.fake.waitFor(() => other.callbacks[0], 15_000, "the other person's press answered");
      expect(other.callbacks[0]).toMatchObject({ type: 4, data: { content: expect.stringContaining('Only the person this is about') } });
      expect(assistant.consentAnswers).toEqual([]);

      const press = h.fake.pressButton(dm, h.alice, asked, button);
      await answered(h, assistant);
      expect(assistant.consentAnswers).toEqual([answer]);
      // the press is the turn's (an update of the question), not the router's "expired"
      await h.fake.waitFor(() => press.callbacks[0], 15_000, 'the press answered');
      expect(press.callbacks[0]).toMatchObject({ type: 7 });
      const shown = h.fake.messages.get(String(asked.id))!;
      expect(buttons(shown)).toEqual([]);
      expect(content(shown)).toMatch(answer === 'no' ? /no — kept back/ : answer === 'once' ? /once — sent for this answer/ : /always — sent now and from now on/);
      const reply = await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id).find((m) => content(m).startsWith('done')), 15_000, 'the reply');
      await h.bot.idle();
      // the turn's line stays, without the items asked about by DM
      // what the turn's line says in a shared place is the core's (it counts the items there):
      // discord-consent-real.test.ts follows it through the real composition
      expect(content(h.fake.messages.get(String(reply.id))!)).toContain('sent to the chat model (gpt-4o@api.openai.com) for this answer');
      for (const m of h.fake.botMessagesIn(h.general.id)) expect(content(m)).not.toMatch(/medication|salary|People\//);
    }, 60_000);
  }

  it('the turn is told who answers, with their role in the server (the editor role makes an editor)', async () => {
    const assistant = new FakeAssistant();
    const h = await start({ assistant, guildRoles: [{ id: '990011223344556677', name: 'Editors' }], config: { DISCORD_MEMORY_EDITOR_ROLE: 'Editors' } });
    h.bob.roles = ['990011223344556677'];
    mentionIn(h, h.general, 'hello');
    await h.fake.waitFor(() => assistant.consentAccess.length === 1, 15_000, 'the first turn');
    h.fake.postMessage(h.general, h.bob, `<@${h.fake.bot.id}> hi`, { mentions: [h.fake.bot] });
    await h.fake.waitFor(() => assistant.consentAccess.length === 2, 15_000, 'the second turn');
    h.fake.postMessage(h.fake.dmChannel(h.bob), h.bob, 'hi');
    await h.fake.waitFor(() => assistant.consentAccess.length === 3, 15_000, 'the DM turn');
    await h.bot.idle();
    const [alice, bob, dm] = assistant.consentAccess;
    expect(alice).toMatchObject({ person: { id: h.alice.id, name: 'alice', role: 'member' }, shared: true });
    expect(bob).toMatchObject({ person: { id: h.bob.id, name: 'bob', role: 'editor' }, shared: true });
    // in a DM the items are the person's own: no server role is looked up
    expect(dm).toMatchObject({ person: { id: h.bob.id, role: 'member' }, shared: false });
  }, 60_000);

  it('no answer in time is no, and the question says so', async () => {
    const assistant = asking({ timeoutMs: 400 });
    const h = await start({ assistant });
    mentionIn(h, h.general);
    const asked = await questionIn(h, h.fake.dmChannel(h.alice));
    await answered(h, assistant);
    expect(assistant.consentAnswers).toEqual(['no']);
    await h.fake.waitFor(() => content(h.fake.messages.get(String(asked.id))!).includes('no answer in time'), 15_000, 'the question edited');
    expect(buttons(h.fake.messages.get(String(asked.id))!)).toEqual([]);
  }, 60_000);

  it('the turn ending (Stop, its deadline) while the question is open is no', async () => {
    const assistant = asking({ endAfterMs: 500 });
    const h = await start({ assistant });
    mentionIn(h, h.general);
    const asked = await questionIn(h, h.fake.dmChannel(h.alice));
    await answered(h, assistant);
    expect(assistant.consentAnswers).toEqual(['no']);
    await h.fake.waitFor(() => content(h.fake.messages.get(String(asked.id))!).includes('the turn ended first'), 15_000, 'the question edited');
    // a press after the end changes nothing
    expect(buttons(h.fake.messages.get(String(asked.id))!)).toEqual([]);
  }, 60_000);

  it('closed DMs: the answer is no, and the channel line says the DM could not be sent, without item names', async () => {
    const assistant = asking();
    const h = await start({ assistant });
    h.fake.closedDms.add(h.alice.id);
    mentionIn(h, h.general);
    await answered(h, assistant);
    expect(assistant.consentAnswers).toEqual(['no']);
    const line = await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id).find((m) => content(m).includes('could not send them a DM')), 15_000, 'the channel line');
    expect(content(line)).not.toMatch(/medication|salary|People\//);
    expect(h.fake.botMessagesIn(h.fake.dmChannel(h.alice).id)).toEqual([]);
  }, 60_000);

  it('in a DM conversation it is asked in place, and nothing is posted in a server channel', async () => {
    const assistant = asking();
    const h = await start({ assistant });
    const dm = h.fake.dmChannel(h.alice);
    h.fake.postMessage(dm, h.alice, 'what did the doctor say?');
    const asked = await questionIn(h, dm);
    expect(content(asked)).not.toContain('#');
    h.fake.pressButton(dm, h.alice, asked, String(buttons(asked).find((b) => b.label === 'Once')!.custom_id));
    await answered(h, assistant);
    expect(assistant.consentAnswers).toEqual(['once']);
    expect(assistant.consentAccess[0]).toMatchObject({ person: { id: h.alice.id }, shared: false });
    await h.bot.idle();
    // her own DM: the turn's line names the items
    expect(h.fake.botMessagesIn(dm.id).some((m) => content(m).includes('for this answer: People/Alice › medication (health)'))).toBe(true);
    expect(h.fake.botMessagesIn(h.general.id)).toEqual([]);
  }, 60_000);

  it('voice asks by DM only (no channel to ask in): the text channel gets the line, and the voice is told to say "check your DMs"', async () => {
    const h = await start({ assistant: new FakeAssistant() });
    const user = await h.bot.client.users.fetch(h.alice.id);
    const posted: string[] = [];
    let told = 0;
    const ask = discordConsentAsk({
      user,
      post: async (text) => void posted.push(text),
      onDm: () => told++,
      where: '🎙️ Lounge',
    });
    const answer = ask({ asker: { id: h.alice.id, name: 'alice' }, items: [medication], service: SERVICE, shared: true, timeoutMs: 20_000 }, new AbortController().signal);
    const dm = h.fake.dmChannel(h.alice);
    const asked = await questionIn(h, dm);
    expect(content(asked)).toContain('🎙️ Lounge');
    await h.fake.waitFor(() => told === 1, 15_000, 'the voice told');
    expect(posted).toEqual(['🔒 I asked alice in a DM before using something private.']);
    h.fake.pressButton(dm, h.alice, asked, String(buttons(asked).find((b) => b.label === 'Always for these')!.custom_id));
    expect(await answer).toBe('always');
  }, 60_000);

  it("the core's own deadline for the question (a timeout signal) reads as no answer in time, not as the turn ending", async () => {
    const h = await start({ assistant: new FakeAssistant() });
    const user = await h.bot.client.users.fetch(h.alice.id);
    const ask = discordConsentAsk({ user });
    const answer = ask({ asker: { id: h.alice.id, name: 'alice' }, items: [medication], service: SERVICE, shared: true, timeoutMs: 20_000 }, AbortSignal.timeout(400));
    const asked = await questionIn(h, h.fake.dmChannel(h.alice));
    expect(await answer).toBe('no');
    await h.fake.waitFor(() => content(h.fake.messages.get(String(asked.id))!).includes('no answer in time'), 15_000, 'the question edited');
  }, 60_000);
});
