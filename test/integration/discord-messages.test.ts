/** The Discord front door with a real discord.js client against the fake Discord server. */
import { afterEach, describe, expect, it } from 'vitest';
import { ModelUnavailableError } from '../../src/core/errors.js';
import { APOLOGY_TEXT } from '../../src/discord/message-handler.js';
import { startBotHarness, type BotHarness } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { transcribeAudioAttachments } from '../../src/speech/voice-message.js';
import { oggOpus } from '../fixtures/audio/ogg.js';
import { speechPackets } from '../fixtures/audio/speech.js';
import { ScriptedStt } from '../support/voice-fakes.js';

let h: BotHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const mention = (h: BotHarness) => `<@${h.fake.bot.id}>`;
const content = (m: Json) => String(m.content);

async function repliesIn(h: BotHarness, channelId: string, n = 1): Promise<Json[]> {
  return h.fake.waitFor(
    () => {
      const r = h.fake.botMessagesIn(channelId);
      return r.length >= n ? r : null;
    },
    5000,
    `${n} bot message(s)`,
  );
}

describe('Discord messages', () => {
  it('answers a mention in the same channel, as a reply, mapping the channel to its project', async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant });
    const sent = h.fake.postMessage(h.general, h.alice, `${mention(h)} hello there`, { mentions: [h.fake.bot] });
    const [reply] = await repliesIn(h, h.general.id);
    await h.bot.idle();
    expect(content(reply!)).toBe('echo: hello there');
    expect((reply!.message_reference as Json).message_id).toBe(sent.id);
    expect(h.fake.botMessagesIn(h.kitchen.id)).toEqual([]);
    expect(assistant.handled).toHaveLength(1);
    const msg = assistant.handled[0]!;
    expect(msg.place).toEqual({ kind: 'project', origin: { name: 'general', key: `discord:${h.guild.id}:${h.general.id}`, discord: { guildId: h.guild.id, channelId: h.general.id } } });
    expect(msg.source).toBe(`https://discord.com/channels/${h.guild.id}/${h.general.id}/${String(sent.id)}`);
    expect(msg.speakerId).toBe(h.alice.id);
    expect(h.fake.callsTo('POST', /\/channels\/\d+\/typing$/).length).toBeGreaterThan(0);
    // the bot's own message came back over the gateway and was not answered
    expect(assistant.handled).toHaveLength(1);
  });

  it("in a 'mention' project archives unaddressed messages without answering; @everyone and @here are not mentions", async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant });
    assistant.respond.set(`discord:${h.guild.id}:${h.general.id}`, 'mention');
    h.fake.postMessage(h.general, h.alice, 'just chatting');
    h.fake.postMessage(h.general, h.alice, '@everyone dinner is ready', { mentionEveryone: true });
    h.fake.postMessage(h.general, h.alice, '@here anyone?', { mentionEveryone: true });
    await h.fake.waitFor(() => assistant.handled.length === 3);
    await h.bot.idle();
    expect(assistant.handled.map((m) => m.reply)).toEqual([false, false, false]);
    expect(h.fake.botMessagesIn(h.general.id)).toEqual([]);

    h.fake.postMessage(h.general, h.alice, `${mention(h)} what's for dinner?`, { mentions: [h.fake.bot] });
    const [first] = await repliesIn(h, h.general.id);
    h.fake.postMessage(h.general, h.alice, 'and dessert?', { replyTo: String(first!.id) }); // a reply without a ping
    await repliesIn(h, h.general.id, 2);
    await h.bot.idle();
    expect(assistant.handled.slice(3).map((m) => [m.text, m.reply])).toEqual([
      ["what's for dinner?", true],
      ['and dessert?', true],
    ]);
  });

  it("answers every message in an 'always' project", async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant });
    h.fake.postMessage(h.kitchen, h.alice, 'we are out of milk');
    const [reply] = await repliesIn(h, h.kitchen.id);
    expect(content(reply!)).toBe('echo: we are out of milk');
  });

  it('splits a long reply under 2000 characters with code fences closed and reopened', async () => {
    const code = Array.from({ length: 120 }, (_, i) => `const line${i} = ${i}; // some padding text here`).join('\n');
    const long = `Here is the file:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nThat's all.`;
    const assistant = new FakeAssistant(() => ({ reply: long }));
    h = await startBotHarness({ assistant });
    h.fake.postMessage(h.general, h.alice, 'show me the code');
    await h.fake.waitFor(() => h!.fake.botMessagesIn(h!.general.id).some((m) => content(m).includes("That's all.")), 5000, 'last part');
    const parts = h.fake.botMessagesIn(h.general.id).map(content);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(2000);
      expect((p.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    expect(parts[1]!.startsWith('```ts')).toBe(true);
    const joined = parts.join('\n').replace(/\n```\n```ts/g, '');
    for (let i = 0; i < 120; i++) expect(joined).toContain(`const line${i} = ${i};`);
  });

  it('gives a replayed MESSAGE_CREATE no second reply, also across a gateway resume', async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant });
    const sent = h.fake.postMessage(h.general, h.alice, 'once please');
    await repliesIn(h, h.general.id);
    // discord.js drops a repeat while the message is still cached; a sweep or restart of that
    // cache must not lead to a second answer either
    const cached = h.bot.client.channels.cache.get(h.general.id);
    if (cached?.isTextBased()) cached.messages.cache.clear();
    h.fake.redeliver(sent);
    h.fake.gateway.replayExtraOnResume(10);
    h.fake.gateway.disconnect();
    await h.fake.waitFor(() => h!.fake.gateway.resumes === 1, 10_000, 'resume');
    h.fake.postMessage(h.general, h.alice, 'after the resume');
    await repliesIn(h, h.general.id, 2);
    await h.bot.idle();
    expect(h.fake.botMessagesIn(h.general.id).map(content)).toEqual(['echo: once please', 'echo: after the resume']);
    expect(assistant.handled.map((m) => m.text)).toEqual(['once please', 'after the resume']);
  });

  it('ignores strangers, non-allow-listed guilds and bots silently', async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant });
    h.fake.postMessage(h.general, h.stranger, `${mention(h)} let me in`, { mentions: [h.fake.bot] });
    h.fake.postMessage(h.otherGuild.channels[0]!, h.alice, `${mention(h)} hi from elsewhere`, { mentions: [h.fake.bot] });
    h.fake.postMessage(h.fake.dmChannel(h.stranger), h.stranger, 'psst');
    const otherBot = { ...h.fake.addUser('otherbot'), bot: true };
    h.fake.postMessage(h.general, otherBot, `${mention(h)} beep`, { mentions: [h.fake.bot] });
    h.fake.postMessage(h.general, h.alice, 'marker');
    await repliesIn(h, h.general.id);
    await h.bot.idle();
    expect(assistant.handled.map((m) => m.text)).toEqual(['marker']);
    expect(h.fake.botMessagesIn(h.otherGuild.channels[0]!.id)).toEqual([]);
  });

  it('apologises in the channel when the model server is down, and keeps serving', async () => {
    const assistant = new FakeAssistant((m) => (m.text === 'first' ? { error: new ModelUnavailableError('http://127.0.0.1:9/v1') } : { reply: 'back again' }));
    h = await startBotHarness({ assistant });
    h.fake.postMessage(h.general, h.alice, 'first');
    const [apology] = await repliesIn(h, h.general.id);
    expect(content(apology!)).toContain(APOLOGY_TEXT);
    h.fake.postMessage(h.general, h.alice, 'second');
    const replies = await repliesIn(h, h.general.id, 2);
    expect(content(replies[1]!)).toBe('back again');
  });

  it('when the project settings cannot be read, stays silent on unaddressed messages and still answers a mention', async () => {
    const assistant = new FakeAssistant();
    assistant.showMemoryError = new Error('disk on fire');
    h = await startBotHarness({ assistant });
    h.fake.postMessage(h.general, h.alice, 'not addressed');
    h.fake.postMessage(h.general, h.alice, `${mention(h)} addressed`, { mentions: [h.fake.bot] });
    const [answer] = await repliesIn(h, h.general.id);
    await h.bot.idle();
    expect(content(answer!)).toBe('echo: addressed');
    expect(h.fake.botMessagesIn(h.general.id)).toHaveLength(1);
    expect(assistant.handled.map((m) => m.text)).toEqual(['addressed']);
  });

  it('streams with throttled edits, an in-progress marker, a compact tool line and no raw tool markup', async () => {
    const assistant = new FakeAssistant(() => ({
      events: [
        { type: 'tool_call', callId: 'c1', name: 'search_memory', args: { query: 'milk brand' } },
        { type: 'tool_result', callId: 'c1', name: 'search_memory', ok: true, summary: '3 hits for "milk brand"', pages: ['notes/Topics/Milk.md'], hits: 3 },
        { type: 'text_delta', text: 'We usually buy ' },
        { type: 'text_delta', text: '<tool_call>{"name":"read_note","arguments":{"path":"x"}}</tool_call>' },
      ],
      delayMs: 700,
      reply: 'We usually buy oat milk.',
    }));
    h = await startBotHarness({ assistant, editIntervalMs: 250 });
    h.fake.postMessage(h.general, h.alice, 'which milk?');
    await h.fake.waitFor(() => h!.fake.botMessagesIn(h!.general.id).some((m) => content(m).includes('oat milk')), 5000, 'final reply');
    await h.bot.idle();
    const posts = h.fake.callsTo('POST', new RegExp(`/channels/${h.general.id}/messages$`));
    const edits = h.fake.callsTo('PATCH', new RegExp(`/channels/${h.general.id}/messages/`));
    expect(posts).toHaveLength(1);
    expect(String(posts[0]!.body!.content)).toContain('⏳');
    expect(edits.length).toBeGreaterThanOrEqual(1);
    expect(edits.length).toBeLessThanOrEqual(4);
    const final = content(h.fake.botMessagesIn(h.general.id)[0]!);
    expect(final).toContain('We usually buy oat milk.');
    expect(final).toContain('searched “milk brand” (3 hits)');
    expect(final).not.toContain('⏳');
    for (const call of [...posts, ...edits]) {
      expect(String(call.body!.content)).not.toMatch(/tool_call|"arguments"/);
      expect(call.body!.allowed_mentions).toEqual({ parse: [], replied_user: false });
    }
  });

  it('handles messages of one channel in order and channels in parallel', async () => {
    const assistant = new FakeAssistant((m) => ({ reply: `done ${m.text}`, delayMs: m.text === 'slow' ? 600 : 10 }));
    h = await startBotHarness({ assistant });
    h.fake.postMessage(h.general, h.alice, 'slow');
    h.fake.postMessage(h.general, h.alice, 'fast');
    h.fake.postMessage(h.kitchen, h.alice, 'other');
    await repliesIn(h, h.kitchen.id);
    expect(h.fake.botMessagesIn(h.general.id)).toEqual([]); // kitchen did not wait for general
    await repliesIn(h, h.general.id, 2);
    expect(h.fake.botMessagesIn(h.general.id).map(content)).toEqual(['done slow', 'done fast']);
  });

  it('reads text attachments and warns visibly about skipped images and other files', async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant });
    const text = h.fake.addAttachment('list.txt', 'eggs\nflour', 'text/plain; charset=utf-8');
    const big = h.fake.addAttachment('big.md', 'x'.repeat(5000), 'text/markdown');
    const image = h.fake.addAttachment('cat.png', Buffer.from([137, 80, 78, 71]), 'image/png');
    const zip = h.fake.addAttachment('a.zip', Buffer.from([80, 75]), 'application/zip');
    h.fake.postMessage(h.general, h.alice, 'shopping', { attachments: [text, big, image, zip] });
    const [reply] = await repliesIn(h, h.general.id);
    const msg = assistant.handled[0]!;
    expect(msg.text).toContain('[attachment list.txt]\neggs\nflour');
    expect(msg.text).toContain('[attachment big.md, truncated]');
    expect(msg.images).toBeUndefined();
    expect(content(reply!)).toContain('⚠ Skipped cat.png');
    expect(content(reply!)).toContain('⚠ Skipped a.zip');
    expect(content(reply!)).toContain('big.md was long');
  });

  it('transcribes a voice message (Ogg Opus) and answers it like text', async () => {
    const assistant = new FakeAssistant();
    const stt = new ScriptedStt((pcm) => (pcm.length > 8000 ? 'Remind me to water the plants.' : ''));
    h = await startBotHarness({ assistant, transcribeAudio: (list) => transcribeAudioAttachments(list, { stt, fetch, downloadTimeoutMs: 10_000 }) });
    const ogg = oggOpus(await speechPackets('Remind me to water the plants.'));
    const voice = h.fake.addAttachment('voice-message.ogg', Buffer.from(ogg), 'audio/ogg');
    h.fake.postMessage(h.general, h.alice, '', { attachments: [voice] });
    const [reply] = await repliesIn(h, h.general.id);
    expect(assistant.handled[0]!.text).toBe('[voice message voice-message.ogg] Remind me to water the plants.');
    expect(stt.calls).toHaveLength(1);
    expect(content(reply!)).not.toContain('Skipped');
  });

  it('downloads image attachments and passes them as base64 data URLs when the model accepts images', async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant, acceptsImages: true });
    const bytes = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
    const image = h.fake.addAttachment('cat.png', bytes, 'image/png');
    h.fake.postMessage(h.general, h.alice, 'look', { attachments: [image] });
    const [reply] = await repliesIn(h, h.general.id);
    expect(assistant.handled[0]!.images).toEqual([`data:image/png;base64,${bytes.toString('base64')}`]);
    expect(content(reply!)).not.toContain('Skipped');
  });

  it('skips an image over DISCORD_IMAGE_MAX_BYTES with a visible warning instead of downloading it whole', async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant, acceptsImages: true, config: { DISCORD_IMAGE_MAX_BYTES: 2000 } });
    const image = h.fake.addAttachment('huge.png', Buffer.alloc(50_000, 1), 'image/png');
    h.fake.postMessage(h.general, h.alice, 'look', { attachments: [image] });
    const [reply] = await repliesIn(h, h.general.id);
    expect(assistant.handled[0]!.images).toBeUndefined();
    expect(content(reply!)).toContain('⚠ Skipped huge.png: images over 2 kB');
  });

  it('answers a DM in the DM, as the private place of its author', async () => {
    const assistant = new FakeAssistant();
    h = await startBotHarness({ assistant });
    const dm = h.fake.dmChannel(h.alice);
    h.fake.postMessage(dm, h.alice, 'a secret');
    const [reply] = await repliesIn(h, dm.id);
    expect(content(reply!)).toBe('echo: a secret');
    expect(assistant.handled[0]!.place).toEqual({ kind: 'private', userId: h.alice.id, userName: 'alice' });
  });
});
