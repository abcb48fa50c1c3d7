/**
 * Reflection end to end on real pages (Wiki in a temp folder) with a scripted memory model:
 * one run merges duplicates, distils one rule citing its sources and expires a past commitment;
 * a scripted reflection that would drop half of a page is rejected and leaves it byte-unchanged;
 * a restored page is byte-identical to its previous version.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger, type ChatRequest, type GraphFact } from '../../src/core/ports/index.js';
import { Reflection } from '../../src/core/reflection/reflection.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { listPageFiles } from '../../src/memory/index/page-files.js';
import { parseRecordEvents } from '../../src/memory/records/history.js';
import { FileReflectionPages } from '../../src/memory/reflect/reflection-pages.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const temp = tempDirs('charlie-reflect-');
const msg = (n: number) => `https://discord.com/channels/1/2/${n}`;
const SARAH = 'People/Professional/Sarah-Chen.md';
const TBC = 'Work/TBC-Corp.md';

/** The ids the model was shown, by a piece of their statement. */
function idOf(req: ChatRequest, piece: string): string {
  const text = req.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const line = text.split('\n').find((l) => l.startsWith('r-') && l.includes(piece));
  return line?.split(' | ')[0] ?? '';
}

async function setup(model: ScriptedChatModel | null) {
  const root = temp();
  const projectsDir = join(root, 'projects');
  const clock = new FixedClock(new Date('2027-06-01T10:00:00Z'));
  const wiki = new Wiki({ projectsDir, clock, logger: silentLogger });
  const pages = new FileReflectionPages({ projectsDir, dataDir: join(root, 'data'), pages: wiki, clock, logger: silentLogger });
  const reflection = new Reflection({ pages, model, clock, logger: silentLogger, settings: { quietMinutes: 30, intervalHours: 24, maxPages: 50, deadlineMs: 10_000 } });
  const write = (name: string, category: string, facts: GraphFact[]) => wiki.write('p', { origin: 'distillation', links: [], entities: [{ name, category, create: true, facts }] });
  const file = (page: string) => join(projectsDir, 'p', 'notes', page);
  return { root, projectsDir, clock, wiki, pages, reflection, write, file };
}

