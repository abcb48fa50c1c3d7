/** A small household's memory for the web tests, benchmark and screenshots (incl. an XSS canary note). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockIdFor } from '../../src/core/records/block-id.js';
import { projectFile } from './web-fixture.js';

const MUSEUM = 'Wants to see the tiles museum in Lisbon.';
/** David's two employers: a pair in review (review.md's queue). */
export const ACME = 'Works at Acme.';
export const GLOBEX = 'Joined Globex as an engineer.';
export const DAVID = (text: string) => blockIdFor('People/David-Kim.md', text);

/** What the promotion gate keeps waiting in `trip` (data/candidates/trip.json). */
export const WAITING = {
  key: 'c-5eat5',
  entity: 'Sarah Chen',
  fact: { text: 'Prefers a window seat on flights.', type: 'preference', said: '2026-11-05', source: 'https://discord.com/channels/1/2/8' },
  message: 'Sarah: I always take the window seat, remember?',
  score: 0.48,
  parts: { recency: 0.9, salience: 1, identity: 0.2, source: 0.6 },
  firstSeen: '2026-11-05T10:00:00.000Z',
  expires: '2099-01-01T00:00:00.000Z',
};

/** Writes the waiting candidate where the gate keeps them (the fixture's data/). */
export function writeWaiting(dataDir: string): void {
  mkdirSync(join(dataDir, 'candidates'), { recursive: true });
  writeFileSync(join(dataDir, 'candidates', 'trip.json'), `${JSON.stringify([WAITING], null, 1)}\n`);
}

export const XSS_NOTE = `---
schema: 1
title: Canary
category: Topics
sensitivity: public
---

### 2026-11-20

A note that tries <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script>
and [a link](javascript:window.__xss=3) and <a href="javascript:window.__xss=4">raw</a>.

## Related
- [[People/Sarah-Chen]] (mentions)
`;

export function demoFiles(): Record<string, string> {
  return {
    'trip/project.md': projectFile('trip', 'web:trip'),
    'trip/decisions.md':
      '# Decisions\n\n- **2026-11-02** — Fly to Lisbon on 14 March ([source](https://discord.com/channels/1/2/3))\n- **2026-11-05** — Book the flat near Alfama ([source](https://discord.com/channels/1/2/4))\n',
    'trip/quotes.md': '# Quotes\n\n> "I want to see the tiles museum."\n> — Sarah, 2026-11-03 ([source](https://discord.com/channels/1/2/5))\n',
    'trip/notes/People/Sarah-Chen.md': `---
schema: 1
title: Sarah Chen
aliases: [Sarah]
tags: [family]
category: People
created: 2026-11-01T10:00:00.000Z
updated: 2026-11-03T10:00:00.000Z
staleness: 3
confidence: 0.9
sensitivity: personal
sources: [https://discord.com/channels/1/2/5]
status: active
---

### 2026-11-03

Loves azulejos; wants the **tiles museum**.

## Facts
- ${MUSEUM} [type:: preference] [confidence:: 0.85] [said:: 2026-11-03] [source:: [msg](https://discord.com/channels/1/2/5)] ^${blockIdFor('People/Sarah-Chen.md', MUSEUM)}
- Will send the flat options by Friday. [type:: commitment] [due:: 2026-11-07] [said:: 2026-11-04] [source:: voice:1733300000000] ^r-88d0

## Related
- [[Places/Lisbon]] (visiting)
- [[People/David-Kim]] (brother)
`,
    'trip/notes/Places/Lisbon.md': `---
schema: 1
title: Lisbon
category: Places
sensitivity: public
sources: [https://discord.com/channels/1/2/3]
---

### 2026-11-02

The March trip goes here. Flat near Alfama.

## Related
- [[People/Sarah-Chen]] (visitor)
- [[Topics/Budget]] (trip budget)
`,
    'trip/notes/People/David-Kim.md': `---
schema: 1
title: David Kim
category: People
---

### 2026-11-04

Joins for the second week.

## Facts
- ${ACME} [type:: identity] [about:: employer] [status:: review] [vs:: ^${DAVID(GLOBEX)}] [said:: 2026-10-01] [source:: [msg](https://discord.com/channels/1/2/6)] ^${DAVID(ACME)}
- ${GLOBEX} [type:: identity] [about:: employer] [status:: review] [vs:: ^${DAVID(ACME)}] [said:: 2026-11-04] [source:: [msg](https://discord.com/channels/1/2/7)] ^${DAVID(GLOBEX)}

## Related
- [[People/Sarah-Chen]] (sister)
`,
    'trip/notes/Topics/Canary.md': XSS_NOTE,
    'home/project.md': projectFile('home', 'web:home'),
    'home/decisions.md': '# Decisions\n\n- **2026-10-20** — Bins go out on Thursday ([source](https://discord.com/channels/1/9/1))\n',
  };
}

/**
 * A project `long` whose conversation has `count` messages over three days (Dana asks, Charlie
 * replies), numbered from 1: message 1 reads "Message 1 of 500: where it all began.", the others
 * "Message n of 500.". The log files, by path under projects/.
 */
export function longConversation(count: number): Record<string, string> {
  const days = new Map<string, string[]>();
  let asked = '';
  for (let i = 1; i <= count; i++) {
    const t = new Date(Date.UTC(2026, 9, 1, 8, 0, 0) + Math.floor(((i - 1) * 3 * 86_400_000) / count));
    const day = t.toISOString().slice(0, 10);
    const lines = days.get(day) ?? [`# ${day}`, ''];
    const user = i % 2 === 1;
    if (user) asked = `web:${t.getTime()}`; // a reply carries its question's source
    const source = asked;
    const text = i === 1 ? `Message 1 of ${count}: where it all began.` : `Message ${i} of ${count}.`;
    lines.push(`### ${t.toISOString().slice(11, 19)} · ${user ? 'Dana' : 'Charlie (reply)'} · [↗](${source})`, '', text, '');
    days.set(day, lines);
  }
  const files: Record<string, string> = { 'long/project.md': projectFile('long', 'web:long') };
  for (const [day, lines] of days) files[`long/log/${day}.md`] = lines.join('\n');
  return files;
}
