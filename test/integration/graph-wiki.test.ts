import { mkdtemp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, type GraphWrite } from '../../src/core/ports/index.js';
import { UnsafeNameError } from '../../src/core/errors.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { EntityResolver } from '../../src/memory/graph/resolver.js';
import { FixedClock } from '../support/fakes.js';
import { recordingLogger } from '../support/recording-logger.js';
import { toGraphWrite } from '../../src/core/writing/graph-distill.js';

const MSG = (n: number) => `https://discord.com/channels/1/2/${n}`;

function page(title: string, extra = '', body = ''): string {
  return `---\nschema: 2\ntitle: ${title}\n${extra}---\n\n${body}`;
}

let root: string;
let wiki: Wiki;
let clock: FixedClock;
const notes = (rel = '') => join(root, 'p', 'notes', rel);
const read = (rel: string) => readFile(notes(rel), 'utf8');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-wiki-'));
  await mkdir(notes('People/Professional'), { recursive: true });
  await mkdir(notes('Work'), { recursive: true });
  clock = new FixedClock(new Date('2026-06-20T10:00:00Z'));
  wiki = new Wiki({ projectsDir: root, clock, logger: silentLogger });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('entity resolution', () => {
  const r = new EntityResolver([
    { path: 'People/Professional/Sarah-Chen.md', title: 'Sarah Chen', aliases: ['S. Chen'], category: 'People/Professional' },
    { path: 'Places/Sao-Paulo.md', title: 'São Paulo', aliases: [], category: 'Places' },
    { path: 'People/Friends/Tom-Hardy.md', title: 'Tom Hardy', aliases: [], category: 'People/Friends' },
    { path: 'People/Family/Tom-Li.md', title: 'Tom Li', aliases: [], category: 'People/Family' },
    { path: 'Work/Acme.md', title: 'Acme', aliases: ['Acme Corp'], category: 'Work', discordId: undefined },
  ]);
  it('ignores case, accents and possessives, and reads aliases', () => {
    expect(r.resolve('SARAH CHEN')).toBe('People/Professional/Sarah-Chen.md');
    expect(r.resolve("Sarah Chen's")).toBe('People/Professional/Sarah-Chen.md');
    expect(r.resolve('sao paulo')).toBe('Places/Sao-Paulo.md');
    expect(r.resolve('acme corp')).toBe('Work/Acme.md');
    expect(r.resolve('s. chen')).toBe('People/Professional/Sarah-Chen.md');
  });
  it('takes a first name alone only when one person has it', () => {
    expect(r.resolve('Sarah')).toBe('People/Professional/Sarah-Chen.md');
    expect(r.resolve('Tom')).toBeNull();
    expect(r.candidates('Tom')).toHaveLength(2);
  });
  it('finds the pages a text names, in order', () => {
    expect(r.mentions("Lunch with Sarah's team at ACME in São Paulo; Tom came too")).toEqual(['People/Professional/Sarah-Chen.md', 'Work/Acme.md', 'Places/Sao-Paulo.md']);
  });
});

describe('page map', () => {
  it('holds named pages, the speakers, then recall, and stays bounded', async () => {
    await writeFile(notes('People/Professional/Sarah-Chen.md'), page('Sarah Chen', 'aliases: [Sarah]\nstaleness: 3\nupdated: 2026-06-01\n', 'Leads design at Acme.\n'));
    await writeFile(notes('Work/Acme.md'), page('Acme', '', 'An employer.\n'));
    await writeFile(notes('People/Professional/Bob.md'), page('Bob', 'discord_id: "42"\n'));
    for (let i = 0; i < 30; i++) await writeFile(notes(`Work/Other-${i}.md`), page(`Other ${i}`));
    const map = await wiki.pageMap('p', { texts: ['Sarah moved to acme'], speakers: [{ name: 'bobby', discordId: '42' }], related: ['notes/Work/Other-3.md', 'notes/Work/Other-4.md'], limit: 4 });
    expect(map.map((m) => [m.path, m.why])).toEqual([
      ['People/Professional/Bob.md', 'speaker'],
      ['People/Professional/Sarah-Chen.md', 'named'],
      ['Work/Acme.md', 'named'],
      ['Work/Other-3.md', 'related'],
    ]);
    expect(map[1]).toMatchObject({ description: 'Leads design at Acme.', staleness: 3, updated: '2026-06-01' });
  });
});

