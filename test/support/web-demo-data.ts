/** A small household's memory for the web tests, benchmark and screenshots (incl. an XSS canary note). */
import { blockIdFor } from '../../src/memory/graph/lines.js';
import { projectFile } from './web-fixture.js';

const MUSEUM = 'Wants to see the tiles museum in Lisbon.';

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

## Related
- [[People/Sarah-Chen]] (sister)
`,
    'trip/notes/Topics/Canary.md': XSS_NOTE,
    'home/project.md': projectFile('home', 'web:home'),
    'home/decisions.md': '# Decisions\n\n- **2026-10-20** — Bins go out on Thursday ([source](https://discord.com/channels/1/9/1))\n',
  };
}
