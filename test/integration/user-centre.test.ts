/**
 * You at the centre (issue 26): in a seeded project with two speakers — Ann on Discord, Bob in the
 * web app — each has a USER.md with their identity (Ann's Discord id, Bob's web sign-in), and every
 * record the graph writer puts on another page that names one of them links to their USER.md.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { runMemoryCheck } from '../../src/memory/graph/check-run.js';
import { namedCentres } from '../../src/memory/graph/centre-links.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const place: Place = { kind: 'project', origin: { name: 'home', key: 'discord:1:2' } };
const reply = {
  summary: 'Ann and Bob plan a Lisbon trip.',
  decisions: [],
  quotes: [],
  entities: [
    { name: 'Ann', category: 'People/Friends' },
    { name: 'Bob' },
    { name: 'Tom', category: 'People/Family', new: true },
    { name: 'Lisbon trip', category: 'Travel', new: true },
    { name: 'Annecy', category: 'Places', new: true },
  ],
  facts: [
    { entity: 'Ann', text: 'Loves hiking.', message: 1, type: 'preference' },
    { entity: 'Tom', text: "Is Ann's brother.", message: 1, type: 'relationship' },
    { entity: 'Lisbon trip', text: 'Ann and Bob booked the flat near Alfama.', message: 2, type: 'episode' },
    { entity: 'Lisbon trip', text: 'bob pays for the flights.', message: 2, type: 'commitment' },
    { entity: 'Bob', text: 'Is married to Ann.', message: 2, type: 'relationship' },
    { entity: 'Annecy', text: 'Is a lake town in the Alps.', message: 1, type: 'identity' },
  ],
  links: [],
};

const newRoot = tempDirs('charlie-centre-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

async function factLines(notes: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const f of (await readdir(notes, { recursive: true })).filter((p) => p.endsWith('.md') && !p.startsWith('_')))
    out.set(
      f,
      (await readFile(join(notes, f), 'utf8')).split('\n').filter((l) => /\^r-[0-9a-f]+$/.test(l)),
    );
  return out;
}

describe('USER.md at the centre', () => {
  it('each speaker has a centre page with their Discord id or web sign-in, and records naming them link to it', async () => {
    const clock = new FixedClock(new Date('2026-06-01T10:00:00Z'));
    const store = new FileProjectStore({ projectsDir: root, clock, defaults: { distillEvery: 100 } });
    const graph = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    const memoryModel = new ScriptedChatModel(() => ({ text: JSON.stringify(reply) }));
    const { assistant } = makeAssistant({ model: new ScriptedChatModel(() => ({ text: 'ok' })), memoryModel, store, graph, clock });
    await assistant.conversation.handle({
      place,
      speaker: 'Ann',
      speakerId: '111',
      // asked to be kept, so the promotion gate lets every fact through (what it holds back: gate-promote.test.ts)
      text: 'Note that I love hiking. My brother Tom is coming along; Annecy is a lake town in the Alps.',
      source: 'https://discord.com/channels/1/2/101',
      time: new Date('2026-06-01T09:00:00Z'),
      reply: false,
    });
    await assistant.conversation.handle({
      place,
      speaker: 'Bob',
      text: 'Remember that Ann and I booked the flat near Alfama; I pay for the flights.',
      source: 'web:1780304700000',
      time: new Date('2026-06-01T09:05:00Z'),
      reply: false,
    });
    clock.advance(86_400_000);
    expect((await assistant.memory.distillNow(place)).ran).toBe(true);

    const notes = join(root, 'home', 'notes');
    const pages = await factLines(notes);
    expect([...pages.keys()].sort()).toEqual(['People/Family/Tom.md', 'Places/Annecy.md', 'Travel/Lisbon-trip.md', 'Users/Ann/USER.md', 'Users/Bob/USER.md']);
    const ann = await readFile(join(notes, 'Users/Ann/USER.md'), 'utf8');
    const bob = await readFile(join(notes, 'Users/Bob/USER.md'), 'utf8');
    expect(ann).toMatch(/^discord_id: "111"$/m);
    expect(ann).not.toMatch(/^web_user:/m);
    expect(bob).toMatch(/^web_user: Bob$/m);
    expect(bob).not.toMatch(/^discord_id:/m);

    // every record on another page that names Ann (or Bob) carries the link to their USER.md
    const link = { Ann: '[person:: [[Users/Ann/USER]]]', Bob: '[person:: [[Users/Bob/USER]]]' };
    let linked = 0;
    for (const [page, lines] of pages)
      for (const line of lines)
        for (const [name, field] of Object.entries(link)) {
          const own = page === `Users/${name}/USER.md`;
          const names = new RegExp(`\\b${name}\\b`, 'i').test(line.replace(/\[person:: [^\]]*\]\]\]/g, ''));
          expect(line.includes(field), `${page}: ${line}`).toBe(names && !own);
          if (names && !own) linked++;
        }
    expect(linked).toBe(5);
    expect(pages.get('Travel/Lisbon-trip.md')!.find((l) => l.includes('Alfama'))).toContain('[person:: [[Users/Ann/USER]]] [person:: [[Users/Bob/USER]]]');
    // Annecy is not Ann; Ann's own page does not link to itself
    expect(pages.get('Places/Annecy.md')!.join('\n')).not.toContain('[person::');
    expect(pages.get('Users/Ann/USER.md')!.join('\n')).not.toContain('[person::');

    const out: string[] = [];
    expect(await runMemoryCheck({ projectsDir: root, write: (l) => out.push(l) })).toBe(0);
  });

  it('matches a person by title or alias as a whole word', () => {
    const centres = [
      { path: 'Users/Ann/USER.md', names: ['Ann', 'Annie'] },
      { path: 'Users/Bob-Smith/USER.md', names: ['Bob Smith'] },
    ];
    expect(namedCentres("Is Annie's brother.", centres)).toEqual(['Users/Ann/USER']);
    expect(namedCentres('Lives in Annecy with bob  smith.', centres)).toEqual(['Users/Bob-Smith/USER']);
    expect(namedCentres('Banned from the club.', centres)).toEqual([]);
  });
});
