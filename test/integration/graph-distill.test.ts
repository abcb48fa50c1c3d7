import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { runMemoryCheck } from '../../src/memory/graph/check-run.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const place: Place = { kind: 'project', origin: { name: 'team', key: 'discord:1:2' } };
const url = (n: number) => `https://discord.com/channels/1/2/${100 + n}`;

/** What the scripted memory model answers at each distillation. */
const replies = [
  {
    summary: 'Sarah Chen joined Acme; a Lisbon trip is planned.',
    decisions: [],
    quotes: [],
    entities: [
      { name: 'Sarah Chen', category: 'People/Professional', aliases: ['Sarah'], staleness: 3, new: true, description: 'Head of design at Acme.' },
      { name: 'Acme', category: 'Work', new: true, staleness: 1 },
      { name: 'Lisbon trip', category: 'Travel', new: true, staleness: 7 },
    ],
    facts: [
      { entity: 'Sarah Chen', text: 'Is head of design at Acme.', message: 1, type: 'identity' },
      { entity: 'Lisbon trip', text: 'Sarah flies to Lisbon in May for a design conference.', message: 2, type: 'plan' },
      { entity: 'Acme', text: 'Makes design software.', message: 1, staleness: 2 },
    ],
    links: [
      { from: 'Sarah Chen', to: 'Acme', label: 'employer', reverse_label: 'employee', evidence: { message: 1, quote: 'Sarah Chen joined Acme' } },
      { from: 'Sarah Chen', to: 'Lisbon trip', label: 'trip', reverse_label: 'traveller', evidence: { message: 2, quote: 'Sarah is flying to Lisbon' } },
      { from: 'Acme', to: 'Lisbon trip', label: 'sponsor of', reverse_label: 'sponsored by' },
      { from: 'Acme', to: 'Lisbon trip', label: 'payer', reverse_label: 'paid by', evidence: { message: 1, quote: 'Acme pays for the trip' } },
    ],
  },
  {
    summary: 'Sarah’s team ships in June.',
    decisions: [],
    quotes: [],
    entities: [{ name: 'Sarah', staleness: 9 }],
    facts: [
      { entity: "Sarah's", text: 'Her team ships the new app in June.', message: 1, staleness: 6, type: 'plan' },
      { entity: 'sarah chen', text: 'is head of design at ACME', message: 2 },
      { entity: 'Acme', text: 'Makes design software', message: 2 },
    ],
    links: [],
  },
  {
    summary: 'The Lisbon trip is booked.',
    decisions: [],
    quotes: [],
    entities: [{ name: 'Hotel Avenida', category: 'Places', new: true }],
    facts: [
      { entity: 'Lisbon Trip', text: 'Booked for 12-16 May at Hotel Avenida.', message: 1, staleness: 5 },
      { entity: 'Acme', text: 'x', message: 99 },
      { entity: 'Acme', message: 1 },
    ],
    links: [{ from: 'Lisbon trip', to: 'Sarah', label: 'traveller', reverse_label: 'trip', evidence: { message: 1, quote: 'The Lisbon trip is now booked' } }],
  },
];

// Every message asks to be kept ("note that"), so the promotion gate lets each fact through and
// this test sees the graph's own rules; what the gate holds back is test/integration/gate-promote.test.ts.
const conversation = [
  [
    ['Alice', '111', '2026-06-01T09:00:00Z', 'Note that Sarah Chen joined Acme as head of design last week.'],
    ['Bob', undefined, '2026-06-01T09:05:00Z', 'Note that Sarah is flying to Lisbon in May for the design conference.'],
  ],
  [
    ['Alice', '111', '2026-06-08T09:00:00Z', "Note that Sarah's team at ACME ships the new app in June."],
    ['Bob', undefined, '2026-06-08T09:05:00Z', 'Also: Sarah is head of design at Acme, remember that.'],
  ],
  [
    ['Alice', '111', '2026-06-15T09:00:00Z', 'Note that the Lisbon trip is now booked: 12-16 May, Hotel Avenida.'],
    ['Bob', undefined, '2026-06-15T09:05:00Z', 'Great.'],
  ],
] as const;

