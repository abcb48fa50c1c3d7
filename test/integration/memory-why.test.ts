/**
 * "Why does Charlie think that?" end to end: a fact stated and, in the same batch, stated again
 * in other words (distillation through the promotion gate, scripted memory model: the gate judges
 * novelty against what memory held before the batch, so the twin is written too), restated,
 * merged by reflection (the same fact by structure), then edited by hand in the Markdown;
 * `/memory why` in the terminal shows every step with its date, the gate's score and the
 * messages, and a reply that used the record carries its id for the "why?" button.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { Reflection } from '../../src/core/reflection/reflection.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FileReflectionPages } from '../../src/memory/reflect/reflection-pages.js';
import { fileCandidateStore } from '../../src/memory/records/candidate-store.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { pipeTerminal } from '../support/terminal.js';
import { whyText } from '../../src/core/inspector/why.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, InMemoryProjectStore, ScriptedChatModel } from '../support/fakes.js';
import { retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';

let fx: RetrievalFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const place: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
const url = (n: number) => `https://discord.com/channels/1/2/${100 + n}`;
const DAY = 86_400_000;
const PAGE = 'People/Professional/Sarah-Chen.md';

/** What the scripted memory model proposes at a distillation: facts about Sarah, each with the number of the message (in the batch) that said it. */
const proposal = (facts: readonly { text: string; message: number }[], isNew: boolean) => ({
  summary: 'Sarah Chen leads design at Acme.',
  decisions: [],
  quotes: [],
  entities: [{ name: 'Sarah Chen', category: 'People/Professional', aliases: ['Sarah'], staleness: 3, ...(isNew ? { new: true } : {}) }],
  facts: facts.map((f) => ({ entity: 'Sarah Chen', ...f, type: 'identity' })),
  links: [],
});

/** The terminal chat on piped input, as Alice. */
const terminal = (assistant: Parameters<typeof pipeTerminal>[0], input: string) => pipeTerminal(assistant, input, { userName: 'Alice' });

