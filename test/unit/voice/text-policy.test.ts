import { describe, expect, it } from 'vitest';
import { WakeNameMatcher } from '../../../src/voice/wake-name.js';
import { classifyUtterance } from '../../../src/voice/intent.js';
import { AddressingPolicy } from '../../../src/voice/addressing.js';
import { isHallucination, stripNonSpeech } from '../../../src/speech/stt/hallucinations.js';

describe('wake name', () => {
  const m = new WakeNameMatcher('Charlie');
  it.each([
    ['Charlie, what time is it?', 'what time is it?'],
    ["Charly what's the weather", "what's the weather"],
    ["Charlie's calendar for today", 'calendar for today'],
    ['Hey Charlie, set a timer.', 'set a timer.'],
    ['What is the plan, Charlie?', 'What is the plan'],
    ['Okay, what about lunch, hey charley', 'Okay, what about lunch'],
    ['Sharlie, hello there', 'hello there'],
    ['what did we decide charlie please', 'what did we decide'],
  ])('hears the name in %j', (text, rest) => {
    expect(m.match(text)).toEqual({ addressed: true, rest });
  });
  it.each(['I told Charlie yesterday that we go', 'What about Carla?', 'Harley, pass the salt', 'the weather today', 'Chile is nice', ''])('does not take %j as addressed', (text) => {
    expect(m.match(text).addressed).toBe(false);
  });
  it('supports two-word names and rejects longer ones', () => {
    const two = new WakeNameMatcher('Computer Charlie');
    expect(two.match('computer charlie, lights on').addressed).toBe(true);
    expect(two.match('charlie, lights on').addressed).toBe(false);
    expect(() => new WakeNameMatcher('a b c')).toThrow(/one or two words/);
  });
});

describe('utterance kinds', () => {
  it.each([
    ['Stop.', 'stop'],
    ['cancel that', 'stop'],
    ['Never mind!', 'stop'],
    ['Bye.', 'closing'],
    ['Thanks!', 'closing'],
    ['okay thank you', 'closing'],
    ['and um', 'fragment'],
    ['so yeah', 'fragment'],
    ['Tuesday.', 'fragment'],
    ['What is the capital of France?', 'request'],
    ['Stop the timer at five', 'request'],
    ['help', 'request'],
  ] as const)('%j is a %s', (text, kind) => {
    expect(classifyUtterance(text)).toBe(kind);
  });
});

describe('addressing rule', () => {
  const auto = new AddressingPolicy('Charlie', 'auto');
  it('alone with one person, everything is for Charlie', () => {
    expect(auto.decide('what is on my list', 1)).toEqual({ action: 'answer', text: 'what is on my list' });
  });
  it('with three people only the wake name counts, at the start or the end', () => {
    expect(auto.decide('what is on my list', 3)).toEqual({ action: 'ignore', reason: 'not_addressed' });
    expect(auto.decide('Charlie, what is on my list', 3)).toEqual({ action: 'answer', text: 'what is on my list' });
    expect(auto.decide('what is on my list, Charly?', 3)).toEqual({ action: 'answer', text: 'what is on my list' });
    expect(auto.decide('I asked Charlie about the list yesterday', 3)).toEqual({ action: 'ignore', reason: 'not_addressed' });
  });
  it('bare closings and fragments start no answer, even when addressed', () => {
    expect(auto.decide('bye', 1)).toEqual({ action: 'ignore', reason: 'closing' });
    expect(auto.decide('Thanks Charlie', 3)).toEqual({ action: 'ignore', reason: 'closing' });
    expect(auto.decide('and um', 1)).toEqual({ action: 'ignore', reason: 'fragment' });
  });
  it('stop works addressed, or by anyone while Charlie is speaking', () => {
    expect(auto.decide('Charlie, stop', 3)).toEqual({ action: 'stop' });
    expect(auto.decide('stop', 3, true)).toEqual({ action: 'stop' });
    expect(auto.decide('stop', 3, false)).toEqual({ action: 'ignore', reason: 'not_addressed' });
    expect(auto.decide('cancel that', 1)).toEqual({ action: 'stop' });
  });
  it('the rule can be forced on or off', () => {
    expect(new AddressingPolicy('Charlie', 'always').decide('what time is it', 1)).toEqual({ action: 'ignore', reason: 'not_addressed' });
    expect(new AddressingPolicy('Charlie', 'never').decide('what time is it', 4)).toEqual({ action: 'answer', text: 'what time is it' });
  });
});

describe('hallucination filter', () => {
  it.each(['Thank you.', ' [BLANK_AUDIO]', '(upbeat music)', 'Thanks for watching!', 'you', '♪♪', 'Subtitles by the Amara.org community', 'you you you', ''])('discards %j', (text) => {
    expect(isHallucination(text)).toBe(true);
  });
  it.each(['Thank you for the summary, can you shorten it?', 'What is the time?', 'Remind me to call Sarah'])('keeps %j', (text) => {
    expect(isHallucination(text)).toBe(false);
  });
  it('strips non-speech tags but keeps the words', () => {
    expect(stripNonSpeech('[MUSIC] What time is it? (coughs)')).toBe('What time is it?');
  });
});
