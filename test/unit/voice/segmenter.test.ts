import { describe, expect, it } from 'vitest';
import { UtteranceSegmenter, type Utterance } from '../../../src/voice/segmenter.js';
import { ManualTimers } from '../../support/manual-timers.js';

const frame = () => new Int16Array(320).fill(1000);

function talk(seg: UtteranceSegmenter, clock: ManualTimers, user: string, ms: number) {
  for (let i = 0; i < ms / 20; i++) {
    seg.push(user, frame(), true);
    clock.advance(20);
  }
}

/** A segmenter on manual timers, with the utterances it ends. */
function segmenter(options: ConstructorParameters<typeof UtteranceSegmenter>[0]) {
  const clock = new ManualTimers();
  const out: Utterance[] = [];
  const seg = new UtteranceSegmenter(options, clock, (u) => out.push(u));
  return { clock, out, seg };
}

describe('UtteranceSegmenter (wall clock)', () => {
  it('ends an utterance exactly when the silence window has passed since the last packet', () => {
    const { clock, out, seg } = segmenter({ silenceMs: 1500 });
    talk(seg, clock, 'a', 1000);
    clock.advance(1460);
    expect(out).toHaveLength(0);
    clock.advance(40);
    expect(out).toHaveLength(1);
    expect(out[0]!.speechMs).toBe(1000);
    expect(out[0]!.endedAt).toBe(980);
  });
  it('speech resuming inside the window joins the utterance, with the pause kept as silence', () => {
    const { clock, out, seg } = segmenter({ silenceMs: 1500 });
    talk(seg, clock, 'a', 500);
    clock.advance(1000);
    talk(seg, clock, 'a', 500);
    clock.advance(1600);
    expect(out).toHaveLength(1);
    expect(out[0]!.speechMs).toBe(1000);
    expect(out[0]!.pcm.length).toBe(16 * 2000);
  });
  it('keeps speakers apart and cuts overlong utterances', () => {
    const { clock, out, seg } = segmenter({ silenceMs: 300, maxUtteranceMs: 1000 });
    for (let i = 0; i < 75; i++) {
      seg.push('a', frame(), true);
      if (i % 3 === 0) seg.push('b', frame(), false);
      clock.advance(20);
    }
    clock.advance(400);
    expect(out.map((u) => u.userId)).toEqual(['a', 'b', 'a']);
    expect(out[0]!.speechMs).toBe(1000);
    expect(out[1]!.voicedMs).toBe(0);
  });
});

describe('UtteranceSegmenter: pauses, commits and caps', () => {
  const quiet = () => new Int16Array(320).fill(3);
  function events(options: ConstructorParameters<typeof UtteranceSegmenter>[0]) {
    const clock = new ManualTimers();
    const out: { u: Utterance; reason: string }[] = [];
    const log: string[] = [];
    const seg = new UtteranceSegmenter(options, clock, (u, reason) => out.push({ u, reason }), {
      start: (id) => log.push(`start ${id}`),
      pause: (u, ms) => log.push(`pause ${u.userId} ${ms} ${u.lastVoicedAt}`),
      resume: (id) => log.push(`resume ${id}`),
    });
    return { clock, out, log, seg };
  }

  it('reports one pause per pause, at pauseMs after the last voiced packet, and the resumption', () => {
    const { clock, out, log, seg } = events({ silenceMs: 1500, pauseMs: 400 });
    talk(seg, clock, 'a', 600); // last packet at 580, clock at 600
    clock.advance(359);
    expect(log).toEqual(['start a']);
    clock.advance(21);
    expect(log).toEqual(['start a', 'pause a 400 580']);
    clock.advance(200);
    expect(log).toHaveLength(2);
    talk(seg, clock, 'a', 200); // resumes at 1180, last packet at 1360
    clock.advance(1000);
    expect(log).toEqual(['start a', 'pause a 400 580', 'resume a', 'pause a 400 1360']);
    expect(out).toHaveLength(0);
    clock.advance(500);
    expect(out.map((o) => [o.reason, o.u.lastVoicedAt, o.u.speechMs])).toEqual([['silence', 1360, 800]]);
  });

  it('commits only if no voice came after the audio the decision was about', () => {
    const { clock, out, seg } = events({ silenceMs: 1500, pauseMs: 400 });
    talk(seg, clock, 'a', 600);
    clock.advance(450);
    expect(seg.commit('a', 123)).toBe(false);
    expect(seg.commit('a', 580)).toBe(true);
    expect(out.map((o) => o.reason)).toEqual(['committed']);
    expect(seg.commit('a', 580)).toBe(false);
  });

  it('an open microphone (packets without voice) does not hold a finished utterance open', () => {
    const { clock, out, seg } = events({ silenceMs: 1500, pauseMs: 400 });
    talk(seg, clock, 'a', 600);
    for (let i = 0; i < 200; i++) {
      seg.push('a', quiet(), false);
      clock.advance(20);
    }
    expect(out.map((o) => [o.reason, o.u.lastVoicedAt])).toEqual([['silence', 580]]);
    expect(out[0]!.u.endedAt).toBe(580 + 1500 - 20);
  });

  it('packets that never hold voice are closed by the no-speech cap, however long they go on', () => {
    const { clock, out, seg } = events({ silenceMs: 1500, pauseMs: 400, maxNoSpeechMs: 3000 });
    for (let i = 0; i < 200; i++) {
      seg.push('a', quiet(), false);
      clock.advance(20);
    }
    expect(out[0]!.reason).toBe('no_speech');
    expect(out[0]!.u.speechMs).toBe(3000);
    expect(out[0]!.u.voicedMs).toBe(0);
  });

  it('the length cap cuts one long utterance however the speaker goes on', () => {
    const { clock, out, seg } = events({ silenceMs: 1500, pauseMs: 400, maxUtteranceMs: 2000 });
    talk(seg, clock, 'a', 3000);
    expect(out.map((o) => [o.reason, o.u.speechMs])).toEqual([['max_length', 2000]]);
  });
});

describe('voice settings from the configuration', () => {
  it('maps every voice variable, with the documented defaults', async () => {
    const { loadConfig } = await import('../../../src/config.js');
    const { voiceSettings } = await import('../../../src/voice/settings.js');
    const config = loadConfig({ VOICE_WAKE_NAME: 'Hey Max', VOICE_WAKE_RULE: 'always', STT_LANGUAGE: 'de' }, '/nonexistent');
    expect(voiceSettings(config)).toEqual({
      wakeName: 'Hey Max',
      wakeRule: 'always',
      silenceMs: 1500,
      minSpeechMs: 350,
      bargeIn: true,
      bargeInMs: 250,
      emptyLeaveMs: 30_000,
      turnDetection: 'auto',
      turnPauseMs: 400,
      turnModelThreshold: 0.5,
      maxUtteranceMs: 30_000,
      maxNoSpeechMs: 10_000,
      language: 'de',
    });
    expect(config).toMatchObject({ TTS_LOCAL_VOICE: 'en-us', STT_TIMEOUT_MS: 60_000, STT_SERVER_MODEL: 'whisper-1', STT_ALLOW_DOWNLOAD: true });
  });
});
