/**
 * The gate's edges in a real project folder: a waiting candidate promoted by hand lands on the
 * page the memory model proposed (People/Friends/Zed.md, not Misc/Zed.md); restating a fact on
 * the same day raises its confidence (a replay of the same message does not); a page a person
 * put on hold (`status: held` in front matter) is never found by search.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { applyToPage, type PagePlan } from '../../src/memory/graph/graph-write.js';
import { chunkPage } from '../../src/memory/index/chunker.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { fileCandidateStore } from '../../src/memory/records/candidate-store.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';
import { distillReply, type DistillReplyParts } from '../support/distill-reply.js';

let fx: RetrievalFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const place: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };

/** An assistant on real files whose memory model gives `reply` to every distillation, the gate's candidates kept in data/. */
function gatedAssistant(reply: DistillReplyParts) {
  fx = retrievalFixture();
  const clock = new FixedClock(new Date('2026-11-11T09:00:00Z'));
  const { projectsDir, dataDir } = fx;
  const store = new FileProjectStore({ projectsDir, clock, defaults: { distillEvery: 100 } });
  const graph = new Wiki({ projectsDir, clock, logger: silentLogger });
  const memoryModel = new ScriptedChatModel(() => ({ text: JSON.stringify(distillReply(reply)) }));
  const { assistant } = makeAssistant({ model: new ScriptedChatModel(() => ({ text: 'ok' })), memoryModel, store, graph, clock, candidates: (p) => fileCandidateStore(dataDir, p) });
  return { assistant, clock, projectsDir };
}

describe('promoting a waiting candidate by hand', () => {
  it('files the page under the category the memory model proposed', async () => {
    const { assistant, clock, projectsDir } = gatedAssistant({
      summary: 'Ann chatted.',
      entities: [{ name: 'Zed', category: 'People/Friends', new: true }],
      facts: [{ entity: 'Zed', text: 'Has a new job.', message: 1, type: 'identity' }],
    });
    await assistant.conversation.handle({ place, speaker: 'Ann', text: 'apparently Zed got a new job somewhere', source: 'https://discord.com/channels/1/2/3', time: clock.now(), reply: false });
    clock.advance(60_000);
    expect((await assistant.memory.distillNow(place)).ran).toBe(true);
    const waiting = await assistant.memory.memoryCandidates(place);
    expect(waiting.map((c) => [c.entity, c.category, c.fact.text])).toEqual([['Zed', 'People/Friends', 'Has a new job.']]);
    expect(await assistant.memory.promoteCandidate(place, waiting[0]?.key ?? '')).toBe(true);
    const notes = join(projectsDir, 'general', 'notes');
    expect(existsSync(join(notes, 'Misc', 'Zed.md'))).toBe(false);
    const page = readFileSync(join(notes, 'People', 'Friends', 'Zed.md'), 'utf8');
    expect(page).toContain('- Has a new job.');
    expect(page).toContain('[confidence:: 1]');
  });
});

describe('restating a fact on the same day', () => {
  const PATH = 'People/Sarah.md';
  const plan = (source: string, confidence: number): PagePlan => ({
    path: PATH,
    isNew: false,
    title: 'Sarah',
    category: 'People',
    aliases: [],
    description: '',
    staleness: 3,
    facts: [{ text: 'Works at Acme.', type: 'identity', said: '2026-11-05', source, confidence }],
    links: [],
  });

  it('raises its confidence and keeps both messages; a replay of the same message changes nothing', () => {
    const first = applyToPage(null, { ...plan('https://discord.com/channels/1/2/1', 0.79), isNew: true }, '2026-11-05', () => null);
    if (!first) throw new Error('no page');
    expect(first.content).toContain('[confidence:: 0.79]');
    const replay = applyToPage(first.content, plan('https://discord.com/channels/1/2/1', 0.79), '2026-11-05', () => null);
    expect(replay).toBeNull();
    const again = applyToPage(first.content, plan('https://discord.com/channels/1/2/2', 0.79), '2026-11-05', () => null);
    expect(again?.factsRefreshed).toBe(1);
    expect(again?.content).toContain('[confidence:: 1]');
    expect(again?.content).toContain('https://discord.com/channels/1/2/1');
    expect(again?.content).toContain('https://discord.com/channels/1/2/2');
    expect(again?.events.map((e) => e.action)).toEqual(['restated']);
  });
});

describe('a page on hold', () => {
  it('is never found by search: the index takes no chunk of it', () => {
    const page = (status: string) => `---\ntitle: Bob\nstatus: ${status}\n---\n\nBob is moving to Porto.\n\n## Facts\n- Is moving to Porto. ^r-abc123\n`;
    expect(chunkPage('notes/People/Bob.md', page('active')).length).toBeGreaterThan(0);
    expect(chunkPage('notes/People/Bob.md', page('held'))).toEqual([]);
  });
});

describe('the people who talk to Charlie', () => {
  it('each get a USER.md centre page with their Discord id, holding the facts about them, linked from the pages that name them', async () => {
    const { assistant, clock, projectsDir } = gatedAssistant({
      summary: 'Ann and Ben talk about the family.',
      // the model guesses a category for Ann; a speaker's page is their centre page all the same
      entities: [
        { name: 'Ann', category: 'People/Friends' },
        { name: 'Tom', category: 'People/Family', new: true },
      ],
      facts: [
        { entity: 'Ann', text: 'Is vegetarian.', message: 1, type: 'identity' },
        { entity: 'Ben', text: 'Is a nurse at the children’s hospital.', message: 2, type: 'identity' },
        { entity: 'Tom', text: 'Is Ann’s husband.', message: 1, type: 'relationship' },
      ],
      links: [{ from: 'Tom', to: 'Ann', label: 'wife', reverse_label: 'husband', evidence: { message: 1, quote: 'Tom is my husband' } }],
    });
    await assistant.conversation.handle({
      place,
      speaker: 'Ann',
      speakerId: '111',
      text: 'I am vegetarian, and Tom is my husband',
      source: 'https://discord.com/channels/1/2/3',
      time: clock.now(),
      reply: false,
    });
    await assistant.conversation.handle({
      place,
      speaker: 'Ben',
      speakerId: '222',
      text: 'I am a nurse at the children’s hospital',
      source: 'https://discord.com/channels/1/2/4',
      time: clock.now(),
      reply: false,
    });
    clock.advance(60_000);
    expect((await assistant.memory.distillNow(place)).ran).toBe(true);
    const notes = join(projectsDir, 'general', 'notes');
    const ann = readFileSync(join(notes, 'Users', 'Ann', 'USER.md'), 'utf8');
    const ben = readFileSync(join(notes, 'Users', 'Ben', 'USER.md'), 'utf8');
    expect(ann).toMatch(/^discord_id: "111"$/m);
    expect(ben).toMatch(/^discord_id: "222"$/m);
    expect(ann).toContain('- Is vegetarian.');
    expect(ben).toContain('- Is a nurse at the children’s hospital.');
    expect(ann).toContain('[[People/Family/Tom]] (husband)');
    expect(readFileSync(join(notes, 'People', 'Family', 'Tom.md'), 'utf8')).toContain('[[Users/Ann/USER]] (wife)');
    expect(existsSync(join(notes, 'People', 'Friends', 'Ann.md'))).toBe(false);
  });
});
