/**
 * A spoken turn's reply is posted in the project's text channel bounded like a typed reply:
 * the core cuts it at REPLY_MAX_CHARS and the post takes at most DISCORD_REPLY_MAX_MESSAGES
 * messages, ending with the visible "(reply cut: too long)". The post goes through `postText`,
 * as `/voice join` wires it (commands/voice.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Place } from '../../../src/core/place.js';
import { REPLY_CUT } from '../../../src/core/turn/events.js';
import { systemClock } from '../../../src/core/ports/index.js';
import { postText } from '../../../src/discord/post-text.js';
import { DISCORD_MESSAGE_LIMIT } from '../../../src/discord/split.js';
import { AddressingPolicy } from '../../../src/voice/addressing.js';
import { PlaybackQueue } from '../../../src/voice/playback-queue.js';
import { VoiceConversation } from '../../../src/voice/voice-conversation.js';
import { makeAssistant } from '../../support/assistant-fixture.js';
import { ScriptedChatModel } from '../../support/fakes.js';
import { RecordingSink } from '../../support/recording-sink.js';
import { FakeTts, ScriptedStt } from '../../support/voice-fakes.js';

const place: Place = { kind: 'project', origin: { name: 'kitchen', key: 'discord:1:2', discord: { guildId: '1', channelId: '2' } } };
const pcm = new Int16Array(16_000);

/** One voice turn whose model answers `replyChars` characters; returns the texts handed to post and the Discord messages sent. */
async function voiceTurn(replyChars: number, limits: { maxReplyChars: number; maxMessages: number }) {
  const sentence = 'The forecast says rain over the hills and sun by the sea. ';
  const model = new ScriptedChatModel([{ text: sentence.repeat(Math.ceil(replyChars / sentence.length)).slice(0, replyChars) }]);
  const { assistant } = makeAssistant({
    model,
    memoryModel: null,
    clock: systemClock,
    settings: { limits: { maxSteps: 4, maxToolCalls: 6, deadlineMs: 20_000, maxReplyChars: limits.maxReplyChars } },
  });
  const posted: string[] = [];
  const sent: { content: string; allowedMentions: { parse: [] } }[] = [];
  const channel = { send: async (message: { content: string; allowedMentions: { parse: [] } }) => void sent.push(message) };
  const conversation = new VoiceConversation({
    assistant,
    stt: new ScriptedStt(() => 'Charlie, what is the weather?'),
    queue: new PlaybackQueue({ tts: new FakeTts(), sink: new RecordingSink(0) }),
    place,
    policy: new AddressingPolicy('Charlie', 'auto'),
    humansPresent: () => 1,
    post: async (text) => {
      posted.push(text);
      await postText(channel, text, limits.maxMessages);
    },
  });
  const outcome = await conversation.hear({ userId: 'u1', displayName: 'Ana', pcm });
  conversation.close();
  await assistant.idle();
  return { outcome, posted, sent };
}

describe('voice replies in the text channel', () => {
  it('are cut at REPLY_MAX_CHARS with the visible note, like a typed reply', async () => {
    const { outcome, posted, sent } = await voiceTurn(50_000, { maxReplyChars: 3000, maxMessages: 5 });
    expect(outcome.kind).toBe('answered');
    expect(posted[0]).toBe('🎙️ Ana: Charlie, what is the weather?');
    // the reply, then the turn's notices (as under a typed reply)
    const [body = '', notice] = (posted[1] ?? '').split('\n⚠️ ');
    expect(body.endsWith(`\n\n${REPLY_CUT}`)).toBe(true);
    expect(body.length).toBeLessThanOrEqual(3000 + REPLY_CUT.length + 2);
    expect(notice).toContain('REPLY_MAX_CHARS');
    // the transcript and a reply of about 3,000 characters: 1 + 2 messages
    expect(sent).toHaveLength(3);
    expect(sent.map((m) => m.content).join('\n')).toContain(REPLY_CUT);
  });

  it('take at most DISCORD_REPLY_MAX_MESSAGES messages, the last ending with the cut note', async () => {
    const { posted, sent } = await voiceTurn(30_000, { maxReplyChars: 100_000, maxMessages: 3 });
    expect(posted[1]?.length).toBe(30_000); // under REPLY_MAX_CHARS: the whole reply reaches the post
    const replyMessages = sent.slice(1);
    expect(replyMessages).toHaveLength(3); // 30,000 characters would be 15 messages uncapped
    for (const m of sent) {
      expect(m.content.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      expect(m.allowedMentions).toEqual({ parse: [] });
    }
    expect(replyMessages.at(-1)?.content.endsWith(`\n\n${REPLY_CUT}`)).toBe(true);
    expect(replyMessages.slice(0, -1).some((m) => m.content.includes(REPLY_CUT))).toBe(false);
  });
});
