import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, type RecallHit } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { liftLinked } from '../../src/memory/recall.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { collect, general, makeAssistant, msg } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const newRoot = tempDirs('charlie-walk-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

/** A project folder with its store and knowledge graph, on a fixed clock. */
async function graphProject() {
  const clock = new FixedClock(new Date('2026-06-20T10:00:00Z'));
  const store = new FileProjectStore({ projectsDir: root, clock });
  const graph = new Wiki({ projectsDir: root, clock, logger: silentLogger });
  const slug = (await store.ensureProject(general.kind === 'project' ? general.origin : { name: 'x', key: 'x' })).slug;
  return { clock, store, graph, slug };
}

describe('follow_links', () => {
  it('a scripted chat model walks from a person to the linked pages and their labels, and the trace shows each hop', async () => {
    const { clock, store, graph, slug } = await graphProject();
    const src = 'https://discord.com/channels/1/2/3';
    await graph.write(slug, {
      origin: 'test',
      entities: [
        { name: 'Sarah Chen', category: 'People/Professional', create: true, facts: [{ text: 'Designer.', said: '2026-06-20', source: src }] },
        { name: 'Acme', category: 'Work', create: true, description: 'Anvil maker in Leeds.', staleness: 2, facts: [{ text: 'Makes anvils.', said: '2026-06-20', source: src }] },
        { name: 'Lisbon trip', category: 'Travel', create: true, facts: [{ text: 'Planned for May.', said: '2026-06-20', source: src, staleness: 6 }] },
      ],
      links: [
        { from: 'Sarah Chen', to: 'Acme', label: 'employer', reverseLabel: 'employee', evidence: { kind: 'message', source: src } },
        { from: 'Sarah Chen', to: 'Lisbon trip', label: 'trip', reverseLabel: 'traveller', evidence: { kind: 'message', source: src } },
      ],
    });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'follow_links', arguments: '{"page":"Sarah"}' }] }, { text: 'Sarah works at Acme.' }]);
    const { assistant } = makeAssistant({ model, memoryModel: null, store, graph, clock });
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg('where does Sarah work? check her links'), { onEvent });
    expect(out.reply).toBe('Sarah works at Acme.');
    const toolMessage = model.requests[1]!.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('Sarah Chen (People/Professional/Sarah-Chen.md; updated 2026-06-20');
    expect(toolMessage?.content).toContain('- employer: Acme (Work/Acme.md; updated 2026-06-20, staleness 2) — Anvil maker in Leeds.');
    expect(toolMessage?.content).toContain('- trip: Lisbon trip (Travel/Lisbon-trip.md;');
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ summary: 'followed Sarah Chen → employer: Acme, trip: Lisbon trip' });
    expect(result && 'pages' in result ? result.pages : []).toContain('notes/Work/Acme.md');
  });
});

describe('remember through the graph', () => {
  it('adds sentences as facts to the page a short name means, never twice', async () => {
    const { clock, store, graph, slug } = await graphProject();
    await graph.write(slug, {
      origin: 'test',
      entities: [{ name: 'Sarah Chen', category: 'People/Professional', create: true, facts: [{ text: 'Designer.', said: '2026-06-20', source: 'test:0' }] }],
      links: [],
    });
    const call = { name: 'remember', arguments: '{"title":"sarah","text":"She likes green tea. She lives in Leeds."}' };
    const model = new ScriptedChatModel([{ toolCalls: [call] }, { text: 'Saved.' }, { toolCalls: [call] }, { text: 'Saved.' }]);
    const { assistant } = makeAssistant({ model, memoryModel: null, store, graph, clock });
    const { events, onEvent } = collect();
    await assistant.conversation.handle(msg('remember that Sarah likes green tea and lives in Leeds'), { onEvent });
    await assistant.conversation.handle(msg('remember that again'), { onEvent });
    const page = await readFile(join(root, slug, 'notes/People/Professional/Sarah-Chen.md'), 'utf8');
    expect(page.match(/^- She likes green tea\. \[said:: 2026-06-20\]/gm)).toHaveLength(1);
    expect(page.match(/^- She lives in Leeds\./gm)).toHaveLength(1);
    expect((await store.listNotes(slug)).map((n) => n.path)).toEqual(['People/Professional/Sarah-Chen.md']); // no second "Sarah" page
    const results = events.filter((e) => e.type === 'tool_result').map((e) => ('summary' in e ? e.summary : ''));
    expect(results).toEqual(['updated People/Professional/Sarah-Chen.md', 'already remembered']);
  });
});

describe('entity hop in recall', () => {
  const hit = (page: string, score: number): RecallHit => ({
    page,
    heading: '',
    lineStart: 1,
    lineEnd: 1,
    text: page,
    updated: '',
    staleness: 3,
    score,
    parts: { vector: 0, keyword: score, usage: 0, recency: 1 },
    why: ['keyword'],
  });
  it('lifts the pages a matching note links to, a little, and says why', () => {
    const hits = [hit('notes/People/Sarah.md', 1), hit('log/2026-06-01.md', 0.5), hit('notes/Work/Acme.md', 0.48), hit('notes/Misc/Other.md', 0.47)];
    const links = new Map([['notes/People/Sarah.md', ['notes/Work/Acme.md']]]);
    const out = liftLinked(hits, links, 0.15, 3);
    expect(out.map((h) => h.page)).toEqual(['notes/People/Sarah.md', 'notes/Work/Acme.md', 'log/2026-06-01.md']);
    expect(out[1]!.why).toEqual(['keyword', 'hop:People/Sarah']);
    expect(out[1]!.score).toBeCloseTo(0.48 * 1.15);
    expect(liftLinked(hits, new Map(), 0.15, 3).map((h) => h.page)).toEqual(['notes/People/Sarah.md', 'log/2026-06-01.md', 'notes/Work/Acme.md']);
  });
});
