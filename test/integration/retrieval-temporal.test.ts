import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/ports/index.js';
import { retrievalFixture, type RetrievalFixture } from '../support/retrieval-fixture.js';

const at = (iso: string): Clock => ({ now: () => new Date(iso) });

const decisions = `# Decisions

- **2026-10-05** — Move the staging database to Postgres 17 ([source](https://discord.com/channels/1/2/10))
- **2026-11-02** — Release the mobile app on the first Tuesday of each month ([source](https://discord.com/channels/1/2/11))
- **2026-11-24** — Freeze the API until the audit is done ([source](https://discord.com/channels/1/2/12))
- **2026-11-26** — Hire a second designer in January ([source](https://discord.com/channels/1/2/13))
- **2026-12-08** — Rename the project to Halo ([source](https://discord.com/channels/1/2/14))
`;

let fx: RetrievalFixture;
afterEach(async () => fx.cleanup());

describe('temporal recall', () => {
  it('"what did we decide last week?" ranks that week\'s decisions first, resolved against the clock', async () => {
    fx = retrievalFixture();
    fx.write('team', 'decisions.md', decisions);
    fx.write(
      'team',
      'notes/Topics/Release.md',
      '---\nschema: 1\ntitle: Release\nupdated: 2026-11-28T00:00:00.000Z\nstaleness: 2\n---\n\n# Release\n\nWe decided to release weekly in the past, then stopped.\n',
    );

    const monday = fx.open(undefined, undefined, at('2026-11-30T10:00:00Z'));
    const hits = await monday.recall.recall('what did we decide last week?', { project: 'team', limit: 5 });
    const top = hits.slice(0, 2).map((h) => h.text);
    expect(top.some((t) => t.includes('Freeze the API'))).toBe(true);
    expect(top.some((t) => t.includes('second designer'))).toBe(true);
    expect(hits[0]!.page).toBe('decisions.md');
    expect(hits[0]!.why).toContain('temporal');
    // one decision a chunk, with its own line
    expect(hits[0]!.lineStart).toBe(hits[0]!.lineEnd);
    await monday.close();

    // the same words a fortnight later mean another week
    const later = fx.open(undefined, undefined, at('2026-12-14T10:00:00Z'));
    const next = await later.recall.recall('what did we decide last week?', { project: 'team', limit: 5 });
    expect(next[0]!.text).toContain('Rename the project to Halo');
  });

  it('finds a message said yesterday even when few of its words match the question', async () => {
    fx = retrievalFixture();
    const entry = (time: string, speaker: string, text: string) => `### ${time} · ${speaker} · [↗](<terminal:${time}>)\n\n${text}\n`;
    fx.write(
      'trip',
      'log/2026-11-20.md',
      `# 2026-11-20\n\n${entry('09:00:00', 'Sam', 'Sam said the ferry to Lisbon leaves at nine.')}\n${entry('09:05:00', 'Ana', 'Sam, did you pack the passports for the trip?')}`,
    );
    fx.write('trip', 'log/2026-11-29.md', `# 2026-11-29\n\n${entry('18:00:00', 'Sam', 'Booked the hotel near the river, two nights.')}`);
    const service = fx.open(undefined, undefined, at('2026-11-30T08:00:00Z'));
    const hits = await service.recall.recall('what did Sam say yesterday about the trip?', { project: 'trip', limit: 3 });
    expect(hits[0]!.text).toContain('Booked the hotel');
    expect(hits[0]!.why).toContain('temporal');
  });
});