describe('/memory why', () => {
  it('a fact stated, restated, merged and edited by hand: every step with its date, the gate score and the messages, and the confidence now', async () => {
    fx = retrievalFixture();
    const clock = new FixedClock(new Date('2026-06-01T09:00:00Z'));
    const projectsDir = fx.projectsDir;
    const store = new FileProjectStore({ projectsDir, clock, defaults: { distillEvery: 100 } });
    const graph = new Wiki({ projectsDir, clock, logger: silentLogger });
    const recall = fx.open(undefined, undefined, clock).recall;
    const memoryModel = new ScriptedChatModel((_req, n) => ({
      text: JSON.stringify(
        [
          // one batch, two messages: the fact and its twin in other words (neither is held yet, so the gate's novelty cannot refresh one with the other)
          proposal(
            [
              { text: 'Is head of design at Acme.', message: 1 },
              { text: 'She is the head of design at Acme.', message: 2 },
            ],
            true,
          ),
          proposal([{ text: 'Is head of design at Acme.', message: 1 }], false),
        ][n] ?? {},
      ),
    }));
    // the chat model looks Sarah up, then answers
    const chat = new ScriptedChatModel((req) =>
      req.messages.some((m) => m.role === 'tool') ? { text: 'Sarah is head of design at Acme.' } : { toolCalls: [{ name: 'search_memory', arguments: '{"query":"Sarah head of design Acme"}' }] },
    );
    const dataDir = fx.dataDir;
    const { assistant } = makeAssistant({ model: chat, memoryModel, store, graph, recall, clock, candidates: (p) => fileCandidateStore(dataDir, p) });
    const tell = (n: number, speaker: string, text: string) => assistant.conversation.handle({ place, speaker, text, source: url(n), time: clock.now(), reply: false });
    const distill = async () => expect((await assistant.memory.distillNow(place)).ran).toBe(true);

    await tell(1, 'Alice', 'Sarah Chen is head of design at Acme.'); // 2026-06-01 09:00: stated
    clock.advance(DAY / 48);
    await tell(2, 'Bob', 'Yes, Sarah is the head of design at Acme these days.'); // 09:30: the same fact in other words
    clock.advance(DAY / 48);
    await distill(); // 10:00: one batch, two records
    clock.advance(7 * DAY - DAY / 24);
    await tell(3, 'Alice', 'Sarah Chen is head of design at Acme, remember that.'); // 2026-06-08: restated
    clock.advance(3_600_000);
    await distill();

    const file = join(projectsDir, 'general', 'notes', PAGE);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const idOf = (needle: string) => /\^(r-[0-9a-f]+)$/.exec(lines.find((l) => l.includes(needle)) ?? '')?.[1] ?? '';
    const kept = idOf('Is head of design at Acme.');
    const dup = idOf('She is the head of design at Acme.');
    expect(kept).toMatch(/^r-/);
    expect(dup).toMatch(/^r-/);

    // 2026-06-10: the reflection job (scripted memory model) merges the duplicate (the same fact by
    // structure: reflection-merge-table.test.ts; "Leads design" would be refused) into the record
    // written first: it gains the other's source, [merged:: id] and the newest said; one `merged` line
    clock.advance(2 * DAY);
    const reflectModel = new ScriptedChatModel(() => ({ text: JSON.stringify({ duplicates: [{ ids: [kept, dup] }], rules: [], contradictions: [] }) }));
    const pages = new FileReflectionPages({ projectsDir, dataDir, pages: graph, clock, logger: silentLogger });
    const reflection = new Reflection({ pages, model: reflectModel, clock, logger: silentLogger, settings: { quietMinutes: 30, intervalHours: 24, maxPages: 50, deadlineMs: 10_000 } });
    expect(await reflection.run('general', 'all')).toMatchObject({ merged: 1, rejected: 0 });

    // 2026-06-12: a person edits the statement in the Markdown; the watcher runs reconcile
    clock.advance(2 * DAY);
    const page = await readFile(file, 'utf8');
    await writeFile(file, page.replace('- Is head of design at Acme.', '- Is head of design at Acme, since May.'));
    await graph.reconcile('general');

    clock.advance(2 * DAY);
    const out = await terminal(assistant, '/memory why what does Sarah do at Acme?\n');
    const chain = out.slice(out.indexOf('“Is head of design at Acme, since May.”'));
    expect(chain).toContain(`— ${PAGE} ^${kept}`);
    const stepLines = chain.split('\n').filter((l) => /^ {2}\d{4}-\d\d-\d\d /.test(l));
    expect(stepLines.map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '))).toEqual(['2026-06-01 added', '2026-06-01 added', '2026-06-08 restated', '2026-06-10 merged', '2026-06-12 edited']);
    // stated: the gate's verdict with its score and parts, and the message that said it
    expect(stepLines[0]).toMatch(/by distillation; gate 0\.\d\d \(recency [\d.]+ · salience 1 · identity [\d.]+ · source 0\.7\)\) — https:\/\/discord\.com\/channels\/1\/2\/101$/);
    expect(stepLines[1]).toContain(`— ${url(2)} (merged record ^${dup})`);
    expect(stepLines[2]).toMatch(/restated \(said 2026-06-08\).* — https:\/\/discord\.com\/channels\/1\/2\/103$/);
    expect(stepLines[3]).toContain(`absorbed the duplicate ^${dup}`);
    expect(stepLines[4]).toContain('changed by hand');
    // now: a hand-edited record is manual with confidence 1, fading from when it was last said
    expect(chain).toContain('now: confidence 1.00, 0.99 after decay (fresh, identity; via manual, last said 2026-06-08)');

    // the log holds it all, append-only and readable, without the statement's text
    const log = await readFile(join(projectsDir, 'general', 'notes', '_log.md'), 'utf8');
    expect(log).toMatch(new RegExp(`^- 2026-06-01T10:00:00.000Z added ${PAGE}#\\^${kept} \\(source: ${url(1).replace(/[./]/g, '\\$&')}\\) — by distillation; gate `, 'm'));
    expect(log).toMatch(new RegExp(`^- 2026-06-12T\\S+ edited ${PAGE}#\\^${kept} \\(source: hand edit\\) — statement now r-[0-9a-f]+$`, 'm'));
    expect(log).not.toContain('since May');

    // asking again logs the edit no second time
    await terminal(assistant, `/memory why ${kept}\n`);
    expect((await readFile(join(projectsDir, 'general', 'notes', '_log.md'), 'utf8')).match(/ edited /g)).toHaveLength(1);

    // the merged-away record's id leads to the record that absorbed it
    const viaDup = await assistant.memory.why(place, { ids: [dup] });
    expect(viaDup.chains.map((c) => [c.id, c.askedFor])).toEqual([[kept, dup]]);

    // a reply that searched memory carries the ids of the records it was shown (the why? button)
    const outcome = await assistant.conversation.handle({ place, speaker: 'Alice', text: 'What does Sarah do?', source: url(9), time: clock.now() });
    expect(outcome.reply).toBe('Sarah is head of design at Acme.');
    expect(outcome.records).toContain(kept);
    const why = await assistant.memory.why(place, { ids: outcome.records ?? [] });
    expect(why.chains.find((c) => c.id === kept)?.steps.map((s) => s.kind)).toEqual(['added', 'added', 'restated', 'merged', 'edited']);
  });

  it('a review decision is part of the chain; a private conversation keeps its own records, not the project’s', async () => {
    fx = retrievalFixture();
    const clock = new FixedClock(new Date('2026-06-01T10:00:00Z'));
    const graph = new Wiki({ projectsDir: fx.projectsDir, clock, logger: silentLogger });
    const store = new FileProjectStore({ projectsDir: fx.projectsDir, clock, defaults: { distillEvery: 100 } });
    const { assistant } = makeAssistant({ model: new ScriptedChatModel(() => ({ text: 'ok' })), store, graph, recall: fx.open(undefined, undefined, clock).recall, clock });
    await store.ensureProject(place.origin);
    const write = (text: string, n: number) =>
      graph.write('general', {
        origin: 'distillation',
        links: [],
        entities: [{ name: 'Sarah Chen', category: 'People/Professional', create: true, facts: [{ text, said: clock.now().toISOString().slice(0, 10), source: url(n) }] }],
      });
    await write('Works at Acme.', 1);
    clock.advance(DAY);
    await write('Joined Globex.', 2);
    const pairs = await assistant.memory.reviewList(place);
    const globex = pairs[0]?.new.id ?? '';
    clock.advance(DAY);
    expect(await assistant.memory.resolveReview(place, globex, 'keep-new')).toBe(true);
    const answer = await assistant.memory.why(place, { query: 'where does Sarah work Acme' });
    const acme = answer.chains.find((c) => c.statement === 'Works at Acme.');
    expect(acme?.status).toBe('superseded');
    expect(acme?.steps.map((s) => [s.at.slice(0, 10), s.kind, s.text])).toEqual([
      ['2026-06-01', 'added', 'stated, and written (by distillation; written without the promotion gate)'],
      ['2026-06-02', 'review', `put into review: disagrees with ^${globex}`],
      ['2026-06-03', 'reviewed', `review decision: keep-new: superseded by ^${globex}`],
    ]);
    const dm = await assistant.memory.why({ kind: 'private', userId: '42', userName: 'Alice' }, { query: 'Sarah' });
    expect(dm).toEqual({ chains: [], missing: [] }); // private.db holds no record of Sarah: the project's never reach a DM
  });

  it('in a DM: the history of each record in private.db (added with the gate and the message, restated, review, decision); older records by their fields', async () => {
    fx = retrievalFixture();
    const file = join(fx.dataDir, 'private.db');
    const privateStore = new SqlitePrivateStore(file);
    const clock = new FixedClock(new Date('2026-06-01T10:00:00Z'));
    let facts: unknown[] = [];
    const memory = new ScriptedChatModel(() => ({ text: JSON.stringify({ summary: 'Dana talks about Sarah.', decisions: [], quotes: [], entities: [], facts, links: [] }) }));
    const { assistant } = makeAssistant({ model: memory, store: new InMemoryProjectStore(), privateStore, privateRecords: privateStore.records, clock });
    const dana: Place = { kind: 'private', userId: '1001', userName: 'Dana' };
    try {
      await assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'Remember that Sarah works at Acme', source: 'dm:m1', reply: false });
      facts = [{ entity: 'Sarah', text: 'Works at Acme.', message: 1, type: 'identity' }];
      await assistant.memory.distillNow(dana);
      clock.advance(30 * DAY);
      await assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'Sarah joined Globex as head of design', source: 'dm:m2', reply: false });
      facts = [{ entity: 'Sarah', text: 'Joined Globex as head of design.', message: 1, type: 'identity' }];
      await assistant.memory.distillNow(dana);
      const pair = (await assistant.memory.reviewList(dana))[0];
      const [acmeId, globexId] = [pair?.old.id ?? '', pair?.new.id ?? ''];
      clock.advance(DAY);
      expect(await assistant.memory.resolveReview(dana, globexId, 'keep-new')).toBe(true);
      clock.advance(DAY);
      await assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'Remember that Sarah joined Globex as head of design', source: 'dm:m3', reply: false });
      await assistant.memory.distillNow(dana);

      const answer = await assistant.memory.why(dana, { query: 'where does Sarah work?' });
      // the current record first; the superseded one after it, shown as such
      expect(answer.chains.map((c) => [c.statement, c.status])).toEqual([
        ['Joined Globex as head of design.', 'active'],
        ['Works at Acme.', 'superseded'],
      ]);
      expect(answer.chains[0]?.steps.map((st) => [st.at, st.kind, st.text.replace(/gate [\d.]+ \(.*\)/, 'gate …'), st.source])).toEqual([
        ['2026-07-01', 'added', 'said in this conversation; gate …', 'dm:m2'],
        ['2026-07-01', 'review', `put into review: disagrees with ^${acmeId}`, undefined],
        ['2026-07-02', 'reviewed', 'review decision: keep-new: kept', undefined],
        ['2026-07-03', 'restated', 'said again', 'dm:m3'],
      ]);
      expect(answer.note).toBeUndefined();
      const acme = await assistant.memory.why(dana, { ids: [acmeId, 'r-000000'] });
      expect(acme.missing).toEqual(['r-000000']);
      expect(acme.chains[0]?.status).toBe('superseded');
      expect(acme.chains[0]?.steps.map((st) => [st.at, st.kind, st.source])).toEqual([
        ['2026-06-01', 'added', 'dm:m1'],
        ['2026-07-01', 'review', undefined],
        ['2026-07-02', 'reviewed', undefined],
      ]);
      expect(acme.chains[0]?.steps[2]?.text).toBe(`review decision: keep-new: superseded by ^${globexId}`);
      expect((await assistant.memory.why(dana, { query: 'Works at Acme' })).chains.map((c) => [c.statement, c.status])[0]).toEqual(['Joined Globex as head of design.', 'active']);
      const text = whyText(await assistant.memory.why(dana, { query: 'Sarah Globex' }));
      expect(text).toContain('2026-07-03  restated said again — dm:m3');

      // a record from before private.db kept a history: its own fields, and a note saying so
      const db = new DatabaseSync(file);
      db.prepare('DELETE FROM dm_record_events WHERE id = ?').run(globexId);
      db.close();
      const old = await assistant.memory.why(dana, { ids: [globexId] });
      expect(old.chains[0]?.steps).toEqual([{ at: '2026-07-03', kind: 'said', text: 'said in this conversation, about Sarah', source: 'dm:m2' }]);
      expect(whyText(old)).toContain('(records written before Charlie kept their history show their latest state only)');
      // another user's DM sees none of it
      expect((await assistant.memory.why({ kind: 'private', userId: '2002', userName: 'Eve' }, { query: 'Sarah Globex' })).chains).toEqual([]);
    } finally {
      privateStore.close();
    }
  });
});
