/**
 * Replays after a crash duplicated facts in entity notes (issue 13, item 4: 9 of 242 notes, up
 * to 4 copies): distillation saved the entities, crashed before moving its cursor, and the
 * replay appended the same facts again. Entity writes are idempotent now.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { distill, type DistillTarget } from '../../../src/core/writing/distill.js';
import { projectDistillTarget } from '../../../src/core/home.js';
import { silentLogger, type Clock } from '../../../src/core/ports/index.js';
import { FileProjectStore } from '../../../src/memory/store/project-store.js';
import { Wiki } from '../../../src/memory/graph/wiki.js';
import { ScriptedChatModel } from '../../support/fakes.js';
import { writePage, writePageReport } from '../../support/pages.js';
import { tempDirs } from '../../support/temp-dir.js';
import { distillReply } from '../../support/distill-reply.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };
const newRoot = tempDirs('charlie-hostile-replay-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('entity notes and replays', () => {
  it('the same write twice (same message) leaves one record; a new fact is still added', async () => {
    const store = new FileProjectStore({ projectsDir: root, clock });
    const wiki = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    const { slug } = await store.ensureProject({ key: 'terminal:p', name: 'p' });
    const page = { title: 'Sarah Chen', category: 'People/Professional', facts: ['Leads the design team.'], source: 's:1' };
    const path = await writePage(wiki, slug, page);
    expect((await writePageReport(wiki, slug, page)).factsAdded).toBe(0);
    expect((await writePageReport(wiki, slug, { ...page, facts: ['Leads the design team.\n'] })).factsAdded).toBe(0);
    const first = await readFile(join(root, slug, 'notes', path), 'utf8');
    expect(count(first, 'Leads the design team.')).toBe(1);
    await writePage(wiki, slug, { ...page, facts: ['Moved to Lyon.'], source: 's:6' });
    const after = await readFile(join(root, slug, 'notes', path), 'utf8');
    expect(count(after, 'Leads the design team.')).toBe(1);
    expect(count(after, 'Moved to Lyon.')).toBe(1);
  });

  it('a distillation that crashes before its cursor moves, replayed, writes each entity and fact once (through the graph)', async () => {
    const store = new FileProjectStore({ projectsDir: root, clock });
    const wiki = new Wiki({ projectsDir: root, clock, logger: silentLogger });
    const { slug } = await store.ensureProject({ key: 'terminal:p', name: 'p' });
    for (let i = 1; i <= 5; i++) {
      await store.appendLog(slug, { time: `2026-11-29T18:0${i}:00Z`, speaker: 'Ann', source: `s:${i}`, text: `Sarah Chen leads the design team (${i}).`, role: 'user' });
    }
    const model = new ScriptedChatModel(() => ({
      text: JSON.stringify(
        distillReply({
          summary: 'Design.',
          entities: [{ name: 'Sarah Chen', category: 'People', new: true }],
          facts: [{ entity: 'Sarah Chen', text: 'Leads the design team.', message: 1, type: 'identity' }],
        }),
      ),
    }));
    let crashes = 3;
    const base = projectDistillTarget(store, slug);
    const target: DistillTarget = {
      ...base,
      graph: {
        taxonomy: () => wiki.taxonomy(slug),
        pageMap: (r) => wiki.pageMap(slug, r),
        write: (w) => wiki.write(slug, w),
        related: async () => [],
      },
      pending: async () => {
        const pending = await base.pending();
        return {
          ...pending,
          commit: async (count: number) => {
            if (crashes-- > 0) throw new Error('killed before the cursor moved');
            await pending.commit(count);
          },
        };
      },
    };
    for (let run = 0; run < 4; run++) await distill(target, { model, logger: silentLogger, batchChars: 24_000 }).catch(() => 0);
    expect(model.requests.length).toBe(4);
    const pages = (await wiki.pageLinks(slug)).pages.filter((p) => p.title === 'Sarah Chen');
    expect(pages).toHaveLength(1);
    const page = await readFile(join(root, slug, 'notes', pages[0]!.path), 'utf8');
    expect(count(page, 'Leads the design team.')).toBe(1);
  });
});
