/**
 * The memory lane's verdict (src/core/writing/sensitivity-verdict.ts) on the real Markdown store:
 * a message the rules miss and the lane names is stored with the label line (and the reply of its
 * turn too), the distil cursor keeps its place in the rewritten day file, a verdict never lowers a
 * label, and a malformed verdict changes nothing and loses no batch.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distill } from '../../src/core/writing/distill.js';
import { projectDistillTarget } from '../../src/core/home.js';
import { silentLogger, systemClock, type LogEntry } from '../../src/core/ports/index.js';
import { classifyText, labelOf } from '../../src/core/privacy/sensitivity.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { ScriptedChatModel } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tempDir = tempDirs('charlie-lane-verdict-');
const MISSED = 'Marek spent last week on a locked ward after he fell apart.';
const ORDINARY = 'Let us meet at the climbing wall on Saturday.';
const RULED = 'I take sumatriptan for my migraines.';
const day = new Date().toISOString().slice(0, 10);

/** A memory lane that gives the summary and `sensitive` as scripted (any JSON value: the field is untrusted). */
function lane(sensitive: unknown): ScriptedChatModel {
  return new ScriptedChatModel(() => ({ text: JSON.stringify({ summary: 'Friends talked.', decisions: [], quotes: [], sensitive }) }));
}

async function project(entries: [string, LogEntry['role']][]): Promise<{ store: FileProjectStore; root: string }> {
  const dir = tempDir();
  const store = new FileProjectStore({ projectsDir: dir, clock: systemClock, logger: silentLogger });
  await store.ensureProject({ name: 'general', key: 'terminal:general' });
  for (const [i, [text, role]] of entries.entries()) {
    const n = role === 'user' ? i + 1 : i; // a reply has the source of the message it answers
    await store.appendLog('general', { time: `${day}T10:00:0${i}.000Z`, speaker: role === 'user' ? 'Alice' : 'Charlie', source: `terminal:${n}`, text, role });
  }
  return { store, root: join(dir, 'general') };
}

const run = (store: FileProjectStore, model: ScriptedChatModel) => distill(projectDistillTarget(store, 'general'), { model, logger: silentLogger, batchChars: 10_000 });
const labels = async (store: FileProjectStore) => (await store.recentLog('general', 50)).map((e) => `${e.text.slice(0, 12)} ${labelOf(e).sensitivity}${labelOf(e).kind ? `/${labelOf(e).kind}` : ''}`);