describe('writing through the graph', () => {
  const sarahAtAcme = (n: number): GraphWrite => ({
    origin: 'distillation',
    entities: [
      {
        name: 'Sarah Chen',
        category: 'People/Professional',
        aliases: ['Sarah'],
        staleness: 3,
        create: true,
        facts: [{ text: 'Leads the design team at Acme.', type: 'identity', said: '2026-06-20', source: MSG(n) }],
      },
      { name: 'Acme', category: 'Work', staleness: 1, create: true, facts: [{ text: 'Makes anvils.', said: '2026-06-20', source: MSG(n + 1), staleness: 0 }] },
    ],
    links: [{ from: 'Sarah', to: 'Acme', label: 'employer', reverseLabel: 'employee', evidence: { kind: 'message', source: MSG(n) } }],
  });

  it('creates one page per entity with facts, both-sided labelled links and the staleness given', async () => {
    const report = await wiki.write('p', sarahAtAcme(3));
    expect(report.created.sort()).toEqual(['People/Professional/Sarah-Chen.md', 'Work/Acme.md']);
    expect(report).toMatchObject({ factsAdded: 2, linksAdded: 2, refused: [] });
    const sarah = await read('People/Professional/Sarah-Chen.md');
    expect(sarah).toContain('schema: 2');
    expect(sarah).toContain('staleness: 3');
    expect(sarah).toMatch(/^- Leads the design team at Acme\. \[type:: identity\] \[said:: 2026-06-20\] \[source:: \[msg\]\(https:\/\/discord\.com\/channels\/1\/2\/3\)\] \^r-[0-9a-f]{6}$/m);
    expect(sarah).toContain('## Related\n\n- [[Work/Acme]] (employer) [source:: [msg](https://discord.com/channels/1/2/3)]');
    const acme = await read('Work/Acme.md');
    expect(acme).toContain('- [[People/Professional/Sarah-Chen]] (employee)');
    expect(acme).toContain('staleness: 1');
    expect(acme).toMatch(/Makes anvils\. \[staleness:: 0\]/);
    expect(await read('_index.md')).toContain('[[People/Professional/Sarah-Chen]]');
    expect(await read('_log.md')).toMatch(/created People\/Professional\/Sarah-Chen\.md \(source: distillation\)/);
  });

  it('never appends a fact twice: restating refreshes its date; links are not doubled', async () => {
    await wiki.write('p', sarahAtAcme(3));
    clock.advance(86_400_000 * 3);
    const again = sarahAtAcme(9);
    again.entities[0]!.facts[0]!.said = '2026-06-23';
    again.entities[0]!.facts[0]!.text = 'leads the design team at ACME';
    const report = await wiki.write('p', { ...again, entities: [{ ...again.entities[0]!, name: "sarah's" }] });
    expect(report).toMatchObject({ created: [], factsAdded: 0, factsRefreshed: 1, linksAdded: 0 });
    const sarah = await read('People/Professional/Sarah-Chen.md');
    expect(sarah.match(/Leads the design team/gi)).toHaveLength(1);
    expect(sarah).toContain('[said:: 2026-06-23]');
    expect(sarah).toContain('/2/3)'); // the fact keeps the message that first said it
    expect(sarah.match(/\[\[Work\/Acme\]\]/g)).toHaveLength(1);
  });

  it('refuses what it cannot place: passing mentions, unknown link ends, page evidence that does not say it', async () => {
    await writeFile(notes('Work/Acme.md'), page('Acme', '', 'An employer of anvil makers.\n'));
    const report = await wiki.write('p', {
      origin: 'distillation',
      entities: [{ name: 'the weather', create: false, facts: [{ text: 'It rained.', said: '2026-06-20', source: MSG(1) }] }],
      links: [
        { from: 'Acme', to: 'Nobody', label: 'x', reverseLabel: 'y', evidence: { kind: 'message', source: MSG(1) } },
        { from: 'Acme', to: 'Acme', label: 'x', reverseLabel: 'y', evidence: { kind: 'message', source: MSG(1) } },
      ],
    });
    expect(report.refused.map((r) => r.reason)).toEqual([expect.stringMatching(/nothing lasting/), expect.stringMatching(/no single page for Nobody/), expect.stringMatching(/itself/)]);
    await writeFile(notes('People/Professional/Bo.md'), page('Bo'));
    const byPage = await wiki.write('p', {
      origin: 'distillation',
      entities: [],
      links: [
        { from: 'Bo', to: 'Acme', label: 'employer', reverseLabel: 'employee', evidence: { kind: 'page', page: 'Work/Acme', quote: 'Bo works here' } },
        { from: 'Bo', to: 'Acme', label: 'supplier', reverseLabel: 'client', evidence: { kind: 'page', page: 'Work/Acme', quote: 'employer of anvil makers' } },
      ],
    });
    expect(byPage.refused).toEqual([expect.objectContaining({ reason: 'the page given as evidence does not say that' })]);
    expect(await read('People/Professional/Bo.md')).toContain('- [[Work/Acme]] (supplier) [source:: [[Work/Acme]]]');
  });

  // the outside sweep found refused facts and quotes in data/logs at the default level
  it('logs what it refused by count at info, and its words only at debug', async () => {
    const lines: string[] = [];
    const logged = new Wiki({ projectsDir: root, clock, logger: recordingLogger(lines) });
    await writeFile(notes('Work/Acme.md'), page('Acme', '', 'An employer of anvil makers.\n'));
    await logged.write('p', {
      origin: 'distillation',
      entities: [{ name: 'Osric methadone programme', create: false, facts: [{ text: 'Osric is in a methadone programme.', said: '2026-06-20', source: MSG(1) }] }],
      links: [{ from: 'Acme', to: 'Greyfriars clinic', label: 'x', reverseLabel: 'y', evidence: { kind: 'message', source: MSG(1) } }],
    });
    const [text, given] = [lines.filter((l) => !l.startsWith('debug')).join('\n'), lines.filter((l) => l.startsWith('debug')).join('\n')];
    expect(text).toContain('"refused":2');
    expect(text).not.toMatch(/methadone|Greyfriars|Osric/);
    expect(given).toMatch(/methadone/);
    const { dropped } = toGraphWrite(
      { entities: [], facts: [], links: [{ from: 'Ann', to: 'Osric', label: 'friend', reverse_label: 'friend', evidence: { message: 1, quote: 'Osric is in a methadone programme' } }] },
      [{ time: '2026-06-20T10:00:00.000Z', speaker: 'Ann', source: 'terminal:1', text: 'We met for lunch.', role: 'user' }],
      [],
      'test',
    );
    expect(dropped.map((d) => d.reason)).toEqual([expect.stringMatching(/^link refused: message 1/)]);
    expect(dropped.map((d) => d.reason).join('')).not.toMatch(/methadone/);
  });

  it('starts health and money pages as sensitive', async () => {
    await wiki.write('p', {
      origin: 'inbox/bank.csv',
      entities: [
        { name: 'Rent', category: 'Finances', create: true, facts: [{ text: 'Rent is 1200 a month.', said: '2026-06-20', source: 'inbox/bank.csv#L2' }] },
        { name: 'Knee surgery', category: 'Health', create: true, facts: [{ text: 'Planned for July.', said: '2026-06-20', source: MSG(1) }] },
      ],
      links: [],
    });
    expect(await read('Finances/Rent.md')).toMatch(/^sensitivity: sensitive\nkind: financial$/m);
    expect(await read('Health/Knee-surgery.md')).toMatch(/^sensitivity: sensitive\nkind: phi$/m);
  });

  it('asks the forgetting hook before writing, and leaves a broken page alone', async () => {
    const forgetful = new Wiki({ projectsDir: root, clock, logger: silentLogger, isForgotten: (c) => c.kind === 'fact' && c.text.includes('anvils') });
    const report = await forgetful.write('p', sarahAtAcme(3));
    expect(report.refused).toEqual([expect.objectContaining({ item: 'Makes anvils.', reason: expect.stringMatching(/forgotten/) })]);
    await writeFile(notes('Work/Broken.md'), '---\ntitle: [unclosed\n---\n');
    const broken = await wiki.write('p', { origin: 'x', entities: [{ name: 'Broken', create: true, facts: [{ text: 'A fact.', said: '2026-06-20', source: MSG(1) }] }], links: [] });
    expect(broken.created).toEqual([]);
    expect(await read('Work/Broken.md')).toBe('---\ntitle: [unclosed\n---\n');
  });
});

