import { describe, expect, it } from 'vitest';
import { candidateKey } from '../../src/core/writing/promotion.js';
import { disagreeingPair, FakeAssistant, waitingCandidate } from '../support/fake-assistant.js';
import { pipeTerminal } from '../support/terminal.js';

const run = (assistant: FakeAssistant, input: string) => pipeTerminal(assistant, input);

describe('/memory candidates, review and hold in the terminal', () => {
  it('lists what waits with its score and message, and promotes one by key', async () => {
    const a = new FakeAssistant();
    const key = candidateKey('Bob', 'Is moving to Porto.');
    a.candidates = [waitingCandidate(key)];
    const out = await run(a, `/memory candidates\n/memory promote ${key}\n/memory promote c-nope\n/memory candidates\n`);
    expect(out).toContain(`${key} 0.51  Bob: Is moving to Porto.`);
    expect(out).toContain('“Bob said something about Porto” · expires 2026-11-18');
    expect(out).toContain(`promoted ${key}`);
    expect(out).toContain('no waiting candidate c-nope');
    expect(out).toContain('nothing waits for promotion');
  });

  it('/memory review lists the pairs and resolves one; /memory hold holds a record', async () => {
    const a = new FakeAssistant();
    a.reviews = [disagreeingPair()];
    const out = await run(a, '/memory review\n/memory review r-bbbbbb sideways\n/memory hold r-aaaaaa\n/memory review r-bbbbbb keep-new\n/memory review\n');
    for (const line of [
      'old r-aaaaaa Works at Acme. (said 2026-06-01)',
      'new r-bbbbbb Joined Globex. (said 2026-07-01)',
      'usage: /memory review ID keep-new|keep-old|keep-both',
      'held r-aaaaaa',
      'keep-new: done',
      'nothing is in review',
    ])
      expect(out).toContain(line);
    expect(a.resolved).toEqual([
      { id: 'r-aaaaaa', choice: 'hold' },
      { id: 'r-bbbbbb', choice: 'keep-new' },
    ]);
  });
});