describe("the memory lane's verdict", () => {
  it('the rules miss the wordings the verdict is tested with', () => {
    expect([MISSED, ORDINARY].map((t) => classifyText(t))).toEqual([null, null]);
  });

  it('labels the message it names and the reply of its turn in the day file; the cursor keeps its place', async () => {
    const { store, root } = await project([
      [MISSED, 'user'],
      ['So Marek was on a ward.', 'assistant'],
      [ORDINARY, 'user'],
    ]);
    expect(await run(store, lane([{ message: 1, kind: 'phi' }]))).toBe(3);
    expect(await labels(store)).toEqual(['Marek spent  sensitive/phi', 'So Marek was sensitive/phi', 'Let us meet  personal']);
    expect(readFileSync(join(root, 'log', `${day}.md`), 'utf8')).toContain(`${MISSED}\n[sensitivity:: sensitive/phi]\n\n### `);
    // the next distillation reads only what came after: the cursor moved past the label lines written before it
    await store.appendLog('general', { time: `${day}T10:00:09.000Z`, speaker: 'Alice', source: 'terminal:9', text: 'And bring the rope.', role: 'user' });
    const pending = await projectDistillTarget(store, 'general').pending();
    expect(pending.entries.map((e) => e.text)).toEqual(['And bring the rope.']);
  });

  it('a fact split over two messages of one batch: the verdict names the earlier, harmless-alone one too, and it is raised with the reply of its turn (the prompt asks for it)', async () => {
    const FIRST = 'Tobin starts at Fernhill House on Monday.';
    const { store } = await project([
      [FIRST, 'user'],
      ['Good luck to Tobin!', 'assistant'],
      [ORDINARY, 'user'],
      ['Fernhill House is where they treat addiction.', 'user'],
    ]);
    const model = lane([
      { message: 1, kind: 'phi' },
      { message: 4, kind: 'phi' },
    ]);
    await run(store, model);
    expect(String(model.requests[0]!.messages[0]!.content)).toMatch(/a message that is harmless alone when a later one makes it sensitive/);
    expect(await labels(store)).toEqual(['Tobin starts sensitive/phi', 'Good luck to sensitive/phi', 'Let us meet  personal', 'Fernhill Hou sensitive/phi']);
  });

  it('never lowers a label: the rules label stays whatever the lane says of the message', async () => {
    const { store } = await project([
      [RULED, 'user'],
      [ORDINARY, 'user'],
    ]);
    await run(
      store,
      lane([
        { message: 1, kind: 'personal' },
        { message: 1, kind: 'other' },
        { message: 1, sensitivity: 'public' },
      ]),
    );
    expect(await labels(store)).toEqual(['I take sumat sensitive/phi', 'Let us meet  personal']);
  });

  it.each([
    ['not a list', 'all of them'],
    ['numbers outside the batch and items of the wrong shape', [{ message: 9, kind: 'phi' }, { message: 'one' }, { kind: 'phi' }, { message: 0, kind: 'phi' }, null]],
    ['missing', undefined],
  ])('a malformed verdict (%s) changes nothing and the batch is distilled', async (_what, sensitive) => {
    const { store } = await project([
      [MISSED, 'user'],
      [ORDINARY, 'user'],
    ]);
    expect(await run(store, lane(sensitive))).toBe(2);
    expect(await labels(store)).toEqual(['Marek spent  personal', 'Let us meet  personal']);
    expect((await store.readLayers('general')).layers.summary).toBe('Friends talked.');
  });

  it('a summary written from a raised message carries its label (what the batch makes from it)', async () => {
    const { store } = await project([[MISSED, 'user']]);
    await run(store, lane([{ message: 1, kind: 'phi' }]));
    expect((await store.readLayers('general')).layers.summary).toBe('Friends talked.\n\n[sensitivity:: sensitive/phi]');
  });

  it('in a private conversation the row is stored sensitive, and the reply of its turn', () => {
    const store = new SqlitePrivateStore(join(tempDir(), 'private.db'));
    store.appendMessage('111', { time: `${day}T10:00:00.000Z`, speaker: 'Dana', source: 'dm:1', text: MISSED, role: 'user' });
    store.appendMessage('111', { time: `${day}T10:00:01.000Z`, speaker: 'Dana', source: 'dm:2', text: ORDINARY, role: 'user' });
    store.appendMessage('111', { time: `${day}T10:00:02.000Z`, speaker: 'Charlie', source: 'dm:2', text: 'See you there.', role: 'assistant' });
    store.appendMessage('111', { time: `${day}T10:00:03.000Z`, speaker: 'Charlie', source: 'dm:1', text: 'So Marek was on a ward.', role: 'assistant' });
    const [first] = store.messagesSince('111', 0);
    store.raiseMessageLabels('111', [{ id: first!.id, label: { sensitivity: 'sensitive', kind: 'phi' } }]);
    expect(store.sensitiveMessages('111').map((e) => e.text)).toEqual([MISSED, 'So Marek was on a ward.']);
    store.close();
  });
});