const newRoot = tempDirs('charlie-distil-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

async function files(dir: string): Promise<string[]> {
  const out = await readdir(dir, { recursive: true, withFileTypes: true });
  return out
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('distillation writes through the knowledge graph', () => {
  it('three distillations about Sarah Chen, Acme and a Lisbon trip: one page each, atomic sourced facts, no duplicates, two-way labelled links, the staleness the model set', async () => {
    const clock = new FixedClock(new Date('2026-06-01T10:00:00Z'));
    const store = new FileProjectStore({ projectsDir: root, clock, defaults: { distillEvery: 100 } });
    const graph = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    const memoryModel = new ScriptedChatModel((_req, n) => ({ text: JSON.stringify(replies[n]) }));
    const { assistant } = makeAssistant({ model: new ScriptedChatModel(() => ({ text: 'ok' })), memoryModel, store, graph, clock });
    let n = 0;
    for (const batch of conversation) {
      for (const [speaker, id, time, text] of batch) {
        n++;
        await assistant.conversation.handle({ place, speaker, ...(id ? { speakerId: id } : {}), text, source: url(n), time: new Date(time), reply: false });
      }
      clock.advance(7 * 86_400_000);
      expect((await assistant.memory.distillNow(place)).ran).toBe(true);
    }
    const notes = join(root, 'team', 'notes');
    const read = (rel: string) => readFile(join(notes, rel), 'utf8');
    expect(await files(notes)).toEqual(['People/Professional/Sarah-Chen.md', 'Travel/Lisbon-trip.md', 'Users/Alice/USER.md', 'Users/Bob/USER.md', 'Work/Acme.md', '_index.md', '_log.md']);

    const sarah = await read('People/Professional/Sarah-Chen.md');
    expect(await assistant.memory.memoryCandidates(place)).toEqual([]); // every fact was asked to be kept: none waits
    expect(sarah).toMatch(/^staleness: 3$/m); // set once; the later 9 is ignored
    expect(sarah).toMatch(/^aliases:\n {2}- Sarah$/m);
    expect(sarah.match(/^- .*head of design at Acme/gim)).toHaveLength(1);
    expect(sarah).toMatch(
      new RegExp(`^- Is head of design at Acme\\. \\[type:: identity\\] \\[confidence:: 1\\] \\[said:: 2026-06-08\\] \\[source:: \\[msg\\]\\(${url(1)}\\)\\] \\[via:: chat\\] \\^r-[0-9a-f]{6}$`, 'm'),
    );
    expect(sarah).toMatch(
      new RegExp(`^- Her team ships the new app in June\\. \\[type:: plan\\] \\[confidence:: 1\\] \\[staleness:: 6\\] \\[said:: 2026-06-08\\] \\[source:: \\[msg\\]\\(${url(3)}\\)\\]`, 'm'),
    );
    expect(sarah.match(/\[\[Work\/Acme\]\] \(employer\)/g)).toHaveLength(1);
    expect(sarah.match(/\[\[Travel\/Lisbon-trip\]\] \(trip\)/g)).toHaveLength(1);

    const acme = await read('Work/Acme.md');
    expect(acme).toMatch(/^staleness: 1$/m);
    expect(acme).toContain(`- [[People/Professional/Sarah-Chen]] (employee) [source:: [msg](${url(1)})]`);
    expect(acme).not.toContain('Lisbon'); // the link without evidence and the one whose quote is not in the message are refused
    expect(acme.match(/Makes design software/g)).toHaveLength(1);

    const trip = await read('Travel/Lisbon-trip.md');
    expect(trip).toMatch(/^staleness: 7$/m);
    expect(trip).toContain(`- [[People/Professional/Sarah-Chen]] (traveller) [source:: [msg](${url(2)})]`);
    expect(trip).toMatch(new RegExp(`Booked for 12-16 May at Hotel Avenida\\. \\[confidence:: 1\\] \\[staleness:: 5\\] \\[said:: 2026-06-15\\] \\[source:: \\[msg\\]\\(${url(5)}\\)\\]`));
    expect(trip.match(/\[\[People\/Professional\/Sarah-Chen\]\]/g)).toHaveLength(1);

    expect(await read('Users/Alice/USER.md')).toMatch(/^discord_id: "111"$/m);
    expect(await read('Users/Bob/USER.md')).not.toContain('discord_id');

    // the model was handed the page map and asked for a JSON schema
    const second = memoryModel.requests[1]!;
    expect(second.jsonSchema).toMatchObject({ properties: { facts: { type: 'array' }, links: { type: 'array' } } });
    const prompt = second.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    expect(prompt).toContain('- Sarah Chen (People/Professional/Sarah-Chen.md; aliases: Sarah; updated 2026-06-08; staleness 3) — Head of design at Acme.');
    expect(prompt).toContain('- Bob (Users/Bob/USER.md; updated 2026-06-08; staleness 5; speaks in these messages)');
    expect(prompt).toMatch(/staleness \(0-10\)[^\n]*birthday/);

    const lines: string[] = [];
    expect(await runMemoryCheck({ projectsDir: root, write: (l) => lines.push(l) })).toBe(0);
  });
});
