/**
 * "Why?" asked as a question stays right as a project grows (issue 39): Sarah worked at Acme,
 * then Globex (the Acme record superseded by a review decision), and then 10, 100 and 1,000
 * further messages about other things — tickets, trips, chores, some of them about "work" —
 * each leaving a record on another page. `/memory why where does Sarah work` (terminal, and
 * the one function every front door calls) answers "Works at Globex." first, with Acme shown
 * superseded; a held record is shown as held; a question nothing answers says so.
 * The further messages are written the cheap way: one archive file and one graph write per size.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger, type GraphEntity } from '../../src/core/ports/index.js';
import { whyText } from '../../src/core/inspector/why.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { pipeTerminal } from '../support/terminal.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';

let fx: RetrievalFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const place: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
const url = (n: number) => `https://discord.com/channels/1/2/${1000 + n}`;
const DAY = 86_400_000;

/** Unrelated messages, each with the record it left (on another page); several say "work". */
function chatter(n: number): { text: string; entity: string; fact: string }[] {
  const out: { text: string; entity: string; fact: string }[] = [];
  const people = ['Tom', 'Lena', 'Ben', 'Mia', 'Priya', 'Kofi', 'Rui', 'Ines'];
  for (let i = 0; i < n; i++) {
    const who = people[i % people.length] ?? 'Tom';
    const k = i % 5;
    if (k === 0)
      out.push({
        text: `Ticket TBC-${101 + i}/${202 + i} is infrastructure work for the storage migration.`,
        entity: `TBC-${101 + i}`,
        fact: `Ticket TBC-${101 + i}/${202 + i} is infrastructure work.`,
      });
    else if (k === 1) out.push({ text: `${who} will work late on day ${String(i)} to finish the report.`, entity: who, fact: `Will work late on day ${String(i)} to finish the report.` });
    else if (k === 2) out.push({ text: `${who} booked a trip to Porto number ${String(i)}.`, entity: who, fact: `Booked trip ${String(i)} to Porto.` });
    else if (k === 3) out.push({ text: `The boiler ${String(i)} needs its service.`, entity: `Boiler ${String(i)}`, fact: `Boiler ${String(i)} needs its service.` });
    else out.push({ text: `${who} says the design review ${String(i)} went well at the office.`, entity: who, fact: `Design review ${String(i)} went well at the office.` });
  }
  return out;
}

/** The terminal chat on piped input, as Alice. */
const terminal = (assistant: Parameters<typeof pipeTerminal>[0], input: string) => pipeTerminal(assistant, input, { userName: 'Alice' });

describe('/memory why by question, at any size', () => {
  for (const size of [10, 100, 1000]) {
    it(`answers "where does Sarah work" with Globex first and Acme superseded after ${String(size)} further messages`, async () => {
      fx = retrievalFixture();
      const clock = new FixedClock(new Date('2026-06-01T10:00:00Z'));
      const store = new FileProjectStore({ projectsDir: fx.projectsDir, clock, defaults: { distillEvery: 100_000 } });
      const graph = new Wiki({ projectsDir: fx.projectsDir, clock, logger: silentLogger });
      const { assistant } = makeAssistant({ model: new ScriptedChatModel(() => ({ text: 'ok' })), store, graph, recall: fx.open(undefined, undefined, clock).recall, clock });
      await store.ensureProject(place.origin);
      const sarah = (text: string, n: number, type = 'identity'): GraphEntity => ({
        name: 'Sarah Chen',
        category: 'People/Professional',
        create: true,
        facts: [{ text, type, said: clock.now().toISOString().slice(0, 10), source: url(n) }],
      });
      await graph.write('general', { origin: 'distillation', links: [], entities: [sarah('Works at Acme.', 1), sarah('Likes green tea.', 2, 'preference')] });
      await graph.write('general', {
        origin: 'distillation',
        links: [],
        entities: [
          {
            name: 'Ann',
            category: 'People/Family',
            create: true,
            facts: [
              { text: 'Has a beagle called Biscuit.', said: '2026-06-01', source: url(3) },
              { text: 'Has a cat called Miso.', said: '2026-06-01', source: url(5) },
            ],
          },
        ],
      });
      // the messages that said Ann's records: only Miso's says what chews the slippers
      fx.write(
        'general',
        'log/2026-06-01.md',
        `# 2026-06-01\n\n### 09:00:00 · Alice · [↗](<${url(3)}>)\n\nAnn's beagle Biscuit turned three.\n\n### 09:01:00 · Alice · [↗](<${url(5)}>)\n\nAnn's cat Miso chews her slippers every night.\n`,
      );
      clock.advance(DAY);
      await graph.write('general', { origin: 'distillation', links: [], entities: [sarah('Works at Globex.', 4)] });
      const globexId = (await assistant.memory.reviewList(place))[0]?.new.id ?? '';
      expect(await assistant.memory.resolveReview(place, globexId, 'keep-new')).toBe(true);

      // then the project grows: the messages in the archive, and the records they left on other pages
      clock.advance(DAY);
      const more = chatter(size);
      const day = clock.now().toISOString().slice(0, 10);
      const log = more.map((m, i) => `### 09:00:${String(i % 60).padStart(2, '0')} · Alice · [↗](<${url(10 + i)}>)\n\n${m.text}\n`);
      fx.write('general', `log/${day}.md`, `# ${day}\n\n${log.join('\n')}`);
      const entities = more.map((m, i): GraphEntity => ({ name: m.entity, category: 'Work', create: true, facts: [{ text: m.fact, said: day, source: url(10 + i) }] }));
      await graph.write('general', { origin: 'distillation', links: [], entities });
      expect((await assistant.memory.records(place)).length).toBeGreaterThanOrEqual(size + 4);

      const answer = await assistant.memory.why(place, { query: 'where does Sarah work' });
      expect(answer.chains.map((c) => [c.statement, c.status]).slice(0, 2)).toEqual([
        ['Works at Globex.', 'active'],
        ['Works at Acme.', 'superseded'],
      ]);
      const out = await terminal(assistant, '/memory why where does Sarah work\n');
      expect(out.indexOf('“Works at Globex.”')).toBeGreaterThan(-1);
      expect(out.indexOf('“Works at Globex.”')).toBeLessThan(out.indexOf('“Works at Acme.”'));
      expect(out).toContain('status superseded');
      expect(out).not.toContain('TBC-');

      expect((await assistant.memory.why(place, { query: 'what does Ann have' })).chains[0]?.statement).toBe('Has a beagle called Biscuit.');
      // a word only the record's message had ("slippers"), read from the archive at any size
      expect((await assistant.memory.why(place, { query: "which of Ann's pets chews slippers" })).chains[0]?.statement).toBe('Has a cat called Miso.');
      expect(whyText(await assistant.memory.why(place, { query: 'what colour is the submarine' }))).toBe('No record in memory answers that.');

      // held while a person decides: still the answer, shown as held
      expect(await assistant.memory.resolveReview(place, globexId, 'hold')).toBe(true);
      const held = await assistant.memory.why(place, { query: 'where does Sarah work' });
      expect(held.chains.map((c) => [c.statement, c.status]).slice(0, 2)).toEqual([
        ['Works at Globex.', 'held'],
        ['Works at Acme.', 'superseded'],
      ]);
      expect(whyText(held)).toContain('status held');
    }, 30_000);
  }
});
