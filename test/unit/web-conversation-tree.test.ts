/**
 * A place's archive as the web app's conversations (src/web/conversation-tree.ts): messages go to
 * the conversation that linked them (else the first); an edit or a regenerated answer is an
 * alternative of the turn it replaces and what followed stays on the old branch; the shown path
 * follows the last choice; the model reads only the branch a new turn continues; the single
 * conversation of before (older Retry and edit traces) keeps its messages as alternatives. Also
 * automatic titles, and storage syntax kept out of what a person reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../src/core/ports/index.js';
import { ConversationStore, titleFrom } from '../../src/web/conversation-store.js';
import { ConversationTree } from '../../src/web/conversation-tree.js';
import type { TurnTrace } from '../../src/web/trace-store.js';
import { summaryWords, withoutStorageSyntax } from '../../src/web/client/words.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const store = () => {
  const d = mkdtempSync(join(tmpdir(), 'charlie-conv-'));
  dirs.push(d);
  return new ConversationStore(d);
};
let clock = 0;
const turn = (source: string, q: string, a: string): LogEntry[] => {
  const time = new Date(Date.UTC(2026, 11, 1) + ++clock * 1000).toISOString();
  return [
    { time, speaker: 'Ann', role: 'user', text: q, source },
    { time, speaker: 'Charlie', role: 'assistant', text: a, source },
  ];
};
const trace = (source: string, extra: Partial<TurnTrace>): [string, TurnTrace] => [source, { source, calls: [], related: [], reason: 'done', ...extra }];
const texts = (t: ConversationTree) => t.messages().map((m) => m.text);
const at = new Date('2026-12-01T00:00:00Z');

describe('conversations of a place', () => {
  it('puts linked turns in their conversation and everything else (Discord, terminal, older web turns) in the first', () => {
    const s = store();
    const trip = s.create('p', at).id;
    s.link('p', trip, `web:${trip}:1`, null, at);
    const log = [...turn('https://discord.com/channels/1/2/3', 'from Discord', 'hi'), ...turn(`web:${trip}:1`, 'Lisbon?', 'Yes'), ...turn('web:2', 'old web', 'ok')];
    const place = s.read('p');
    expect(texts(new ConversationTree(log, place, 'main', new Map()))).toEqual(['from Discord', 'hi', 'old web', 'ok']);
    expect(texts(new ConversationTree(log, place, trip, new Map()))).toEqual(['Lisbon?', 'Yes']);
  });

  it('keeps an edit as an alternative with its own branch, shows the newest or the chosen one, and feeds the model only its branch', () => {
    const s = store();
    const c = s.create('p', at).id;
    const log: LogEntry[] = [];
    const add = (src: string, after: string | null, q: string, a: string) => {
      s.link('p', c, src, after, at);
      log.push(...turn(src, q, a));
    };
    add('web:c:1', null, 'Plan May', 'May plan');
    add('web:c:2', 'web:c:1', 'Book train', 'Booked');
    add('web:c:3', null, 'Plan June', 'June plan'); // an edit of the first message
    let tree = new ConversationTree(log, s.read('p'), c, new Map());
    expect(texts(tree)).toEqual(['Plan June', 'June plan']);
    expect(tree.messages()[1]?.alts).toEqual({ index: 2, count: 2, prev: 'web:c:1' });
    expect(tree.historyBefore('web:c:3', 10).map((e) => e.text)).toEqual(['Plan June', 'June plan']);
    expect(tree.historyBefore('web:c:2', 10).map((e) => e.text)).toEqual(['Plan May', 'May plan', 'Book train', 'Booked']);
    s.choose('p', 'web:c:1');
    tree = new ConversationTree(log, s.read('p'), c, new Map());
    expect(texts(tree)).toEqual(['Plan May', 'May plan', 'Book train', 'Booked']);
    expect(tree.messages()[0]?.alts).toEqual({ index: 1, count: 2, next: 'web:c:3' });
    expect(tree.tail()).toBe('web:c:2');
  });

  it('reads the single conversation of before: a Retry and an edit become alternatives, nothing is lost', () => {
    const s = store();
    const log = [...turn('web:1', 'Q1', 'A1'), ...turn('web:2', 'Q2', 'A2 first'), ...turn('web:3', 'Q2', 'A2 again'), ...turn('web:4', 'Q2 edited', 'A2 edited')];
    const traces = new Map([trace('web:3', { retry: true }), trace('web:4', { replaces: 'web:3' })]);
    const tree = new ConversationTree(log, s.read('p'), 'main', traces);
    expect(texts(tree)).toEqual(['Q1', 'A1', 'Q2 edited', 'A2 edited']);
    expect(tree.messages()[3]?.alts).toMatchObject({ index: 3, count: 3 });
    expect(tree.turns.size).toBe(4);
  });

  it('puts a reply cut by an error back from its trace', () => {
    const s = store();
    const time = new Date().toISOString();
    const log: LogEntry[] = [{ time, speaker: 'Ann', role: 'user', text: 'Q', source: 'web:9' }];
    const tree = new ConversationTree(log, s.read('p'), 'main', new Map([trace('web:9', { reason: 'error', partial: 'Half an ans', error: 'boom' })]));
    expect(tree.messages().map((m) => [m.role, m.text, m.trace?.error])).toEqual([
      ['user', 'Q', undefined],
      ['assistant', 'Half an ans', 'boom'],
    ]);
  });

  it('titles, renames (a given title wins over an automatic one) and deletes', () => {
    const s = store();
    const c = s.create('p', at).id;
    s.rename('p', c, 'Given', true);
    s.rename('p', c, 'Automatic', false);
    expect(s.read('p').list.find((x) => x.id === c)?.title).toBe('Given');
    s.delete('p', c, at);
    expect(s.read('p').list.map((x) => x.id)).toEqual(['main']);
    expect(titleFrom('  Plan the trip to Lisbon in May, with the train and the hotels near the river  ')).toBe('Plan the trip to Lisbon in May, with the train and the…');
    expect(titleFrom('Short\nand sweet')).toBe('Short and sweet');
    expect(titleFrom('   ')).toBe('New conversation');
  });
});

describe('storage syntax in what a person reads', () => {
  it('drops block ids and shows page links by their title, leaving code alone', () => {
    expect(withoutStorageSyntax('Leo likes tea. ^r-3f9a1c')).toBe('Leo likes tea.');
    expect(withoutStorageSyntax('Ask [[People/Leo-Chen]] or [[Sarah-Chen|Sarah]] (see [[People/Leo-Chen#^r-3f9a]]).')).toBe('Ask Leo Chen or Sarah (see Leo Chen).');
    expect(withoutStorageSyntax('Run `grep ^r-abc [[x]]` now')).toBe('Run `grep ^r-abc [[x]]` now');
  });

  it('names the pages in a tool’s result by their titles', () => {
    expect(summaryWords('opened People/Leo-Chen.md')).toBe('opened Leo Chen');
    expect(summaryWords('saved notes/Topics/Oat-milk.md')).toBe('saved Oat milk');
    expect(summaryWords('1 hit for "README.md"')).toBe('1 hit for "README.md"');
  });
});
