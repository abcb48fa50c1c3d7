/**
 * Labels set when text is written and read back with it: the archive entry's label line, the
 * rules applied to an entry stored before labels existed, and a summary, decision or quote made
 * from a labelled message carrying its label.
 */
import { describe, expect, it } from 'vitest';
import { graphView, mergeLayers, type DistillGraph } from '../../src/core/writing/distill.js';
import type { LogEntry } from '../../src/core/ports/index.js';
import { labelOf, labelText, mayGo } from '../../src/core/privacy/sensitivity.js';
import { formatLogEntry, parseLog } from '../../src/memory/archive-format.js';
import { releasableLayers } from '../../src/core/privacy/sensitive-records.js';

const at = '2026-11-29T18:20:11.000Z';
const graph = { entities: [], facts: [], links: [] };
const entry = (text: string, extra: Partial<LogEntry> = {}): LogEntry => ({ time: at, speaker: 'Alice', source: 'terminal:1', text, role: 'user', ...extra });

describe('labels on archive entries', () => {
  it('a message the rules classify is written with its label line and read back with the label, not in the text', () => {
    const md = formatLogEntry(entry('I take sumatriptan for my migraines'));
    expect(md).toContain('I take sumatriptan for my migraines\n[sensitivity:: sensitive/phi]\n');
    const [read] = parseLog(md, '2026-11-29');
    expect(read).toMatchObject({ text: 'I take sumatriptan for my migraines', sensitivity: 'sensitive', kind: 'phi' });
  });

  it("a writer's label is kept even when the rules see nothing (a tainted reply in other words)", () => {
    const [read] = parseLog(formatLogEntry(entry('He keeps it where you would expect.', { role: 'assistant', sensitivity: 'sensitive' })), '2026-11-29');
    expect(read).toMatchObject({ text: 'He keeps it where you would expect.', role: 'assistant', sensitivity: 'sensitive' });
    expect(mayGo(labelOf(read!), 'hosted')).toBe(false);
    expect(mayGo(labelOf(read!), 'local')).toBe(true);
  });

  it('an ordinary message carries no label line and reads as personal', () => {
    const md = formatLogEntry(entry('We should buy a tent.'));
    expect(md).not.toContain('[sensitivity::');
    const [read] = parseLog(md, '2026-11-29');
    expect(read?.sensitivity).toBeUndefined();
    expect(labelOf(read!)).toEqual({ sensitivity: 'personal' });
  });

  it('an entry stored before labels existed is judged by the rules when read (fails closed)', () => {
    const old = `\n### 18:20:11 · Alice · [↗](<terminal:1>)\n\nmy PIN is 4471\n`;
    const [read] = parseLog(old, '2026-11-29');
    expect(read?.sensitivity).toBeUndefined();
    expect(labelOf(read!)).toEqual({ sensitivity: 'sensitive', kind: 'credential' });
  });

  it('labelText takes the strictest of the text, its markers and its sources', () => {
    expect(labelText('fine weather')).toEqual({ sensitivity: 'personal' });
    expect(labelText('fine weather', { sensitivity: 'sensitive' })).toEqual({ sensitivity: 'sensitive' });
    expect(labelText('fine weather [sensitivity:: confidential]').sensitivity).toBe('sensitive');
  });
});

