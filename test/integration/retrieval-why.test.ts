/**
 * `/memory why <question>` finds the records that answer it even when the conversation archive
 * talks about the same things far more often: why-search ranks the records themselves
 * (statement, subject, attribute: src/core/records/match.ts); the messages that said a record
 * come with its chain. Asked the way Assistant.why wires it: explainWhy over the project's records.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/ports/index.js';
import { explainWhy, whyText } from '../../src/core/inspector/why.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FixedClock } from '../support/fakes.js';
import { note, retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';

let fx: RetrievalFixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
});

const src = (n: number) => `[source:: [msg](https://discord.com/channels/1/2/${n})]`;
const RECORDS: [page: string, title: string, line: string][] = [
  ['People/Sarah-Chen.md', 'Sarah Chen', `- Leads the design team at Acme. [type:: identity] [confidence:: 0.9] [said:: 2026-06-20] ${src(3)} ^r-7f3a01`],
  ['People/Sarah-Chen.md', 'Sarah Chen', `- Prefers async updates over calls. [type:: preference] [confidence:: 0.8] [said:: 2026-06-20] ${src(4)} ^r-1c9e02`],
  ['Places/Cabin.md', 'Cabin', `- The spare key hangs under the blue flowerpot by the porch. [type:: rule] [confidence:: 0.9] [said:: 2026-06-21] ${src(5)} ^r-2b4c03`],
  ['Pets/Biscuit.md', 'Biscuit', `- Biscuit is allergic to chicken. [type:: identity] [confidence:: 0.9] [said:: 2026-06-22] ${src(6)} ^r-3d5e04`],
  ['Household/Car.md', 'Car', `- The car needs its next service in March. [type:: commitment] [confidence:: 0.8] [said:: 2026-06-23] ${src(7)} ^r-4f6a05`],
];

/** Plain questions, each with the record that answers it, and chatter in the archive that shares its words. */
const QUESTIONS: [question: string, id: string, chatter: string[]][] = [
  ['Who leads design at Acme?', 'r-7f3a01', ['Acme design review again today', 'who leads the Acme design sync?', 'design at Acme is chaos', 'Acme design leads are busy']],
  ['How does Sarah like updates?', 'r-1c9e02', ['Sarah wants updates', 'did Sarah like the updates?', 'updates for Sarah later', 'Sarah, updates please']],
  ['Where is the spare key for the cabin?', 'r-2b4c03', ['cabin key missing again', 'where is the spare cabin key?', 'spare key for the cabin?', 'the cabin key thing']],
  ['What is Biscuit allergic to?', 'r-3d5e04', ['Biscuit sneezing, allergic?', 'is Biscuit allergic to something?', 'Biscuit allergic again', 'allergic Biscuit at the vet']],
  ['When is the next service?', 'r-4f6a05', ['next service soon?', 'when is the next service?', 'the next service, when?', 'next service is when again?']],
];

function seed(f: RetrievalFixture): void {
  const pages = new Map<string, { title: string; lines: string[] }>();
  for (const [page, title, line] of RECORDS) {
    const p = pages.get(page) ?? { title, lines: [] };
    p.lines.push(line);
    pages.set(page, p);
  }
  for (const [page, { title, lines }] of pages) f.write('home', `notes/${page}`, note(title, `## Facts\n${lines.join('\n')}`));
  // the archive: each topic discussed over and over, three times a day for a few days
  for (let day = 1; day <= 3; day++) {
    const entries: string[] = [];
    let minute = 0;
    for (const [, , chatter] of QUESTIONS)
      for (const text of chatter) {
        const time = `09:${String(minute++).padStart(2, '0')}:00`;
        entries.push(`### ${time} · Alice · [↗](<https://discord.com/channels/1/2/${day * 100 + minute}>)\n\n${text}\n`);
      }
    f.write('home', `log/2026-07-0${day}.md`, `# 2026-07-0${day}\n\n${entries.join('\n')}`);
  }
}

describe('/memory why <question>', () => {
  it('answers five plain questions with the right record first, though archive messages match them as well', async () => {
    fx = retrievalFixture();
    seed(fx);
    const clock = new FixedClock(new Date('2026-07-04T09:00:00Z'));
    const recall = fx.open(undefined, undefined, clock).recall;
    const graph = new Wiki({ projectsDir: fx.projectsDir, clock, logger: silentLogger });
    for (const [question, id] of QUESTIONS) {
      // what the archive alone would give: every one of the 8 hits is a message
      const plain = await recall.recall(question, { project: 'home', limit: 8 });
      expect(plain.filter((h) => h.page.startsWith('log/')).length, question).toBeGreaterThan(0);
      const answer = await explainWhy(graph, 'home', { query: question }, clock.now());
      expect(answer.chains[0]?.id, `${question}\n${whyText(answer)}`).toBe(id);
      expect(whyText(answer)).not.toContain('No record in memory answers that');
    }
  });
});
