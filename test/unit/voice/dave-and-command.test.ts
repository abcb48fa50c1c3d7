import { describe, expect, it } from 'vitest';
import { DaveFailureMonitor } from '../../../src/voice/dave-monitor.js';
import { loadCommands } from '../../../commands/index.js';
import { commandData } from '../../../src/discord/commands-data.js';
import { describeStatus } from '../../../commands/voice.js';

describe('DaveFailureMonitor', () => {
  it('trips past the limit inside the window, then waits out the cooldown', () => {
    let t = 0;
    const trips: number[] = [];
    const m = new DaveFailureMonitor((n) => trips.push(n), { limit: 5, windowMs: 1000, cooldownMs: 10_000, now: () => t });
    for (let i = 1; i <= 4; i++) m.observe(`Failed to decrypt a packet (${i} consecutive fails)`);
    t = 2000; // the first four fall out of the window
    for (let i = 1; i <= 4; i++) m.observe(`Failed to decrypt a packet (${i} consecutive fails)`);
    expect(trips).toEqual([]);
    m.observe('Failed to decrypt a packet (5 consecutive fails)');
    expect(trips).toEqual([5]);
    for (let i = 0; i < 10; i++) m.observe('Failed to decrypt a packet');
    expect(trips).toEqual([5]); // cooldown
    t = 20_000;
    for (let i = 0; i < 5; i++) m.observe('Failed to decrypt a packet');
    expect(trips).toEqual([5, 5]);
  });
  it('two destroyed receive streams within the window are enough', () => {
    let t = 0;
    const trips: number[] = [];
    const m = new DaveFailureMonitor((n) => trips.push(n), { limit: 50, windowMs: 1000, now: () => t });
    m.observeStreamError();
    t = 7000; // outside 6 × window
    m.observeStreamError();
    expect(trips).toEqual([]);
    t = 8000;
    m.observeStreamError();
    expect(trips).toEqual([50]);
  });
  it('ignores expected failures during transitions and unrelated lines', () => {
    const m = new DaveFailureMonitor(() => {}, { limit: 1 });
    expect(m.observe('Failed to decrypt a packet (reinitializing session)')).toBe(false);
    expect(m.observe('Failed to decrypt a packet (2 pending transition[s])')).toBe(false);
    expect(m.observe('Session initialized for protocol version 1')).toBe(false);
  });
});

describe('/voice command', () => {
  it('plugs into the command loader as /voice join|leave|status', async () => {
    const commands = await loadCommands();
    const voice = commands.filter((c) => c.name === 'voice');
    expect(voice.map((c) => c.subcommand?.name)).toEqual(['join', 'leave', 'status']);
    const data = commandData(commands).find((d) => d.name === 'voice');
    expect(data?.options?.map((o) => o.name)).toEqual(['join', 'leave', 'status']);
  });
  it('describes a session in plain words', () => {
    const text = describeStatus({
      state: 'speaking',
      voiceChannelName: 'Lounge',
      project: 'household',
      humans: 3,
      wakeNameNeeded: true,
      speakersTalking: 0,
      queuedSentences: 2,
      turns: 4,
      rejoins: 1,
      stt: 'transformers-whisper:Xenova/whisper-base.en',
      tts: 'edge-tts:en-US-AvaMultilingualNeural|espeak-ng:en-us',
      ttsLocal: false,
      endOfTurn: { mode: 'rules', pauseMs: 400, silenceMs: 1500, last: { reason: 'question', waitedMs: 431, firstAudioMs: 702, speculative: 2, discarded: 1 } },
    });
    expect(text).toContain('hosted: the reply text leaves this machine');
    expect(text).toContain('In **Lounge** for project **household** — speaking.');
    expect(text).toContain('Start or end with my name');
    expect(text).toContain('rejoins after DAVE failures: 1');
    expect(text).toContain('End of turn: rules (checked after a 400 ms pause, at most 1500 ms after the last word).');
    expect(text).toContain('Last turn: ended by question 431 ms after the last word, first sound after 702 ms · early transcripts: 2, 1 discarded.');
  });
});
