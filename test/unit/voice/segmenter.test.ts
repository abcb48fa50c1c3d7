import { describe, expect, it } from 'vitest';
import { UtteranceSegmenter, type Utterance } from '../../../src/voice/segmenter.js';
import type { Timers } from '../../../src/voice/timers.js';

/** A manual clock: timers fire only when the test advances time. */
class ManualTimers implements Timers {
  t = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  };
  clearTimeout = (h: unknown) => void this.timers.delete(h as number);
  advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, v]) => v.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
}

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
      language: 'de',
    });
    expect(config).toMatchObject({ TTS_LOCAL_VOICE: 'en-us', STT_TIMEOUT_MS: 60_000, STT_SERVER_MODEL: 'whisper-1', STT_ALLOW_DOWNLOAD: true });
  });
});
