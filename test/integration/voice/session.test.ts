/**
 * The Discord glue with a stand-in VoiceConnection (an EventEmitter with a receiver that
 * hands out packet streams): one subscription per speaker, never Charlie's own, speech all
 * the way to a posted reply, end of turn, DAVE failures → rejoin + warning, leaving an empty
 * channel. The session runs on a fake clock (`ManualTimers`): packets arrive every 20 ms of
 * fake time and pauses are advanced, not slept.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { VoiceConnection } from '@discordjs/voice';
import { VoiceSessions } from '../../../src/voice/sessions.js';
import { CHECK_DMS, type VoiceMember, type VoiceSessionDeps, type VoiceTarget } from '../../../src/voice/session.js';
import { silentLogger } from '../../../src/core/ports/index.js';
import { speechPackets } from '../../fixtures/audio/speech.js';
import { FakeAssistant, type ScriptedTurn } from '../../support/fake-assistant.js';
import type { TextToSpeech } from '../../../src/core/ports/index.js';
import type { ConsentRequest } from '../../../src/core/privacy/consent.js';
import { ManualTimers } from '../../support/manual-timers.js';
import { RecordingSink } from '../../support/recording-sink.js';
import { FakeTts, ScriptedStt } from '../../support/voice-fakes.js';

class FakeConnection extends EventEmitter {
  state: { status: string } = { status: 'ready' };
  readonly subscriptions: string[] = [];
  readonly streams = new Map<string, PassThrough>();
  readonly receiver = {
    speaking: new EventEmitter(),
    subscribe: (userId: string, options: { end: { behavior: number } }) => {
      expect(options.end.behavior).toBe(0); // EndBehaviorType.Manual
      this.subscriptions.push(userId);
      const s = new PassThrough({ objectMode: true });
      this.streams.set(userId, s);
      return s;
    },
  };
  subscribe() {
    return undefined;
  }
  destroy() {
    const old = this.state;
    this.state = { status: 'destroyed' };
    this.emit('stateChange', old, this.state);
  }
  /** A speaker talks: Discord signals speaking, then a packet arrives every 20 ms of fake time. */
  async talk(userId: string, packets: Uint8Array[], clock: ManualTimers) {
    this.receiver.speaking.emit('start', userId);
    const stream = this.streams.get(userId);
    if (!stream) return;
    for (const p of packets) {
      stream.write(Buffer.from(p));
      await settle();
      clock.advance(20);
    }
    this.receiver.speaking.emit('end', userId);
  }
}

/** Let promises and stream events run (no time passes on the fake clock). */
async function settle(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

/** Silence: advance the fake clock in 10 ms steps, settling as it goes. */
async function pause(clock: ManualTimers, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 10) {
    clock.advance(10);
    await settle(2);
  }
}

/** Wait for work that runs on real promises (the fake recogniser, voice, sink). */
async function waitFor(condition: () => boolean, rounds = 2000): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i > rounds) throw new Error('condition not met');
    await settle(1);
  }
}

let packets: Uint8Array[];
beforeAll(async () => {
  packets = await speechPackets('Charlie, what is on the shopping list?');
});

let sessions: VoiceSessions | null = null;
afterEach(() => sessions?.closeAll());

function setup(members: VoiceMember[], transcript: string | string[] = 'Charlie, what is on the shopping list?', initial = 'ready', extra: { tts?: TextToSpeech; turn?: ScriptedTurn } = {}) {
  const connections: FakeConnection[] = [];
  const posts: string[] = [];
  const sink = new RecordingSink(0);
  const answers = typeof transcript === 'string' ? [transcript] : transcript;
  const stt = new ScriptedStt((_pcm, call) => answers[Math.min(call, answers.length - 1)]!);
  const assistant = new FakeAssistant(() => ({ deltas: ['Milk and eggs.'], deltaMs: 0, ...extra.turn }));
  const clock = new ManualTimers();
  const tts = new FakeTts('fake-tts', { delayMs: 0 });
  const deps: VoiceSessionDeps = {
    assistant,
    stt,
    tts: extra.tts ?? tts,
    settings: { wakeName: 'Charlie', wakeRule: 'auto', silenceMs: 1500, minSpeechMs: 350, bargeIn: true, bargeInMs: 250, emptyLeaveMs: 100, turnPauseMs: 400 },
    logger: silentLogger,
    timers: clock,
    connect: () => {
      const c = new FakeConnection();
      c.state = { status: initial };
      connections.push(c);
      return c as unknown as VoiceConnection;
    },
    sink: () => sink,
    readyTimeoutMs: 200,
  };
  sessions = new VoiceSessions(deps);
  let present = members;
  const target: VoiceTarget = {
    guildId: 'g1',
    voiceChannelId: 'v1',
    voiceChannelName: 'Lounge',
    textChannelId: 't1',
    place: { kind: 'project', origin: { name: 'household', key: 'discord:g1:t1', discord: { guildId: 'g1', channelId: 't1' } } },
    botUserId: 'bot',
    adapterCreator: () => ({ sendPayload: () => true, destroy: () => {} }),
    members: () => present,
    post: async (t) => void posts.push(t),
  };
  return { sessions, target, connections, posts, sink, stt, assistant, clock, tts, setMembers: (m: VoiceMember[]) => (present = m) };
}

