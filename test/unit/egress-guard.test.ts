import { describe, expect, it } from 'vitest';
import { guardSpeech, SensitiveIndex, scrubRequest, withheld } from '../../src/core/privacy/egress.js';
import { sensitivityOf } from '../../src/core/privacy/sensitivity.js';
import { ScriptedChatModel } from '../support/fakes.js';
import type { TextToSpeech } from '../../src/core/ports/index.js';
import { general, makeAssistant, msg } from '../support/assistant-fixture.js';
import { markedBlocks } from '../../src/core/privacy/sensitive-records.js';
import { chunkPage } from '../../src/memory/index/chunker.js';

const index = new SensitiveIndex([
  { origin: 'People/Bob.md', text: '### 2026-11-20\n\nBob keeps the vault code 4471 in the blue folder.\nHe changes it monthly.' },
  { origin: 'decisions.md', text: 'Sell the house quietly [sensitivity:: sensitive]' },
]);

describe('the egress guard', () => {
  it.each([
    ['Bob keeps the vault code 4471 in the blue folder.', withheld('People/Bob.md')],
    ['- notes/People/Bob.md:5: Bob keeps the vault code 4471 in the blue folder.', withheld('People/Bob.md')],
    ['[notes/People/Bob.md:5-6] (score 0.9)\nBob keeps the vault code 4471 in the blue …', `[notes/People/Bob.md:5-6] (score 0.9)\n${withheld('People/Bob.md')}`],
    ['- 2026-11-21: Sell the house quietly', `- ${withheld('decisions.md')}`.replace('- ', '')],
    ['We keep the vault in the garage.', 'We keep the vault in the garage.'],
    ['### 2026-11-20', '### 2026-11-20'],
    ['He changes', 'He changes'],
  ])('%s', (input, expected) => {
    const out = index.scrub(input).text;
    if (expected.startsWith('[withheld') || expected.includes('[withheld')) expect(out).toContain('[withheld:');
    else expect(out).toBe(expected);
    expect(out).not.toContain('4471');
    expect(out).not.toMatch(/Sell the house/);
  });

  it('scrubs every part of a request: system, history, tool results, tool arguments, text parts of images', () => {
    const { request, withheld: origins } = scrubRequest(
      {
        messages: [
          { role: 'system', content: 'Summary:\nSell the house quietly' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Bob keeps the vault code 4471 in the blue folder.' },
              { type: 'image_url', image_url: { url: 'data:x' } },
            ],
          },
          { role: 'assistant', content: null, toolCalls: [{ id: '1', name: 'search_notes', arguments: '{"text":"Bob keeps the vault code 4471 in the blue folder."}' }] },
          { role: 'tool', toolCallId: '1', name: 'search_notes', content: 'He changes it monthly.' },
        ],
      },
      index,
    );
    expect(JSON.stringify(request)).not.toMatch(/4471|Sell the house|changes it monthly/);
    expect(origins.sort()).toEqual(['People/Bob.md', 'decisions.md']);
  });

  it('reads sensitivity from markers and front matter', () => {
    expect(sensitivityOf('a [sensitivity:: sensitive] b')).toBe('sensitive');
    expect(sensitivityOf('plain', 'public')).toBe('public');
    expect(markedBlocks('### 2026-01-01\n\nfine\n\n### 2026-01-02 [sensitivity:: sensitive]\n\nsecret entry\n\n- a\n- b [sensitivity:: sensitive]\n')).toEqual([
      '### 2026-01-02 [sensitivity:: sensitive]\n\nsecret entry\n\n- a\n- b [sensitivity:: sensitive]\n',
    ]);
    expect(markedBlocks('intro\n\nthe code is 12 [sensitivity:: sensitive]\n\n- x\n- y [sensitivity:: sensitive]')).toEqual([
      'the code is 12 [sensitivity:: sensitive]',
      '- y [sensitivity:: sensitive]',
    ]);
  });

  it('every chunk knows its sensitivity: page front matter, marked entry, marked archive message', () => {
    const page = chunkPage('notes/People/Bob.md', '---\ntitle: Bob\nsensitivity: sensitive\n---\n\nBob text.\n');
    expect(page.map((c) => c.sensitivity)).toEqual(['sensitive']);
    const mixed = chunkPage('notes/People/Ann.md', '---\ntitle: Ann\n---\n\n### 2026-01-01\n\nfine\n\n### 2026-01-02 [sensitivity:: sensitive]\n\nprivate\n');
    expect(mixed.map((c) => [c.text, c.sensitivity])).toEqual([
      ['fine', 'personal'],
      ['private', 'sensitive'],
    ]);
    const log = chunkPage('log/2026-11-20.md', '# 2026-11-20\n\n### 10:00:00 · Ann · [↗](t:1)\n\nhello\n\n### 10:01:00 · Ann · [↗](t:2)\n\nmy salary [sensitivity:: sensitive]\n');
    expect(log.map((c) => c.sensitivity)).toEqual(['personal', 'sensitive']);
  });
});

