/**
 * A record made from a message carries the message's label (issue 36; sweep 7's P1): whatever the
 * memory model says of the fact, and whether the label was stored when the message was archived
 * (the precheck, the lane's verdict, a provisional label) or is the rules' reading of its words.
 * Generated from the code's own list of kinds, so a new kind is covered.
 */
import { describe, expect, it } from 'vitest';
import { toGraphWrite } from '../../src/core/writing/graph-distill.js';
import type { LogEntry } from '../../src/core/ports/index.js';
import { classifyText, isSensitive, SENSITIVE_KINDS } from '../../src/core/privacy/sensitivity.js';

// words no rule knows: only the stored label can say it is sensitive
const MISSED = 'Rowan has been gouching on the sofa by noon most days this week.';
const message = (over: Partial<LogEntry> = {}): LogEntry => ({ time: '2026-12-01T10:00:00Z', speaker: 'Ann', role: 'user', source: 'terminal:1', text: MISSED, ...over });
const recordOf = (said: LogEntry, modelSays?: string) =>
  toGraphWrite({ entities: [], facts: [{ entity: 'Rowan', text: 'Rowan uses again.', message: 1, ...(modelSays ? { sensitivity: modelSays } : {}) }], links: [] }, [said], [], 'test').write
    .entities[0]!.facts[0]!;

describe('a record carries the label of the message it was made from', () => {
  it('the rules miss the wording', () => expect(classifyText(MISSED)).toBeNull());

  const stored: [string, Partial<LogEntry>, string][] = [
    ['sensitive, no kind', { sensitivity: 'sensitive' }, 'sensitive'],
    ...SENSITIVE_KINDS.map((kind): [string, Partial<LogEntry>, string] => [`sensitive/${kind}`, { sensitivity: 'sensitive', kind }, `sensitive/${kind}`]),
    ['provisional (the precheck failed closed)', { sensitivity: 'sensitive', unjudged: true }, 'sensitive'],
  ];
  it.each(stored)('stored %s: the record is labelled, though the model says nothing or "personal"', (_what, label, expected) => {
    for (const says of [undefined, 'personal']) {
      const f = recordOf(message(label), says);
      expect(isSensitive(f.sensitivity), `model says ${String(says)}`).toBe(true);
      expect(f.sensitivity).toBe(expected);
    }
  });

  it("the rules' label of the message's words, when nothing was stored", () => {
    expect(recordOf(message({ text: 'I take sumatriptan for my migraines.' })).sensitivity).toBe('sensitive/phi');
  });

  it('the stricter wins: a kind the model names is kept over a bare label', () => {
    expect(recordOf(message({ sensitivity: 'sensitive' }), 'sensitive/phi').sensitivity).toBe('sensitive/phi');
  });

  it('an ordinary message adds no label', () => {
    expect(recordOf(message({ text: 'Rowan likes climbing on Saturdays.' })).sensitivity).toBeUndefined();
    expect(recordOf(message({ text: 'Rowan likes climbing on Saturdays.', sensitivity: 'personal' })).sensitivity).toBeUndefined();
  });
});
