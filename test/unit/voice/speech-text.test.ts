import { describe, expect, it } from 'vitest';
import { CODE_NOTE, cleanForSpeech, compressForSpeech } from '../../../src/voice/speech-text.js';
import { SpokenReplyStream } from '../../../src/voice/spoken-reply.js';

describe('cleanForSpeech', () => {
  it('removes Markdown, code and URLs', () => {
    const text = '## Plan\n**Bold** and _italic_ with [the docs](https://example.com/a/b) at https://github.com/x/y.\n- one\n- two\n```js\nconst x = 1;\n```\nUse `npm test`.';
    const out = cleanForSpeech(text);
    expect(out).not.toMatch(/[*_#`[\]]|https?:|const x/);
    expect(out).toContain('Plan. Bold and italic with the docs at a link to github.com.');
    expect(out).toContain('one. two.');
    expect(out).toContain(CODE_NOTE);
    expect(out).toContain('Use npm test.');
  });
  it('reads wiki links by their label or page name', () => {
    expect(cleanForSpeech('See [[People/Sarah-Chen]] and [[Topics/JWT|the JWT page]].')).toBe('See Sarah Chen and the JWT page.');
  });
});

describe('compressForSpeech', () => {
  it('keeps conversational length at a sentence boundary', () => {
    const reply = Array.from({ length: 10 }, (_, i) => `This is sentence number ${i + 1}.`).join(' ');
    const out = compressForSpeech(reply, { maxSentences: 3 });
    expect(out).toBe('This is sentence number 1. This is sentence number 2. This is sentence number 3.');
    expect(compressForSpeech(reply, { maxChars: 60 }).split('. ').length).toBe(2);
  });
});

describe('SpokenReplyStream', () => {
  it('yields the first sentence as soon as it is complete, before the reply ends', () => {
    const s = new SpokenReplyStream();
    expect(s.push('Sure, Dr. Smith')).toEqual([]);
    expect(s.push(' is at 3.5 Main St. today')).toEqual([]);
    expect(s.push('! Next')).toEqual(['Sure, Dr. Smith is at 3.5 Main St. today!']);
    expect(s.push(' one?')).toEqual([]);
    expect(s.end()).toEqual(['Next one?']);
  });
  it('holds code fences until closed and replaces them with one note', () => {
    const s = new SpokenReplyStream();
    const out = [...s.push('Here it is.\n```ts\nconst a = 1;\n'), ...s.push('const b = 2;\n```\nRun it.'), ...s.end()];
    expect(out).toEqual(['Here it is.', CODE_NOTE, 'Run it.']);
  });
  it('caps what is spoken and says where the rest is', () => {
    const s = new SpokenReplyStream({ maxChars: 50 });
    const out = [...s.push('First sentence is here. Second sentence is here too. Third one. '), ...s.end()];
    expect(out).toEqual(['First sentence is here.', 'The rest is in the text channel.']);
  });
  it('breaks an overlong clause without punctuation', () => {
    const s = new SpokenReplyStream({ maxSentenceChars: 80 });
    const long = 'word '.repeat(40);
    const out = s.push(long);
    expect(out.length).toBeGreaterThan(0);
    expect(out[0]!.length).toBeLessThanOrEqual(80);
  });
});
