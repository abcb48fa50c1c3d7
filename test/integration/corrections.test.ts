/**
 * Corrections are found wherever they are (issue 39): "Sarah Chen works at Acme" and "Sarah Chen
 * now works at Globex" distilled in one batch (through the promotion gate, scripted memory
 * model) leave Globex current and Acme superseded; without words that say it changed, both go
 * to review; the same across batches, in a private conversation, and in a hand edit.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { fileCandidateStore } from '../../src/memory/records/candidate-store.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, InMemoryProjectStore, ScriptedChatModel } from '../support/fakes.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';

let fx: RetrievalFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const place: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
const url = (n: number) => `https://discord.com/channels/1/2/${100 + n}`;
const PAGE = 'People/Professional/Sarah-Chen.md';

type Fact = { text: string; message: number };
const reply = (facts: Fact[]) =>
  JSON.stringify({
    summary: 'Talk about Sarah.',
    decisions: [],
    quotes: [],
    entities: [{ name: 'Sarah Chen', category: 'People/Professional', aliases: ['Sarah'], staleness: 2, new: true }],
    facts: facts.map((f) => ({ entity: 'Sarah Chen', text: f.text, message: f.message, type: 'identity' })),
    links: [],
  });

function project(batches: Fact[][]) {
  const f = retrievalFixture();
  fx = f;
  const clock = new FixedClock(new Date('2026-06-01T09:00:00Z'));
  const store = new FileProjectStore({ projectsDir: f.projectsDir, clock, defaults: { distillEvery: 100 } });
  const graph = new Wiki({ projectsDir: f.projectsDir, clock, logger: silentLogger });
  const memoryModel = new ScriptedChatModel((_req, n) => ({ text: reply(batches[n] ?? []) }));
  const { assistant } = makeAssistant({
    model: new ScriptedChatModel(() => ({ text: 'ok' })),
    memoryModel,
    store,
    graph,
    recall: f.open(undefined, undefined, clock).recall,
    clock,
    candidates: (p) => fileCandidateStore(f.dataDir, p),
  });
  const say = (n: number, text: string) => assistant.conversation.handle({ place, speaker: 'Alice', text, source: url(n), time: clock.now(), reply: false });
  const page = async () => (await readFile(join(f.projectsDir, 'general', 'notes', PAGE), 'utf8')).split('\n');
  return { assistant, clock, say, page };
}

const line = (lines: string[], needle: string) => lines.find((l) => l.includes(needle)) ?? '';

describe('corrections', () => {
  it('inside one distillation batch: "now works at Globex" supersedes "works at Acme"', async () => {
    const p = project([
      [
        { text: 'Works at Acme as a designer.', message: 1 },
        { text: 'Now works at Globex.', message: 2 },
      ],
    ]);
    await p.say(1, 'Sarah Chen works at Acme as a designer.');
    await p.say(2, 'Sarah Chen now works at Globex.');
    expect((await p.assistant.memory.distillNow(place)).ran).toBe(true);
    const lines = await p.page();
    expect(line(lines, 'Acme')).toContain('[status:: superseded]');
    expect(line(lines, 'Globex')).not.toContain('[status::');
    const records = await p.assistant.memory.records(place);
    expect(records.map((r) => [r.statement, r.status])).toEqual([
      ['Works at Acme as a designer.', 'superseded'],
      ['Now works at Globex.', 'active'],
    ]);
    const why = await p.assistant.memory.why(place, { query: 'where does Sarah work' });
    expect(why.chains.map((c) => [c.statement, c.status])).toEqual([
      ['Now works at Globex.', 'active'],
      ['Works at Acme as a designer.', 'superseded'],
    ]);
  });

  it('inside one batch, without words that say it changed: both go to review', async () => {
    const p = project([
      [
        { text: 'Works at Acme.', message: 1 },
        { text: 'Works at Globex.', message: 2 },
      ],
    ]);
    await p.say(1, 'Sarah Chen works at Acme.');
    await p.say(2, 'Sarah Chen works at Globex.');
    await p.assistant.memory.distillNow(place);
    const pairs = await p.assistant.memory.reviewList(place);
    expect(pairs.map((x) => [x.old.statement, x.new.statement])).toEqual([['Works at Acme.', 'Works at Globex.']]);
  });

  it('across batches: "moved" supersedes; a hand edit that says it changed supersedes too', async () => {
    const p = project([[{ text: 'Lives in Lisbon.', message: 1 }], [{ text: 'Moved to Porto.', message: 1 }], [{ text: 'Works at Acme.', message: 1 }]]);
    await p.say(1, 'Sarah Chen lives in Lisbon.');
    await p.assistant.memory.distillNow(place);
    p.clock.advance(86_400_000);
    await p.say(2, 'Sarah Chen moved to Porto.');
    await p.assistant.memory.distillNow(place);
    expect(line(await p.page(), 'Lisbon')).toContain('[status:: superseded]');
    expect(line(await p.page(), 'Porto')).not.toContain('[status::');

    p.clock.advance(86_400_000);
    await p.say(3, 'Sarah Chen works at Acme.');
    await p.assistant.memory.distillNow(place);
    const acme = (await p.assistant.memory.records(place)).find((r) => r.statement === 'Works at Acme.');
    // a second record about her employer, written by hand: "no longer" says the old state ended
    const porto = (await p.assistant.memory.records(place)).find((r) => r.statement === 'Moved to Porto.');
    expect(await p.assistant.memory.editRecord(place, porto?.id ?? '', 'No longer at Acme; works at Globex now.')).toBe(true);
    const after = await p.assistant.memory.records(place);
    expect(after.find((r) => r.id === acme?.id)?.status).toBe('superseded');
    expect(after.find((r) => r.id === porto?.id)?.status).toBe('active');
  });

  it('novelty against what memory holds: a near restatement in a later batch refreshes the record, not a second one', async () => {
    const p = project([[{ text: 'Leads the design team at Acme.', message: 1 }], [{ text: 'Sarah leads the design team at Acme.', message: 1 }]]);
    await p.say(1, 'Sarah Chen leads the design team at Acme.');
    await p.assistant.memory.distillNow(place);
    p.clock.advance(3 * 86_400_000);
    await p.say(2, 'Sarah leads the design team at Acme, still.');
    await p.assistant.memory.distillNow(place);
    const records = await p.assistant.memory.records(place);
    expect(records.map((r) => [r.statement, r.said])).toEqual([['Leads the design team at Acme.', '2026-06-04']]);
  });

  it('in a private conversation, the same rule', async () => {
    const facts = [
      { entity: 'Sarah', text: 'Works at Acme.', message: 1, type: 'identity' },
      { entity: 'Sarah', text: 'Now works at Globex.', message: 2, type: 'identity' },
    ];
    const memory = new ScriptedChatModel(() => ({ text: JSON.stringify({ summary: 'Sarah.', decisions: [], quotes: [], entities: [], facts, links: [] }) }));
    fx = retrievalFixture();
    const privateStore = new SqlitePrivateStore(join(fx.dataDir, 'private.db'));
    const { assistant } = makeAssistant({ model: memory, store: new InMemoryProjectStore(), privateStore, privateRecords: privateStore.records });
    const dana: Place = { kind: 'private', userId: '1001', userName: 'Dana' };
    await assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'Remember that Sarah works at Acme', source: 'dm:m1', reply: false });
    await assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'Remember that Sarah now works at Globex', source: 'dm:m2', reply: false });
    await assistant.memory.distillNow(dana);
    try {
      const records = await assistant.memory.records(dana);
      expect(records.map((r) => [r.statement, r.status])).toEqual([
        ['Works at Acme.', 'superseded'],
        ['Now works at Globex.', 'active'],
      ]);
    } finally {
      privateStore.close();
    }
  });
});