describe('reflection', () => {
  it('merges duplicates, distils one rule citing its sources and expires a past commitment, in one run', async () => {
    const model = new ScriptedChatModel((req) => ({
      text: JSON.stringify({
        duplicates: [],
        rules: [
          { text: 'Tickets prefixed TBC- mean infrastructure work at TBC Corp.', from: [idOf(req, 'TBC-101'), idOf(req, 'TBC-204')] },
          { text: 'A rule that cites nothing real.', from: ['r-000000', 'r-ffffff'] },
        ],
        contradictions: [{ a: idOf(req, 'TBC-101') }],
      }),
    }));
    const t = await setup(model);
    await t.write('Sarah Chen', 'People/Professional', [
      { text: 'Leads the design team at Acme.', type: 'identity', said: '2027-05-20', source: msg(1) },
      { text: 'Prefers async updates over calls.', type: 'preference', said: '2027-05-21', source: msg(2) },
      { text: 'Will send the mock-ups by Friday.', type: 'commitment', due: '2027-06-26', said: '2027-05-22', source: msg(3) },
    ]);
    await t.write('Sarah Chen', 'People/Professional', [{ text: 'Sarah leads the design team at Acme.', type: 'identity', said: '2027-05-28', source: msg(4), via: 'voice' }]);
    await t.write('TBC Corp', 'Work', [
      { text: 'Ticket TBC-101 was infrastructure work for TBC Corp.', type: 'episode', said: '2027-05-25', source: msg(5) },
      { text: 'Ticket TBC-204 was infrastructure work for TBC Corp.', type: 'episode', said: '2027-05-27', source: msg(6) },
      { text: 'TBC Corp is based in Leeds.', type: 'identity', said: '2027-05-27', source: msg(7) },
    ]);
    const sarahBefore = readFileSync(t.file(SARAH), 'utf8');
    const tbcBefore = readFileSync(t.file(TBC), 'utf8');
    const ids = (text: string) => new Map(text.split('\n').flatMap((l) => (/\^(r-[0-9a-f]+)$/.exec(l) ? [[l.replace(/ \[.*$/, ''), /\^(r-[0-9a-f]+)$/.exec(l)?.[1] ?? '']] : [])));
    const sarahIds = ids(sarahBefore);
    const oldId = sarahIds.get('- Leads the design team at Acme.') ?? '';
    const newId = sarahIds.get('- Sarah leads the design team at Acme.') ?? '';
    const commitment = sarahIds.get('- Will send the mock-ups by Friday.') ?? '';

    t.clock.advance(40 * 86_400_000); // 2027-07-11: the commitment was due on 2027-06-26
    const report = await t.reflection.run('p', 'recent');
    expect(report).toMatchObject({ merged: 1, rules: 1, expired: 1, proposed: 0, rejected: 0 });
    expect(report.dropped).toBe(2); // the rule without real sources, the contradiction without `b`

    const sarah = readFileSync(t.file(SARAH), 'utf8');
    const lines = sarah.split('\n').filter((l) => l.includes('design team'));
    expect(lines).toHaveLength(1);
    // the record written first stays (its id) with the newest said (a duplicate is a restatement),
    // and carries every source and how it came
    expect(lines[0]).toMatch(new RegExp(`^- Leads the design team at Acme\\. .*\\[said:: 2027-05-28\\].*\\^${oldId}$`));
    expect(lines[0]).toContain(`[source:: [msg](${msg(1)})]`);
    expect(lines[0]).toContain(`[source:: [msg](${msg(4)})]`);
    // how each came: its own way first (the record still reads as chat), then the merged one's
    expect(lines[0]).toContain(`[source:: [msg](${msg(4)})] [via:: chat] [via:: voice] [merged:: ${newId}]`);
    expect(lines[0]).toContain(`[merged:: ${newId}]`);
    expect(sarah.split('\n').find((l) => l.includes('mock-ups'))).toContain('[expired:: 2027-07-11]');
    expect(sarah).toContain('Prefers async updates over calls.');

    const tbc = readFileSync(t.file(TBC), 'utf8');
    const tbcIds = ids(tbcBefore);
    const rule = tbc.split('\n').find((l) => l.includes('[type:: rule]')) ?? '';
    expect(rule).toMatch(/^- Tickets prefixed TBC- mean infrastructure work at TBC Corp\. /);
    expect(rule).toContain(`[source:: [[Work/TBC-Corp#^${tbcIds.get('- Ticket TBC-101 was infrastructure work for TBC Corp.') ?? '?'}]]]`);
    expect(rule).toContain(`[source:: [[Work/TBC-Corp#^${tbcIds.get('- Ticket TBC-204 was infrastructure work for TBC Corp.') ?? '?'}]]]`);
    expect(rule).toContain('[via:: reflection]');
    expect(tbc).not.toContain('cites nothing real');

    // one log line per change, with the record ids, read back by the provenance chains
    const logText = readFileSync(t.file('_log.md'), 'utf8');
    const events = parseRecordEvents(logText);
    const ruleId = /\^(r-[0-9a-f]+)$/.exec(rule)?.[1] ?? '';
    const [id101, id204] = [tbcIds.get('- Ticket TBC-101 was infrastructure work for TBC Corp.'), tbcIds.get('- Ticket TBC-204 was infrastructure work for TBC Corp.')];
    expect(events.filter((e) => e.action === 'merged')).toMatchObject([{ page: SARAH, id: oldId, source: 'reflection', detail: `absorbed ${SARAH}#^${newId}` }]);
    expect(events.filter((e) => e.action === 'distilled')).toMatchObject([{ page: TBC, id: ruleId, source: 'reflection', detail: `a rule distilled from ^${id101 ?? ''} + ^${id204 ?? ''}` }]);
    expect(events.filter((e) => e.action === 'expired')).toMatchObject([{ page: SARAH, id: commitment, detail: '(due 2027-06-26)' }]);
    expect(logText).toMatch(new RegExp(`^- \\S+ updated ${SARAH} \\(source: reflection\\) — previous version kept in \\.history/notes/People/Professional/Sarah-Chen\\.\\S+\\.md$`, 'm'));
    // "why does Charlie think that?" follows the merge: the absorbed id leads to the kept record
    const why = await t.wiki.provenance('p', [{ id: newId }]);
    expect(why.chains[0]).toMatchObject({ id: oldId, askedFor: newId });
    expect(why.chains[0]?.steps.map((s) => s.kind)).toContain('merged');

    // the previous versions are kept, readable, and never indexed as memory
    const versions = await t.pages.versions('p');
    expect(versions.map((v) => v.page).sort()).toEqual([SARAH, TBC]);
    const sarahVersion = versions.find((v) => v.page === SARAH);
    expect(readFileSync(join(t.projectsDir, 'p', sarahVersion?.file ?? ''), 'utf8')).toBe(sarahBefore);
    expect([...listPageFiles(join(t.projectsDir, 'p')).keys()].filter((p) => p.includes('history'))).toEqual([]);
    expect([...(await t.wiki.load('p')).pages.keys()].sort()).toEqual([SARAH, TBC]);

    // a second scheduled run finds nothing new and changes nothing
    const again = await t.reflection.run('p', 'recent');
    expect(again.pages).toBe(0);
    expect(readFileSync(t.file(SARAH), 'utf8')).toBe(sarah);

    // restore: byte-identical to the previous version, and the replaced one is kept too
    const restored = await t.pages.restore('p', 'People/Professional/Sarah-Chen');
    expect(restored).toMatchObject({ ok: true, page: SARAH });
    expect(readFileSync(t.file(SARAH), 'utf8')).toBe(sarahBefore);
    expect(Buffer.compare(readFileSync(t.file(SARAH)), readFileSync(join(t.projectsDir, 'p', sarahVersion?.file ?? '')))).toBe(0);
    const after = await t.pages.versions('p', 'People/Professional/Sarah-Chen');
    expect(after).toHaveLength(2);
    expect(readFileSync(join(t.projectsDir, 'p', after[1]?.file ?? ''), 'utf8')).toBe(sarah);
    expect(readFileSync(t.file('_log.md'), 'utf8').trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^- \\S+ restored ${SARAH} \\(source: restore\\) — version ${sarahVersion?.version ?? '?'}$`));
    // a page a person put back is left as they chose: the next run does not merge it again
    const next = await t.reflection.run('p', 'all');
    expect(next.merged).toBe(0);
    expect(readFileSync(t.file(SARAH), 'utf8')).toBe(sarahBefore);
  });

  it('rejects a rewrite that would drop half of a page, logs why, and leaves the page byte-unchanged', async () => {
    const model = new ScriptedChatModel((req) => ({
      text: JSON.stringify({ duplicates: [{ ids: ['| Likes green tea.', '| Omar likes', '| He likes', '| Omar really'].map((w) => idOf(req, w)) }], rules: [], contradictions: [] }),
    }));
    const t = await setup(model);
    // four statements of one fact, each written on its own (a merge of different facts never gets as far as the guard: reflection-merge-table.test.ts)
    const teas = ['Likes green tea.', 'Omar likes green tea.', 'He likes green tea.', 'Omar really likes green tea.'];
    for (const [i, text] of teas.entries()) await t.write('Omar', 'People/Friends', [{ text, type: 'preference', said: `2027-05-0${String(i + 1)}`, source: msg(11 + i) }]);
    await t.write('Omar', 'People/Friends', [
      { text: 'Reads poetry on Sundays.', type: 'preference', said: '2027-05-05', source: msg(15) },
      { text: 'Avoids spicy food.', type: 'preference', said: '2027-05-06', source: msg(16) },
    ]);
    const before = readFileSync(t.file('People/Friends/Omar.md'));
    const report = await t.reflection.run('p', 'all');
    expect(report).toMatchObject({ merged: 0, rejected: 1 });
    expect(report.rejections[0]).toContain('would drop 3 of 6 records');
    expect(Buffer.compare(readFileSync(t.file('People/Friends/Omar.md')), before)).toBe(0);
    expect(readFileSync(t.file('_log.md'), 'utf8')).toMatch(/^- \S+ rejected People\/Friends\/Omar\.md \(source: reflection\) — guard: it would drop 3 of 6 records \(more than 25 %\)$/m);
    expect(await t.pages.versions('p')).toEqual([]);
  });

  it('without a local memory model it says so and changes nothing', async () => {
    const t = await setup(null);
    await t.write('Omar', 'People/Friends', [{ text: 'Will call the bank.', type: 'commitment', due: '2027-05-02', said: '2027-05-01', source: msg(1) }]);
    const before = readFileSync(t.file('People/Friends/Omar.md'), 'utf8');
    t.clock.advance(30 * 86_400_000);
    const report = await t.reflection.run('p', 'all');
    expect(report.error).toMatch(/local memory model/);
    expect(await t.reflection.tick()).toEqual([]);
    expect(readFileSync(t.file('People/Friends/Omar.md'), 'utf8')).toBe(before);
    expect(readdirSync(join(t.projectsDir, 'p'))).not.toContain('.history');
  });

  it('runs by itself only once memory was written and has been quiet, at most every interval', async () => {
    const model = new ScriptedChatModel(() => ({ text: '{"duplicates":[],"rules":[],"contradictions":[]}' }));
    const t = await setup(model);
    await t.write('Omar', 'People/Friends', [{ text: 'Likes green tea.', type: 'preference', said: '2027-05-01', source: msg(1) }]);
    // the page was just written (file times are real): the clock goes to 10 minutes after that, not quiet yet
    t.clock.advance(Date.now() - t.clock.now().getTime() + 10 * 60_000);
    expect(await t.reflection.tick()).toEqual([]);
    t.clock.advance(30 * 60_000);
    const ran = await t.reflection.tick();
    expect(ran.map((r) => r.project)).toEqual(['p']);
    t.clock.advance(60 * 60_000);
    expect(await t.reflection.tick()).toEqual([]); // nothing written since
    expect(model.requests).toHaveLength(1);
  });
});