describe('links follow renames and deletions', () => {
  beforeEach(async () => {
    await wiki.write('p', {
      origin: 'distillation',
      entities: [
        { name: 'Sarah Chen', category: 'People/Professional', create: true, facts: [{ text: 'Designer.', said: '2026-06-20', source: MSG(1) }] },
        { name: 'Acme', category: 'Work', create: true, facts: [{ text: 'Anvils.', said: '2026-06-20', source: MSG(1) }] },
      ],
      links: [{ from: 'Sarah Chen', to: 'Acme', label: 'employer', reverseLabel: 'employee', evidence: { kind: 'message', source: MSG(1) } }],
    });
  });

  it('when Charlie renames or a page is deleted', async () => {
    await wiki.rename('p', 'Work/Acme.md', 'Work/Acme-Corp.md');
    expect(await read('People/Professional/Sarah-Chen.md')).toContain('- [[Work/Acme-Corp]] (employer)');
    expect(await read('_log.md')).toContain('renamed Work/Acme.md → Work/Acme-Corp.md');
    expect(await wiki.pages.deletePage('p', 'People/Professional/Sarah-Chen.md', 'test')).toBe(true);
    expect(await wiki.pages.deletePage('p', 'People/Professional/Sarah-Chen.md', 'test')).toBe(false);
    expect(await read('Work/Acme-Corp.md')).not.toContain('Sarah-Chen');
    expect(await read('_index.md')).not.toContain('Sarah-Chen');
    expect(await read('_log.md')).toContain('deleted People/Professional/Sarah-Chen.md (source: test)');
  });

  it('when the store forgets a note: the graph deletes it and unlinks it', async () => {
    await wiki.primeAll();
    const store = new FileProjectStore({ projectsDir: root, clock, pages: wiki.pages });
    expect((await store.forget('p', { kind: 'note', path: 'notes/Work/Acme' }, 'Ann', { removeMessages: false })).forgotten).toBe(true);
    expect(await read('People/Professional/Sarah-Chen.md')).not.toContain('[[Work/Acme]]');
    expect(await read('_log.md')).toContain('deleted Work/Acme.md (source: forgotten by Ann)');
    await wiki.reconcile('p'); // the watcher then sees the file gone: already handled, not a hand delete
    expect(await read('_log.md')).not.toContain('hand edit');
  });

  it('refuses unsafe page names and the generated files', async () => {
    for (const bad of ['../x', '../../etc/passwd', '/etc/passwd', 'a/../../b']) await expect(wiki.pages.deletePage('p', bad, 'test')).rejects.toBeInstanceOf(UnsafeNameError);
    for (const generated of ['_index.md', '_log', 'notes/_index.md']) await expect(wiki.pages.deletePage('p', generated, 'test')).rejects.toBeInstanceOf(UnsafeNameError);
    expect(await read('_index.md')).toContain('Sarah-Chen');
  });

  it('when a person renames or deletes a file while Charlie runs (the watcher reconciles)', async () => {
    await wiki.primeAll();
    await mkdir(notes('People/Friends'), { recursive: true });
    await rename(notes('People/Professional/Sarah-Chen.md'), notes('People/Friends/Sarah-Chen.md'));
    await wiki.reconcile('p');
    expect(await read('Work/Acme.md')).toContain('- [[People/Friends/Sarah-Chen]] (employee)');
    expect(await read('_index.md')).toContain('[[People/Friends/Sarah-Chen]]');
    await rm(notes('Work/Acme.md'));
    await wiki.reconcile('p');
    expect(await read('People/Friends/Sarah-Chen.md')).not.toContain('[[Work/Acme]]');
    expect(await read('_log.md')).toMatch(/deleted Work\/Acme\.md \(source: hand edit\)/);
  });
});

