/** The end-of-turn decision table: text cues first, then pause length and the voice falling away. */
import { describe, expect, it } from 'vitest';
import { chooseDetector, endFallDb, LearnedDetector, TextRulesDetector } from '../../../src/voice/end-of-turn.js';
import { type TurnEvidence, type TurnModel } from '../../../src/core/ports/index.js';

const rules = new TextRulesDetector({ pauseMs: 400, silenceMs: 1500, wakeName: 'Charlie' });
const at = (transcript: string, pauseMs = 400, endFallDb = 0): TurnEvidence => ({ transcript, pauseMs, speechMs: 2000, endFallDb, pcm: new Int16Array(0) });

describe('TextRulesDetector: the decision table', () => {
  const table: [string, boolean, string][] = [
    ['What is on my calendar tomorrow?', true, 'question'],
    ['Remind me to call Sarah at five.', true, 'sentence'],
    ['Turn the lights off!', true, 'sentence'],
    ['What are you thinking of?', true, 'question'],
    ['Thanks.', true, 'closing'],
    ['Stop', true, 'stop_command'],
    ['Charlie, stop.', true, 'stop_command'],
    ['I was thinking...', false, 'trailing_off'],
    ['I was thinking… maybe Lisbon.', true, 'sentence'],
    ['Add milk, eggs, and', false, 'trailing_conjunction'],
    ['Add milk, eggs, and.', false, 'trailing_conjunction'],
    ['Add milk, eggs,', false, 'open_clause'],
    ['The list is: ', false, 'open_clause'],
    ['I want to go to Lisbon because', false, 'trailing_conjunction'],
    ['So', false, 'trailing_conjunction'],
    ['It was fine, but', false, 'trailing_conjunction'],
    ['Book a table for', false, 'open_word'],
    ['Can you tell me about the.', false, 'open_word'],
    ['I need, um', false, 'hesitation'],
    ['Um.', false, 'hesitation'],
    ['Charlie.', false, 'wake_name_only'],
    ['Hey Charlie', false, 'wake_name_only'],
    ['', false, 'no_words'],
    ['[BLANK_AUDIO]', false, 'no_words'],
  ];
  it.each(table)('%j → end %s (%s)', (text, end, reason) => {
    expect(rules.decideNow(at(text))).toMatchObject({ end, reason });
  });

  it('ends the text rules cannot read only after a longer pause, or at once when the voice fell away', () => {
    const d = rules.decideNow(at('remind me to call sarah'));
    expect(d).toEqual({ end: false, reason: 'unpunctuated', recheckAtPauseMs: 800 });
    expect(rules.decideNow(at('remind me to call sarah', 790))).toMatchObject({ end: false });
    expect(rules.decideNow(at('remind me to call sarah', 800))).toEqual({ end: true, reason: 'unpunctuated_long_pause' });
    expect(rules.decideNow(at('remind me to call sarah', 400, 9))).toEqual({ end: true, reason: 'unpunctuated_voice_fell' });
    // a text veto is not overruled by a long pause or a falling voice: the long window ends it
    expect(rules.decideNow(at('remind me to call sarah and', 1400, 20))).toMatchObject({ end: false, reason: 'trailing_conjunction' });
  });

  it('the medium pause stays inside the long window, whatever the settings', () => {
    expect(new TextRulesDetector({ pauseMs: 400, silenceMs: 600 }).unpunctuatedMs).toBe(500);
    expect(new TextRulesDetector({ pauseMs: 300, silenceMs: 3000 }).unpunctuatedMs).toBe(600);
    expect(new TextRulesDetector({ pauseMs: 900, silenceMs: 1000 }).unpunctuatedMs).toBe(900);
  });
});

class ScriptedTurnModel implements TurnModel {
  readonly id = 'scripted';
  readonly seen: string[] = [];
  constructor(private readonly p: number) {}
  async probability(e: TurnEvidence): Promise<number> {
    this.seen.push(e.transcript);
    return this.p;
  }
}

describe('LearnedDetector: a model behind the text vetoes', () => {
  it('the model decides what the vetoes leave open; it is never asked about a trailing "and"', async () => {
    const sure = new ScriptedTurnModel(0.9);
    const d = new LearnedDetector(sure, rules, 0.5);
    expect(d.mode).toBe('model:scripted');
    expect(await d.decide(at('remind me to call sarah'))).toEqual({ end: true, reason: 'model_complete', probability: 0.9 });
    expect(await d.decide(at('Add milk, eggs, and'))).toMatchObject({ end: false, reason: 'trailing_conjunction' });
    expect(await d.decide(at('stop'))).toMatchObject({ end: true, reason: 'stop_command' });
    expect(sure.seen).toEqual(['remind me to call sarah']);
    const unsure = new LearnedDetector(new ScriptedTurnModel(0.2), rules, 0.5);
    // the model may hold back even a punctuated sentence (prosody says "more to come")
    expect(await unsure.decide(at('I was thinking.'))).toEqual({ end: false, reason: 'model_incomplete', probability: 0.2 });
  });

  it('a model that fails is replaced by the rules, and the mode says why', async () => {
    const broken: TurnModel = {
      id: 'broken.onnx',
      probability: () => Promise.reject(new Error('file is corrupt')),
    };
    const d = new LearnedDetector(broken, rules);
    expect(await d.decide(at('What time is it?'))).toEqual({ end: true, reason: 'question' });
    expect(d.mode).toBe('rules (model broken.onnx failed: file is corrupt)');
    expect(await d.decide(at('remind me', 400))).toMatchObject({ end: false, reason: 'unpunctuated' });
  });

  it('chooseDetector: off = none, rules = rules, auto/model = the model only when one was loaded', () => {
    const model = new ScriptedTurnModel(0.5);
    const o = { pauseMs: 400, silenceMs: 1500 };
    expect(chooseDetector('off', { ...o, model })).toBeNull();
    expect(chooseDetector('rules', { ...o, model })?.mode).toBe('rules');
    expect(chooseDetector('auto', { ...o, model })?.mode).toBe('model:scripted');
    expect(chooseDetector('model', { ...o, model: null })?.mode).toBe('rules');
    expect(chooseDetector('auto', o)?.mode).toBe('rules');
  });
});

describe('endFallDb', () => {
  const tone = (amplitudes: number[]) => {
    const pcm = new Int16Array(amplitudes.length * 320);
    amplitudes.forEach((a, f) => {
      for (let i = 0; i < 320; i++) pcm[f * 320 + i] = Math.round(a * 32767 * Math.sin((2 * Math.PI * 200 * (f * 320 + i)) / 16000));
    });
    return pcm;
  };
  it('measures how far the last voiced frames are below the typical level, ignoring silence after them', () => {
    const falling = tone([...Array<number>(20).fill(0.5), ...Array<number>(5).fill(0.1), ...Array<number>(10).fill(0)]);
    expect(endFallDb(falling)).toBeCloseTo(20 * Math.log10(5), 0);
    const steady = tone(Array<number>(30).fill(0.5));
    expect(Math.abs(endFallDb(steady))).toBeLessThan(0.5);
    expect(endFallDb(tone([0.5, 0.5]))).toBe(0); // too short to tell
  });
});