describe('the online voice passes the guard too', () => {
  it('a hosted TTS gets sensitive lines withheld; a local one is left alone', async () => {
    const said: { voice: string; text: string }[] = [];
    const engine = (id: string, locality: 'local' | 'hosted', localVoice?: TextToSpeech): TextToSpeech => ({
      id,
      locality,
      ...(localVoice ? { localVoice } : {}),
      synthesize: async (text: string) => (said.push({ voice: id, text }), { mime: 'audio/wav', data: new Uint8Array() }),
    });
    const chat = new ScriptedChatModel([]);
    const { assistant, store } = makeAssistant({ model: chat });
    await assistant.settings.showMemory(general);
    await store.putPage('general', { title: 'Bob', body: 'Bob keeps the vault code 4471 in the blue folder.', source: 'x' });
    store.projects.get('general')!.notes.get('Topics/Bob.md')!.sensitivity = 'sensitive';
    // what is read aloud is what was said there (a text the place does not hold stays on the local voice)
    for (const text of ['Sure. Bob keeps the vault code 4471 in the blue folder.', "Sure! Bob's PIN is 9911.", 'The weather is fine today.'])
      store.projects.get('general')!.log.push({ time: '2026-12-01T10:00:00.000Z', speaker: 'Charlie', source: 'web', text, role: 'assistant' });
    const policy = (text: string) => assistant.conversation.speechMustStayLocal(general, text);
    const told: string[] = [];
    const online = guardSpeech(engine('edge', 'hosted', engine('espeak', 'local')), policy, () => told.push('local'));
    await online.synthesize('Sure. Bob keeps the vault code 4471 in the blue folder.');
    // the rules' class, in words no record has: a PIN stated in the reply
    await online.synthesize("Sure! Bob's PIN is 9911.");
    await online.synthesize('The weather is fine today.');
    await guardSpeech(engine('espeak', 'local'), policy).synthesize('Bob keeps the vault code 4471 in the blue folder.');
    expect(said.map((s) => s.voice)).toEqual(['espeak', 'espeak', 'edge', 'espeak']);
    expect(told).toEqual(['local']);
    // with no local voice, such text is not spoken at all
    await expect(guardSpeech(engine('edge', 'hosted'), policy).synthesize("Bob's PIN is 9911")).rejects.toThrow(/not sent to the online voice/);
  });
});

describe('a tainted turn', () => {
  const sensitiveHit = {
    page: 'notes/People/Bob.md',
    heading: '',
    lineStart: 1,
    lineEnd: 1,
    text: 'Bob keeps the vault code in the blue folder.',
    updated: '',
    staleness: 0,
    score: 1,
    parts: { vector: 1, keyword: 0, usage: 0, recency: 1 },
    why: ['vector'],
    sensitivity: 'sensitive' as const,
  };

  it('whose search found a sensitive record: its reply, in any words, never goes to an online voice', async () => {
    for (const tainted of [true, false]) {
      const model = new ScriptedChatModel([{ toolCalls: [{ name: 'search_memory', arguments: '{"query":"Bob"}' }] }, { text: 'He keeps it where you would expect.' }], false, 'local');
      const recall = { recall: () => Promise.resolve(tainted ? [sensitiveHit] : []) };
      const { assistant } = makeAssistant({ model, memoryModel: null, recall });
      const out = await assistant.conversation.handle(msg('where does Bob keep it?'));
      expect(out.tainted).toBe(tainted);
      expect(await assistant.conversation.speechMustStayLocal(general, 'He keeps it where you would expect.')).toBe(tainted);
      // the web's Read aloud does not know the place: the ledger of every place answers
      expect(await assistant.conversation.speechMustStayLocal(null, 'He keeps it where you would expect.')).toBe(tainted);
    }
  });

  // the outside sweep: Read aloud found a reply's label only among the newest 500 entries
  it('a reply stored with a sensitive label is spoken here however old it is; without a place, so is a text stored nowhere', async () => {
    const { assistant, store } = makeAssistant({ model: new ScriptedChatModel([]) });
    await assistant.settings.showMemory(general);
    const log = store.projects.get('general')!.log;
    const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    const labelled = 'Your picnic at the meadow is at ten, as your calendar says.';
    log.push({ time: at(0), speaker: 'Charlie', source: 'web', text: labelled, role: 'assistant', sensitivity: 'sensitive' });
    log.push({ time: at(1), speaker: 'Charlie', source: 'web', text: 'The choir meets on Tuesday.', role: 'assistant' });
    for (let i = 2; i < 6_002; i++) log.push({ time: at(i), speaker: 'Ann', source: 'web', text: `note ${String(i)} about the garden`, role: 'user' });
    for (const place of [general, null]) {
      expect(await assistant.conversation.speechMustStayLocal(place, labelled)).toBe(true);
      expect(await assistant.conversation.speechMustStayLocal(place, 'The choir meets on Tuesday.')).toBe(false);
    }
    // a text no place holds (a hand-made request naming another chat): its origin is not known, so it stays here
    expect(await assistant.conversation.speechMustStayLocal(general, 'The weather is fine today.')).toBe(true);
    expect(await assistant.conversation.speechMustStayLocal(null, 'The weather is fine today.')).toBe(true);
  });
});