describe('a provisional label (the precheck failed closed) and the next verdict', () => {
  /** The project with ORDINARY and MISSED archived provisionally (unjudged), the reply of MISSED's turn, and one more ordinary message. */
  async function provisional(): Promise<{ store: FileProjectStore; root: string }> {
    const dir = tempDir();
    const store = new FileProjectStore({ projectsDir: dir, clock: systemClock, logger: silentLogger });
    await store.ensureProject({ name: 'general', key: 'terminal:general' });
    const at = (i: number) => `${day}T11:00:0${i}.000Z`;
    await store.appendLog('general', { time: at(1), speaker: 'Alice', source: 'terminal:1', text: ORDINARY, role: 'user', sensitivity: 'sensitive', unjudged: true });
    await store.appendLog('general', { time: at(2), speaker: 'Alice', source: 'terminal:2', text: MISSED, role: 'user', sensitivity: 'sensitive', unjudged: true });
    await store.appendLog('general', { time: at(3), speaker: 'Charlie', source: 'terminal:2', text: 'So Marek was on a ward.', role: 'assistant', sensitivity: 'sensitive' });
    await store.appendLog('general', { time: at(4), speaker: 'Alice', source: 'terminal:4', text: 'And bring the rope.', role: 'user' });
    return { store, root: join(dir, 'general') };
  }

  it('is written so that every other reader reads it as sensitive, and read back as provisional', async () => {
    const { store, root } = await provisional();
    expect(readFileSync(join(root, 'log', `${day}.md`), 'utf8')).toContain(`${ORDINARY}\n[sensitivity:: sensitive/unjudged]\n`);
    const [first] = await store.recentLog('general', 4);
    expect(first).toMatchObject({ text: ORDINARY, sensitivity: 'sensitive', unjudged: true });
    expect(labelOf(first!).sensitivity).toBe('sensitive');
  });

  it('a whole verdict settles it: ordinary when not named (its label line goes, the cursor keeps its place), as named when named; the reply keeps its label', async () => {
    const { store, root } = await provisional();
    expect(await run(store, lane([{ message: 2, kind: 'phi' }]))).toBe(4);
    expect(await labels(store)).toEqual(['Let us meet  personal', 'Marek spent  sensitive/phi', 'So Marek was sensitive', 'And bring th personal']);
    const file = readFileSync(join(root, 'log', `${day}.md`), 'utf8');
    expect(file).not.toContain('unjudged');
    expect(file).toContain(`${ORDINARY}\n\n### `);
    // the distil cursor moved back by the label line taken out: the next batch is what came after, whole
    await store.appendLog('general', { time: `${day}T11:00:09.000Z`, speaker: 'Alice', source: 'terminal:9', text: 'Bring snacks too.', role: 'user' });
    const pending = await projectDistillTarget(store, 'general').pending();
    expect(pending.entries.map((e) => e.text)).toEqual(['Bring snacks too.']);
  });

  it.each([
    ['missing', undefined],
    ['an invalid item', [{ message: 'one' }]],
    ['not a list', 'none'],
  ])('a verdict that is not whole (%s) settles nothing', async (_what, sensitive) => {
    const { store } = await provisional();
    await run(store, lane(sensitive));
    const stored = await store.recentLog('general', 4);
    expect(stored.map((e) => [labelOf(e).sensitivity, e.unjudged ?? false])).toEqual([
      ['sensitive', true],
      ['sensitive', true],
      ['sensitive', false],
      ['personal', false],
    ]);
  });

  it('in a private conversation: the row is settled, and a row not provisional is never lowered', async () => {
    const store = new SqlitePrivateStore(join(tempDir(), 'private.db'));
    store.appendMessage('111', { time: `${day}T10:00:00.000Z`, speaker: 'Dana', source: 'dm:1', text: ORDINARY, role: 'user', sensitivity: 'sensitive', unjudged: true });
    store.appendMessage('111', { time: `${day}T10:00:01.000Z`, speaker: 'Dana', source: 'dm:2', text: MISSED, role: 'user', sensitivity: 'sensitive' });
    expect(store.recentMessages('111', 5).map((e) => e.unjudged ?? false)).toEqual([true, false]);
    const [a, b] = store.messagesSince('111', 0);
    store.raiseMessageLabels('111', [
      { id: a!.id, label: { sensitivity: 'personal' } },
      { id: b!.id, label: { sensitivity: 'personal' } },
    ]);
    expect(store.recentMessages('111', 5).map((e) => [e.text, labelOf(e).sensitivity, e.unjudged ?? false])).toEqual([
      [ORDINARY, 'personal', false],
      [MISSED, 'sensitive', false],
    ]);
    store.close();
  });
});