describe('traversal', () => {
  it('follows links one or two hops, with labels and an optional label filter', async () => {
    await wiki.write('p', {
      origin: 'distillation',
      entities: [
        { name: 'Sarah Chen', category: 'People/Professional', create: true, description: 'Designer.', facts: [{ text: 'Designer.', said: '2026-06-20', source: MSG(1) }] },
        { name: 'Acme', category: 'Work', create: true, staleness: 2, facts: [{ text: 'Anvils.', said: '2026-06-20', source: MSG(1) }] },
        { name: 'Lisbon trip', category: 'Travel', create: true, facts: [{ text: 'In May.', said: '2026-06-20', source: MSG(1) }] },
        { name: 'Lisbon', category: 'Places', create: true, facts: [{ text: 'A city.', said: '2026-06-20', source: MSG(1) }] },
      ],
      links: [
        { from: 'Sarah Chen', to: 'Acme', label: 'employer', reverseLabel: 'employee', evidence: { kind: 'message', source: MSG(1) } },
        { from: 'Sarah Chen', to: 'Lisbon trip', label: 'trip', reverseLabel: 'traveller', evidence: { kind: 'message', source: MSG(2) } },
        { from: 'Lisbon trip', to: 'Lisbon', label: 'destination', reverseLabel: 'trip', evidence: { kind: 'message', source: MSG(2) } },
      ],
    });
    const one = await wiki.follow('p', 'sarah', { depth: 1 });
    expect(one?.linked.map((l) => [l.path, l.label, l.depth])).toEqual([
      ['Work/Acme.md', 'employer', 1],
      ['Travel/Lisbon-trip.md', 'trip', 1],
    ]);
    expect(one?.linked[0]).toMatchObject({ staleness: 2, updated: '2026-06-20', description: '' });
    const two = await wiki.follow('p', 'People/Professional/Sarah-Chen.md', { depth: 2, label: 'trip' });
    expect(two?.linked.map((l) => [l.path, l.label, l.from])).toEqual([
      ['Travel/Lisbon-trip.md', 'trip', 'People/Professional/Sarah-Chen.md'],
      ['Places/Lisbon.md', 'destination', 'Travel/Lisbon-trip.md'],
    ]);
    expect(await wiki.follow('p', 'Nobody', { depth: 1 })).toBeNull();
  });
});
