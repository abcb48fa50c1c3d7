/**
 * Forgetting that sticks, on the real Markdown store with a scripted memory model: forget,
 * replay the conversation that created the item through distillation, and it does not come
 * back; delete the tombstone by hand and it does.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { graphTombstoneCheck } from '../../src/memory/tombstones.js';
import { HashingEmbedder } from '../../src/memory/index/hashing-embedder.js';
import { createRecall } from '../../src/memory/recall.js';
import { ScriptedChatModel } from '../support/fakes.js';
import { makeAssistant } from '../support/assistant-fixture.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const place: Place = { kind: 'project', origin: { name: 'general', key: 'terminal:general' } };
const said = ['Sarah Chen leads the design team at Acme now.', 'We decided to move the launch to March.', 'Sarah said she prefers async updates.'];
/** The memory model: always the same distillation of the same conversation. */
const memoryReply = JSON.stringify({
  summary: 'Talked about Sarah and the launch.',
  decisions: [{ text: 'Move the launch to March', message: 2 }],
  quotes: [{ text: 'Sarah Chen leads the design team at Acme now.', message: 1 }],
  entities: [{ name: 'Sarah Chen', category: 'People', new: true }],
  facts: [
    { entity: 'Sarah Chen', text: 'Leads the design team at Acme.', message: 1, type: 'identity' },
    { entity: 'Sarah Chen', text: 'Prefers async updates.', message: 3, type: 'preference' },
  ],
  links: [],
});
/** Where the graph files a "People" entity (the taxonomy's first People folder). */
const PAGE = 'People/Family/Sarah-Chen.md';

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-forget-'));
  dirs.push(dir);
  const projectsDir = join(dir, 'projects');
  const memory = new ScriptedChatModel(() => ({ text: memoryReply }));
  const graph = new Wiki({ projectsDir, clock: systemClock, logger: silentLogger, isForgotten: graphTombstoneCheck(projectsDir) });
  const store = new FileProjectStore({ projectsDir, clock: systemClock, logger: silentLogger, pages: graph.pages });
  const { assistant } = makeAssistant({ model: memory, store, graph, clock: systemClock });
  const root = join(projectsDir, 'general');
  const replay = async () => {
    for (const text of said) await assistant.conversation.handle({ place, speaker: 'Alice', text, source: `discord:${text.length}`, reply: false });
    await assistant.memory.distillNow(place);
    await assistant.idle();
  };
  return { dir, projectsDir, root, store, graph, assistant, replay };
}

describe('forgetting sticks', () => {
  it('a forgotten note, decision and quote are not re-created by replaying the conversation; removing the tombstones lets them back', async () => {
    const t = setup();
    await t.replay();
    expect(existsSync(join(t.root, 'notes', PAGE))).toBe(true);
    let view = await t.assistant.settings.showMemory(place);
    expect(view.layers.decisions.map((d) => d.text)).toEqual(['Move the launch to March']);
    expect(view.layers.quotes).toHaveLength(1);

    expect((await t.assistant.memory.forget(place, { kind: 'note', path: PAGE }, 'Alice')).forgotten).toBe(true);
    expect((await t.assistant.memory.forget(place, { kind: 'decision', index: 1 }, 'Alice')).description).toBe('decision of ' + view.layers.decisions[0]!.date);
    expect((await t.assistant.memory.forget(place, { kind: 'quote', index: 1 }, 'Bob')).forgotten).toBe(true);
    const tombstones = readFileSync(join(t.root, 'forgotten.md'), 'utf8');
    expect(tombstones).toMatch(/· note · note People\/Family\/Sarah-Chen\.md · by Alice · `title:[0-9a-f]{16}`/);
    expect(tombstones).toMatch(/· quote · quote by Alice of \d{4}-\d{2}-\d{2} · by Bob · `fp:[0-9a-f]{16}`/);
    // never the forgotten text
    for (const words of ['design team', 'launch to March', 'Acme']) expect(tombstones).not.toContain(words);

    await t.replay();
    expect(existsSync(join(t.root, 'notes', PAGE))).toBe(false);
    view = await t.assistant.settings.showMemory(place);
    expect(view.layers.decisions).toEqual([]);
    expect(view.layers.quotes).toEqual([]);
    // remember (a local chat model writing directly) cannot re-create it either
    const refused = await t.graph.write('general', {
      origin: 'remember',
      entities: [{ name: 'Sarah Chen', create: true, facts: [{ text: 'Anything at all.', said: '2026-12-01', source: 'x' }] }],
      links: [],
    });
    expect(refused.created).toEqual([]);
    expect(refused.refused.map((r) => r.reason).join('\n')).toMatch(/forgotten/);

    // a person deletes the tombstones by hand: Charlie may learn it again
    writeFileSync(join(t.root, 'forgotten.md'), '# Forgotten\n');
    await t.replay();
    expect(existsSync(join(t.root, 'notes', PAGE))).toBe(true);
    view = await t.assistant.settings.showMemory(place);
    expect(view.layers.decisions.map((d) => d.text)).toEqual(['Move the launch to March']);
  });

  it('forgets one entry of a note, and on request the messages that said it, which leave the index', async () => {
    const t = setup();
    await t.replay();
    // a schema-1 page (dated entries), as older versions wrote them: still read, and its entries forgettable
    mkdirSync(join(t.root, 'notes', 'People'), { recursive: true });
    writeFileSync(
      join(t.root, 'notes', 'People', 'Dana.md'),
      '---\nschema: 1\ntitle: Dana\ncategory: People\n---\n\n### 2026-11-01\n\nLeads the design team.\n\n### 2026-11-02\n\nHer badge number is 7781.\n',
    );
    const items = await t.assistant.memory.forgettable(place);
    const entry = items.find((i) => i.target.kind === 'entry' && i.label.includes('entry 2'));
    expect(entry).toBeDefined();
    const out = await t.assistant.memory.forget(place, entry!.target, 'Alice', { removeMessages: true });
    expect(out.forgotten).toBe(true);
    const note = readFileSync(join(t.root, 'notes', 'People', 'Dana.md'), 'utf8');
    expect(note).toContain('Leads the design team');
    expect(note).not.toContain('7781');

    const recall = createRecall({
      projectsDir: t.projectsDir,
      dataDir: join(t.dir, 'data'),
      embedder: new HashingEmbedder(),
      usage: { record() {}, boosts: () => new Map() },
      logger: silentLogger,
      clock: systemClock,
    });
    try {
      expect((await recall.recall.recall('launch March', { project: 'general' })).some((h) => h.page.startsWith('log/') && h.text.includes('launch to March'))).toBe(true);
      const decision = await t.assistant.memory.forget(place, { kind: 'decision', index: 1 }, 'Alice', { removeMessages: true });
      expect(decision.redacted).toBeGreaterThan(0);
      const logs = readdirSync(join(t.root, 'log'))
        .map((f) => readFileSync(join(t.root, 'log', f), 'utf8'))
        .join('\n');
      expect(logs).not.toContain('launch to March');
      expect(logs).toContain('[removed: forgotten on');
      expect(logs).toContain('Sarah said she prefers async updates.');
      const hits = await recall.recall.recall('launch March', { project: 'general' });
      expect(hits.some((h) => h.text.includes('launch to March'))).toBe(false);
    } finally {
      await recall.close();
    }
  });
});