const ana = { id: 'ana', displayName: 'Ana', bot: false };
const ben = { id: 'ben', displayName: 'Ben', bot: false };
const cleo = { id: 'cleo', displayName: 'Cleo', bot: false };
const me = { id: 'bot', displayName: 'Charlie', bot: true };
const musicBot = { id: 'music', displayName: 'Tunes', bot: true };

describe('VoiceSession', () => {
  it('subscribes once per speaker, never to itself or bots, and answers with three people present', async () => {
    const t = setup([ana, ben, cleo, me, musicBot]);
    expect((await t.sessions.join(t.target)).outcome).toBe('joined');
    await t.connections[0]!.talk('ana', packets.slice(0, 40), t.clock);
    await pause(t.clock, 150); // shorter than the end-of-turn pause: nothing is transcribed
    await t.connections[0]!.talk('ana', packets.slice(40), t.clock);
    t.connections[0]!.receiver.speaking.emit('start', 'bot');
    t.connections[0]!.receiver.speaking.emit('start', 'music');
    await pause(t.clock, 450); // a finished question: the turn ends at the short pause
    await waitFor(() => t.sink.finished.length > 0);
    expect(t.connections[0]!.subscriptions).toEqual(['ana']);
    expect(t.stt.calls).toHaveLength(1); // the speculative transcript, reused
    expect(t.assistant.handled[0]).toMatchObject({ text: 'what is on the shopping list?', speaker: 'Ana', mode: 'voice' });
    expect(t.posts).toEqual(['🎙️ Ana: Charlie, what is on the shopping list?', 'Milk and eggs.']);
    expect(t.sink.finished).toEqual(['Milk and eggs.']);
    expect(t.sessions.status('g1')).toMatchObject({ humans: 3, wakeNameNeeded: true, turns: 1, voiceChannelName: 'Lounge', project: 'household' });
    expect(t.sessions.status('g1')?.endOfTurn).toMatchObject({ mode: 'rules', pauseMs: 400, silenceMs: 1500, last: { reason: 'question', speculative: 1, discarded: 0 } });
    expect((await t.sessions.join(t.target)).outcome).toBe('already');
  });

  it('a pause mid-sentence: Charlie waits, answers the whole sentence, and the early transcript never reaches the model', async () => {
    const t = setup([ana], ['Add milk, eggs, and', 'Add milk, eggs, and bread to the shopping list.']);
    await t.sessions.join(t.target);
    const c = t.connections[0]!;
    await c.talk('ana', packets.slice(0, 50), t.clock);
    await pause(t.clock, 900); // past the short pause, inside the long window
    expect(t.stt.calls).toHaveLength(1);
    expect(t.assistant.handled).toHaveLength(0);
    await c.talk('ana', packets.slice(50), t.clock);
    await pause(t.clock, 450);
    await waitFor(() => t.sink.finished.length > 0);
    expect(t.assistant.handled.map((m) => m.text)).toEqual(['Add milk, eggs, and bread to the shopping list.']);
    expect(t.posts[0]).toBe('🎙️ Ana: Add milk, eggs, and bread to the shopping list.');
    const last = t.sessions.status('g1')!.endOfTurn.last!;
    expect(last).toMatchObject({ reason: 'sentence', speculative: 2, discarded: 1 });
    expect(last.waitedMs).toBeGreaterThanOrEqual(400);
    expect(last.waitedMs).toBeLessThan(460);
    expect(last.firstAudioMs).toBeGreaterThanOrEqual(last.waitedMs);
  });

  it.each([
    { part: 'tts', what: 'the local voice' },
    { part: 'stt', what: 'the local recogniser' },
  ] as const)('warms $what when it joins, before the first turn', async ({ part }) => {
    const t = setup([ana]);
    let warmed = 0;
    Object.assign(t[part], {
      warmUp: async () => {
        warmed++;
      },
    });
    await t.sessions.join(t.target);
    expect(warmed).toBe(1);
    expect(t[part].calls).toEqual([]);
  });

  it('repeated DAVE decryption failures lead to a rejoin and a visible warning', async () => {
    const t = setup([ana]);
    await t.sessions.join(t.target);
    for (let i = 1; i <= 60; i++) t.connections[0]!.emit('debug', `Failed to decrypt a packet (${i} consecutive fails)`);
    await settle();
    expect(t.connections).toHaveLength(2);
    expect(t.connections[0]!.state.status).toBe('destroyed');
    expect(t.posts.some((p) => p.startsWith('⚠️ Voice decryption (DAVE) kept failing'))).toBe(true);
    expect(t.sessions.status('g1')).toMatchObject({ rejoins: 1 });
    // the new connection is live: speech still gets through
    await t.connections[1]!.talk('ana', packets, t.clock);
    await pause(t.clock, 450);
    await waitFor(() => t.stt.calls.length === 1);
  });

  it('receive streams destroyed by decryption errors are resubscribed, and repeated ones rejoin', async () => {
    const t = setup([ana]);
    await t.sessions.join(t.target);
    const c = t.connections[0]!;
    c.receiver.speaking.emit('start', 'ana');
    c.streams.get('ana')!.destroy(new Error('Failed to decrypt: DecryptionFailed(UnencryptedWhenPassthroughDisabled)'));
    await settle();
    c.receiver.speaking.emit('start', 'ana');
    expect(c.subscriptions).toEqual(['ana', 'ana']);
    expect(t.connections).toHaveLength(1);
    c.streams.get('ana')!.destroy(new Error('Failed to decrypt again'));
    await settle();
    expect(t.connections).toHaveLength(2);
    expect(t.posts.filter((p) => p.startsWith('⚠️ Voice decryption (DAVE)'))).toHaveLength(1);
  });

  it('leaves the channel once it is empty, and says so', async () => {
    const t = setup([ana, me]);
    await t.sessions.join(t.target);
    t.setMembers([me]);
    t.sessions.membersChanged('g1');
    t.clock.advance(99);
    expect(t.sessions.size).toBe(1);
    t.clock.advance(1);
    expect(t.sessions.size).toBe(0);
    expect(t.connections[0]!.state.status).toBe('destroyed');
    expect(t.posts).toEqual(['👋 Left voice channel Lounge: the channel is empty.']);
  });

  it('a connection that never becomes ready fails the join clearly and leaves nothing behind', async () => {
    const t = setup([ana], 'x', 'signalling');
    await expect(t.sessions.join(t.target)).rejects.toThrow(/could not connect to Lounge within 0.2 s — check the bot's Connect and Speak permissions/);
    expect(t.sessions.size).toBe(0);
    expect(t.connections[0]!.state.status).toBe('destroyed');
    expect(t.posts).toEqual([]);
  });

  it('/voice leave leaves; a lost connection ends the session', async () => {
    const t = setup([ana]);
    await t.sessions.join(t.target);
    expect(t.sessions.leave('g1')).toBe(true);
    expect(t.sessions.leave('g1')).toBe(false);
    await t.sessions.join(t.target);
    t.connections[1]!.destroy();
    expect(t.sessions.status('g1')).toBeNull();
  });

  it('asks the speaker in the moment through the door\'s DM question, and says "check your DMs" by the local voice only', async () => {
    const hosted = new FakeTts('hosted-voice', { delayMs: 0 });
    const local = new FakeTts('local-voice', { delayMs: 0 });
    const tts: TextToSpeech = { id: hosted.id, locality: 'hosted', localVoice: local, synthesize: (text, options) => hosted.synthesize(text, options) };
    const turn: ScriptedTurn = {
      consent: { items: [{ id: 'r-1', where: 'People/Ana', name: 'medication', kind: 'phi', subject: 'ana' }], service: { kind: 'chat', id: 'gpt-4o@api.openai.com' }, timeoutMs: 5000 },
    };
    const t = setup([ana, ben], 'Charlie, what did the doctor say?', 'ready', { tts, turn });
    const asked: { speaker: { id: string; name: string }; request: ConsentRequest }[] = [];
    t.target.consentFor = (speaker, checkDms) => ({
      person: { ...speaker, role: 'member' },
      shared: true,
      ask: async (request) => {
        asked.push({ speaker, request });
        checkDms(); // the DM went out
        return 'once';
      },
    });
    await t.sessions.join(t.target);
    await t.connections[0]!.talk('ana', packets, t.clock);
    await pause(t.clock, 450);
    await waitFor(() => t.sink.finished.includes('Milk and eggs.'));
    expect(t.assistant.consentAnswers).toEqual(['once']);
    expect(asked).toMatchObject([{ speaker: { id: 'ana', name: 'Ana' }, request: { asker: { id: 'ana', name: 'Ana' }, shared: true } }]);
    expect(t.sink.finished).toContain(CHECK_DMS);
    expect(local.calls).toEqual([CHECK_DMS]);
    expect(hosted.calls).not.toContain(CHECK_DMS);
    expect(hosted.calls).toContain('Milk and eggs.');
  });
});
