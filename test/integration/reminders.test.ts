/**
 * Charlie brings things up itself, once: a commitment due yesterday is expired in ranking and
 * becomes a follow-up the next time its owner talks (noted `[asked:: date]`, so the second turn
 * does not raise it); an open review is mentioned when its entity next comes up (noted
 * `[raised:: date]`). The same in a DM, with the notes in private.db.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger, type ChatRequest, type GraphWrite } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { general, makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const newRoot = tempDirs('charlie-remind-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

const system = (r: ChatRequest | undefined) => {
  const first = r?.messages[0];
  return first?.role === 'system' ? first.content : '';
};
const src = (n: number) => `https://discord.com/channels/1/2/${n}`;
const fact = (name: string, text: string, extra: Partial<GraphWrite['entities'][number]['facts'][number]>, discordId?: string): GraphWrite => ({
  origin: 'test',
  links: [],
  entities: [{ name, category: 'People/Professional', create: true, ...(discordId ? { discordId } : {}), facts: [{ text, said: '2026-06-15', source: src(1), ...extra }] }],
});

describe('reminders in a project', () => {
  it('a commitment due yesterday is expired in ranking and raised once to its owner; the second turn does not raise it', async () => {
    const clock = new FixedClock(new Date('2026-06-20T10:00:00Z'));
    const store = new FileProjectStore({ projectsDir: root, clock });
    const graph = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    const slug = (await store.ensureProject(general.kind === 'project' ? general.origin : { name: 'x', key: 'x' })).slug;
    await graph.write(slug, fact('Sarah Chen', 'Will send the mock-ups.', { type: 'commitment', due: '2026-06-19' }, '42'));
    await graph.write(slug, fact('Tom Baker', 'Will book the venue.', { type: 'commitment', due: '2026-06-19' }));
    await graph.write(slug, fact('Sarah Chen', 'Will present in July.', { type: 'commitment', due: '2026-07-10' }, '42'));

    const records = await graph.records(slug, clock.now());
    const mockups = records.find((r) => r.statement === 'Will send the mock-ups.');
    expect(mockups).toMatchObject({ decay: 'expired' });
    expect(mockups?.effective).toBeCloseTo(0.1);
    expect(records.find((r) => r.statement === 'Will present in July.')).toMatchObject({ decay: 'fresh', effective: 1 });

    const model = new ScriptedChatModel(() => ({ text: 'Morning!' }));
    const { assistant } = makeAssistant({ model, memoryModel: null, store, graph, clock });
    const sarah = { place: general, speaker: 'Sarah', speakerId: '42', text: 'morning!' };
    await assistant.conversation.handle({ ...sarah, source: src(10) });
    const first = system(model.requests[0]);
    expect(first).toContain('Follow-up: Sarah Chen committed to "Will send the mock-ups.", due 2026-06-19');
    expect(first).not.toContain('venue');
    expect(first).not.toContain('present in July');
    // noted once the reply is out (the turn does not wait for the page write)
    await assistant.conversation.idle();
    const page = await readFile(join(root, slug, 'notes', 'People', 'Professional', 'Sarah-Chen.md'), 'utf8');
    expect(page.split('\n').find((l) => l.includes('mock-ups'))).toContain('[asked:: 2026-06-20]');

    await assistant.conversation.handle({ ...sarah, text: 'what is on today?', source: src(11) });
    expect(system(model.requests[1])).not.toContain('Follow-up');
    // Tom's is raised when Tom talks (his page is found by his name)
    await assistant.conversation.handle({ place: general, speaker: 'Tom Baker', text: 'hi', source: src(12) });
    expect(system(model.requests[2])).toContain('Follow-up: Tom Baker committed to "Will book the venue."');
  });

  it('a turn that follows at once waits for what the turn before brought up to be noted, and does not bring it up again', async () => {
    const clock = new FixedClock(new Date('2026-06-20T10:00:00Z'));
    const store = new FileProjectStore({ projectsDir: root, clock });
    const graph = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    const slug = (await store.ensureProject(general.kind === 'project' ? general.origin : { name: 'x', key: 'x' })).slug;
    await graph.write(slug, fact('Sarah Chen', 'Will send the mock-ups.', { type: 'commitment', due: '2026-06-19' }, '42'));
    const model = new ScriptedChatModel(() => ({ text: 'Morning!' }));
    const { assistant } = makeAssistant({ model, memoryModel: null, store, graph, clock });
    const sarah = { place: general, speaker: 'Sarah', speakerId: '42' };
    // both sent before either is answered, as two quick messages are
    await Promise.all([assistant.conversation.handle({ ...sarah, text: 'morning!', source: src(10) }), assistant.conversation.handle({ ...sarah, text: 'anything for me?', source: src(11) })]);
    expect(model.requests.map((r) => system(r).includes('Follow-up: Sarah Chen committed to "Will send the mock-ups."'))).toEqual([true, false]);
  });

  it('an open review is mentioned once when its entity next comes up, not before', async () => {
    const clock = new FixedClock(new Date('2026-07-01T10:00:00Z'));
    const store = new FileProjectStore({ projectsDir: root, clock });
    const graph = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    const slug = (await store.ensureProject(general.kind === 'project' ? general.origin : { name: 'x', key: 'x' })).slug;
    await graph.write(slug, fact('Sarah Chen', 'Works at Acme.', { type: 'identity', said: '2026-06-01' }));
    await graph.write(slug, fact('Sarah Chen', 'Joined Globex as head of design.', { type: 'identity', said: '2026-07-01' }));
    expect(await graph.reviewList(slug)).toHaveLength(1);

    const model = new ScriptedChatModel(() => ({ text: 'ok' }));
    const { assistant } = makeAssistant({ model, memoryModel: null, store, graph, clock });
    await assistant.conversation.handle({ place: general, speaker: 'Bob', text: 'what is the weather like?', source: src(20) });
    expect(system(model.requests[0])).not.toContain('conflicting');
    await assistant.conversation.handle({ place: general, speaker: 'Bob', text: "what's new with Sarah?", source: src(21) });
    expect(system(model.requests[1])).toContain('two conflicting facts about Sarah Chen: "Works at Acme." and "Joined Globex as head of design."');
    await assistant.conversation.idle();
    const page = await readFile(join(root, slug, 'notes', 'People', 'Professional', 'Sarah-Chen.md'), 'utf8');
    expect(page.split('\n').filter((l) => l.includes('[raised:: 2026-07-01]'))).toHaveLength(2);
    await assistant.conversation.handle({ place: general, speaker: 'Bob', text: 'and Sarah again?', source: src(22) });
    expect(system(model.requests[2])).not.toContain('conflicting');
    // the pair is still in review: raising it changed nothing else
    expect(await graph.reviewList(slug)).toHaveLength(1);
  });
});

describe('reminders in a DM', () => {
  it('a past-due commitment is asked about once, an open review mentioned once when named; both noted in private.db', async () => {
    const clock = new FixedClock(new Date('2026-06-20T10:00:00Z'));
    const privateStore = new SqlitePrivateStore(join(root, 'private.db'));
    const dana: Place = { kind: 'private', userId: '1001', userName: 'Dana' };
    privateStore.records.write('1001', fact('Dana', 'Will renew the passport.', { type: 'commitment', due: '2026-06-19', source: 'dm:1' }));
    privateStore.records.write('1001', fact('Sarah', 'Works at Acme.', { type: 'identity', said: '2026-06-01', source: 'dm:2' }));
    privateStore.records.write('1001', fact('Sarah', 'Joined Globex.', { type: 'identity', said: '2026-06-19', source: 'dm:3' }));
    const model = new ScriptedChatModel(() => ({ text: 'ok' }));
    const { assistant } = makeAssistant({ model, memoryModel: null, privateStore, privateRecords: privateStore.records, clock });
    try {
      await assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'hello', source: 'dm:10' });
      const first = system(model.requests[0]);
      expect(first).toContain('Follow-up: Dana committed to "Will renew the passport.", due 2026-06-19');
      expect(first).not.toContain('conflicting');
      await assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'did Sarah call?', source: 'dm:11' });
      const second = system(model.requests[1]);
      expect(second).not.toContain('Follow-up');
      expect(second).toContain('two conflicting facts about Sarah');
      await assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'Sarah again', source: 'dm:12' });
      expect(system(model.requests[2])).not.toContain('conflicting');
      const rows = privateStore.records.list('1001', clock.now());
      expect(rows.map((r) => [r.statement, r.asked, r.raised])).toEqual([
        ['Will renew the passport.', '2026-06-20', ''],
        ['Works at Acme.', '', '2026-06-20'],
        ['Joined Globex.', '', '2026-06-20'],
      ]);
    } finally {
      privateStore.close();
    }
  });
});
