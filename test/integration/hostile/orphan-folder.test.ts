/**
 * Deleting only project.md (issue 13, item 4) made a new `general-2` folder and orphaned the old
 * archive, decisions and notes. The project is recovered from its folder instead.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, type Clock, type ProjectOrigin } from '../../../src/core/ports/index.js';
import { Wiki } from '../../../src/memory/graph/wiki.js';
import { writePage } from '../../support/pages.js';
import { FileProjectStore } from '../../../src/memory/store/project-store.js';
import { tempDirs } from '../../support/temp-dir.js';

const clock: Clock = { now: () => new Date('2026-11-29T18:20:11.000Z') };
const newRoot = tempDirs('charlie-hostile-orphan-');
let root: string;
beforeEach(() => {
  root = newRoot();
});

async function seed(origin: ProjectOrigin): Promise<string> {
  const store = new FileProjectStore({ projectsDir: root, clock });
  const { slug } = await store.ensureProject(origin);
  const source = origin.discord ? `https://discord.com/channels/${origin.discord.guildId}/${origin.discord.channelId}/10` : 'terminal:1';
  await store.appendLog(slug, { time: '2026-11-29T18:00:00Z', speaker: 'Ann', source, text: 'We meet on Friday.', role: 'user' });
  const snap = await store.readLayers(slug);
  await store.writeLayers(slug, { summary: 'Planning.', decisions: [{ date: '2026-11-29', text: 'Meet on Friday', source }], quotes: [] }, snap.versions);
  await writePage(new Wiki({ projectsDir: root, clock, logger: silentLogger }), slug, { title: 'Ann', category: 'People/Friends', facts: ['Organises the meetings.'], source });
  await rm(join(root, slug, 'project.md'));
  return slug;
}

describe('a project folder whose project.md was deleted', () => {
  it('is taken up again by its channel: same folder, archive, decisions and notes, a new project.md', async () => {
    const origin = { key: 'terminal:general', name: 'general' };
    const slug = await seed(origin);
    const store = new FileProjectStore({ projectsDir: root, clock });
    const again = await store.ensureProject(origin);
    expect(again.slug).toBe(slug);
    expect((await readdir(root)).sort()).toEqual([slug]);
    expect((await store.recentLog(slug, 5)).map((e) => e.text)).toEqual(['We meet on Friday.']);
    expect((await store.readLayers(slug)).layers.decisions.map((d) => d.text)).toEqual(['Meet on Friday']);
    expect((await store.listNotes(slug)).map((n) => n.title)).toEqual(['Ann']);
    const got = await store.getProject(slug);
    expect(got?.problems).toEqual([]);
    expect(got?.config.keys).toEqual([origin.key]);
  });

  it('a renamed Discord channel finds its old folder through the channel links in the archive', async () => {
    const discord = { guildId: '111', channelId: '222' };
    const slug = await seed({ key: 'discord:111:222', name: 'trip-planning', discord });
    const store = new FileProjectStore({ projectsDir: root, clock });
    const again = await store.ensureProject({ key: 'discord:111:222', name: 'holiday', discord });
    expect(again.slug).toBe(slug);
    expect((await readdir(root)).sort()).toEqual([slug]);
  });

  it('another channel does not take it: a different name and no links to it get a folder of their own', async () => {
    const slug = await seed({ key: 'discord:111:222', name: 'trip-planning', discord: { guildId: '111', channelId: '222' } });
    const store = new FileProjectStore({ projectsDir: root, clock });
    const other = await store.ensureProject({ key: 'discord:111:333', name: 'music', discord: { guildId: '111', channelId: '333' } });
    expect(other.slug).toBe('music');
    expect((await readdir(root)).sort()).toEqual(['music', slug].sort());
  });
});