describe('layers made from labelled messages carry the label', () => {
  const current = { summary: 'We plan a trip.', decisions: [], quotes: [] };
  const entries = [entry('I take sumatriptan for my migraines', { sensitivity: 'sensitive', kind: 'phi' }), entry('We should buy a tent.', { source: 'terminal:2' })];

  // a model may cite the harmless neighbour of the message it restates (the outside sweep's leak): a decision carries the batch's label
  it('the summary and every decision made from a batch with a labelled message are labelled, whichever message a decision cites', () => {
    const reply = {
      summary: 'Alice manages her headaches and we plan a trip.',
      decisions: [
        { text: 'Alice keeps her medicine in the tent', message: 1 },
        { text: 'Buy a tent', message: 2 },
      ],
      quotes: [],
      graph,
    };
    const out = mergeLayers(current, reply, entries);
    expect(out.summary).toBe('Alice manages her headaches and we plan a trip.\n\n[sensitivity:: sensitive/phi]');
    expect(out.decisions.map((d) => d.text)).toEqual(['Alice keeps her medicine in the tent [sensitivity:: sensitive/phi]', 'Buy a tent [sensitivity:: sensitive/phi]']);
  });

  it('a decision made while the model was shown a labelled decision or summary carries that label (it may restate them)', () => {
    const plain = [entry('We should buy a tent.')];
    const reply = { summary: 'A trip.', decisions: [{ text: 'Friday is booked, as agreed', message: 1 }], quotes: [], graph };
    const labelled = { ...current, decisions: [{ date: '2026-11-01', text: 'Friday: the consult at the Wexley clinic [sensitivity:: sensitive/phi]', source: 'x' }] };
    expect(mergeLayers(labelled, reply, plain).decisions.at(-1)?.text).toBe('Friday is booked, as agreed [sensitivity:: sensitive/phi]');
    expect(mergeLayers(current, reply, plain).decisions.at(-1)?.text).toBe('Friday is booked, as agreed');
  });

  it('a decision from an ordinary batch is labelled by its own words only', () => {
    const plain = [entry('We should buy a tent.'), entry('And book the campsite for Friday.', { source: 'terminal:2' })];
    const reply = {
      summary: 'A trip.',
      decisions: [
        { text: 'Buy a tent', message: 1 },
        { text: 'Friday: the abortion consult, then the campsite', message: 2 },
      ],
      quotes: [],
      graph,
    };
    expect(mergeLayers(current, reply, plain).decisions.map((d) => d.text)).toEqual(['Buy a tent', 'Friday: the abortion consult, then the campsite [sensitivity:: sensitive/phi]']);
  });

  it('a hosted model is given no decision, quote or summary paragraph that is sensitive by its words, even without a marker (a hand edit)', () => {
    const layers = {
      summary: 'We plan a trip.\n\nGemma has her abortion follow-up on Monday.',
      decisions: [
        { date: '2026-12-01', text: 'Drive Gemma to her abortion follow-up', source: 'hand' },
        { date: '2026-12-01', text: 'Buy a tent', source: 'hand' },
      ],
      quotes: [{ date: '2026-12-01', speaker: 'Ann', text: 'My passport number is 533401234', source: 'hand' }],
    };
    const hosted = releasableLayers(layers, 'hosted');
    expect(JSON.stringify(hosted)).not.toMatch(/abortion|533401234/);
    expect(hosted.decisions.map((d) => d.text)).toEqual(['Buy a tent']);
    expect(hosted.summary).toContain('We plan a trip.');
    expect(releasableLayers(layers, 'local')).toEqual(layers);
  });

  it('a summary rewritten from a labelled summary stays labelled, from ordinary messages alone it is not', () => {
    const plain = [entry('We should buy a tent.')];
    expect(mergeLayers(current, { summary: 'A trip.', decisions: [], quotes: [], graph }, plain).summary).toBe('A trip.');
    const labelled = { ...current, summary: 'Old.\n\n[sensitivity:: sensitive]' };
    expect(mergeLayers(labelled, { summary: 'A trip.', decisions: [], quotes: [], graph }, plain).summary).toBe('A trip.\n\n[sensitivity:: sensitive]');
  });
});

describe("distillation's recall of related pages", () => {
  it('asks as tainted (no hosted vector) when the batch holds a labelled message, and not otherwise', async () => {
    const asked: boolean[] = [];
    const graph = {
      related: (_text: string, tainted?: boolean) => (asked.push(tainted === true), Promise.resolve([])),
      pageMap: () => Promise.resolve([]),
      taxonomy: () => Promise.resolve([]),
    } as unknown as DistillGraph;
    await graphView(graph, [entry('I take sumatriptan for my migraines')], []);
    await graphView(graph, [entry('He keeps it there.', { role: 'assistant', sensitivity: 'sensitive' })], []);
    await graphView(graph, [entry('We should buy a tent.')], []);
    expect(asked).toEqual([true, true, false]);
  });
});
