/**
 * Lines written by hand into a page get the memory lane's word (fourth outside sweep): "Cosmo
 * picked up hep C from sharing needles years ago", a wording the rules table does not know, on a
 * hand-written page, reached hosted MCP clients and the hosted chat model with an honest local lane
 * running, because the lane only judged people's messages. Now a line the lane names carries
 * `[sensitivity:: sensitive/phi]` in the file, which every reader honours (here: the index's
 * chunks, so the hosted embedder gives it no vector); ordinary and Charlie's own lines are left
 * alone, and nothing is asked twice.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger, type ChatRequest } from '../../src/core/ports/index.js';
import { textPrecheck } from '../../src/core/turn/precheck.js';
import { HandLabels } from '../../src/memory/graph/hand-labels.js';
import { chunkPage } from '../../src/memory/index/chunker.js';
import { ScriptedChatModel } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-hand-labels-');
const SETTINGS = { mode: 'auto' as const, timeoutMs: 2000, hostedElsewhere: () => false };
const PAGE = `---
title: Cosmo
---

Cosmo is Root's cousin.

## Facts
- Cosmo picked up hep C from sharing needles years ago. [type:: fact] [source:: manual]
- Cosmo's probation officer is Ms Ndiaye at the Corby office.
- Cosmo plays bass in a covers band called Quillfeather. [type:: fact] [source:: manual]
- Cosmo mentioned the sharing needles story at dinner. [type:: fact] [said:: 2026-12-01] [source:: terminal:family#3] ^r-1a2b
`;

/** An honest verdict: names the hep C line. */
function honestReply(req: ChatRequest) {
  const text = String(req.messages.at(-1)?.content ?? '');
  const named = [...text.matchAll(/^\[(\d+)\] (.*)$/gm)].filter((m) => /hep C/.test(m[2]!)).map((m) => ({ message: Number(m[1]), kind: 'phi' }));
  return { text: JSON.stringify({ sensitive: named }) };
}

/** A lane that names, as financial, each item holding one of `flagged`. */
function flaggingLane(flagged: readonly string[]) {
  return new ScriptedChatModel((req: ChatRequest) => {
    const text = String(req.messages.at(-1)?.content ?? '');
    const named = [...text.matchAll(/^\[(\d+)\] (.*)$/gm)].filter((m) => flagged.some((f) => m[2]!.includes(f))).map((m) => ({ message: Number(m[1]), kind: 'financial' }));
    return { text: JSON.stringify({ sensitive: named }) };
  });
}

function honestLane() {
  return new ScriptedChatModel(honestReply);
}

function setUp(lane: ScriptedChatModel, chat: 'local' | 'hosted' = 'hosted') {
  const root = tmp();
  const projectsDir = join(root, 'projects');
  mkdirSync(join(projectsDir, 'family', 'notes', 'People'), { recursive: true });
  const path = join(projectsDir, 'family', 'notes', 'People', 'Cosmo.md');
  writeFileSync(path, PAGE);
  const ledgerPath = join(root, 'data-hand-lines.json');
  const hand = () => new HandLabels({ projectsDir, ledgerPath, precheck: textPrecheck(lane, SETTINGS, () => chat), logger: silentLogger });
  return { path, ledgerPath, hand };
}

describe('hand-written lines are judged by the memory lane', () => {
  it('a line only the lane calls sensitive is labelled in the file, and the index reads it so; others are left as written', async () => {
    const lane = honestLane();
    const { path, ledgerPath, hand } = setUp(lane);
    expect(await hand().scan('family', ['notes/People/Cosmo.md'])).toBe(1);
    const after = readFileSync(path, 'utf8');
    expect(after).toContain('- Cosmo picked up hep C from sharing needles years ago. [type:: fact] [source:: manual] [sensitivity:: sensitive/phi]');
    // the rules' own line, the ordinary lines and Charlie's own line are as they were
    expect(after.replace(' [sensitivity:: sensitive/phi]', '')).toBe(PAGE);
    // asked once: the lines the rules let pass that a person wrote (not the probation line, not Charlie's)
    expect(lane.requests).toHaveLength(1);
    expect(String(lane.requests[0]!.messages[1]!.content)).toBe(
      "New items:\n[1] Cosmo is Root's cousin.\n[2] Facts\n[3] Cosmo picked up hep C from sharing needles years ago.\n[4] Cosmo plays bass in a covers band called Quillfeather.\n[5] Cosmo",
    );
    // the index: the line's chunk is now sensitive (no hosted vector); before, it was not (without the probation line beside it)
    const only = (page: string) =>
      page
        .split('\n')
        .filter((l) => !/probation|Quillfeather|Charlie|terminal:/.test(l))
        .join('\n');
    const hep = (page: string) => chunkPage('People/Cosmo', only(page)).find((c) => c.text.includes('hep C'))?.sensitivity;
    expect(hep(PAGE)).not.toBe('sensitive');
    expect(hep(after)).toBe('sensitive');
    // a restart asks nothing again: ordinary lines are remembered (privately), the labelled one carries its label
    expect(statSync(ledgerPath).mode & 0o777).toBe(0o600);
    expect(await hand().scanAll()).toBe(0);
    expect(lane.requests).toHaveLength(1);
  });

  it('fails closed when the lane gives no verdict, provisionally: the next scan asks again and the label comes off what the lane lets pass; the lane is not asked when nothing is hosted', async () => {
    let answers = false;
    const lane = new ScriptedChatModel((req: ChatRequest) => (answers ? honestReply(req) : { text: 'nothing sensitive here' }));
    const broken = setUp(lane);
    await broken.hand().scan('family');
    const after = readFileSync(broken.path, 'utf8');
    // three lines, the heading, and the title (in the front matter)
    expect(after.match(/\[sensitivity:: sensitive\/unjudged\]/g)).toHaveLength(4);
    expect(after).toContain('sensitivity: sensitive/unjudged\n---');
    expect(existsSync(broken.ledgerPath) ? JSON.parse(readFileSync(broken.ledgerPath, 'utf8')) : []).toEqual([]);
    // every reader honours the provisional label meanwhile (the index's chunk of the hep C line is sensitive)
    expect(chunkPage('People/Cosmo', after).every((c) => !c.text.includes('hep C') || c.sensitivity === 'sensitive')).toBe(true);
    // the lane answers at the next scan (the next start): the page is back as written, the lane's one label added
    answers = true;
    expect(await broken.hand().scanAll()).toBe(5);
    expect(String(lane.requests[1]!.messages[1]!.content)).toContain('[3] Cosmo picked up hep C from sharing needles years ago.');
    expect(readFileSync(broken.path, 'utf8')).toBe(PAGE.replace("[source:: manual]\n- Cosmo's probation", "[source:: manual] [sensitivity:: sensitive/phi]\n- Cosmo's probation"));
    const quiet = honestLane();
    const local = setUp(quiet, 'local');
    expect(await local.hand().scan('family')).toBe(0);
    expect(quiet.requests).toHaveLength(0);
    expect(readFileSync(local.path, 'utf8')).toBe(PAGE);
  });

  it('headings, the page title and lines with a source a person typed are judged too, and the index reads what they say (fifth outside sweep)', async () => {
    const lane = flaggingLane(['IVA paperwork', 'the long years', 'moved out in May']);
    const root = tmp();
    const projectsDir = join(root, 'projects');
    mkdirSync(join(projectsDir, 'family', 'notes', 'People'), { recursive: true });
    const page = `Dexter keeps the letters in the blue folder.

## Linus and the long years
### Since then
- Goes to the Tuesday group now.
- Oriel's sister says she moved out in May. [source:: her sister]
- Oriel moved to the flat by the river. [type:: fact] [said:: 2026-12-01] [source:: terminal:family#9] ^r-9c8d
`;
    const path = join(projectsDir, 'family', 'notes', 'People', 'Dexter-IVA-paperwork.md');
    writeFileSync(path, page);
    const hand = new HandLabels({ projectsDir, ledgerPath: join(root, 'ledger.json'), precheck: textPrecheck(lane, SETTINGS, () => 'hosted'), logger: silentLogger });
    // before: the rules see nothing, and only the section's own lines decide its chunks
    expect(chunkPage('notes/People/Dexter-IVA-paperwork.md', page).some((c) => c.sensitivity === 'sensitive')).toBe(false);
    await hand.scan('family');
    const asked = String(lane.requests[0]!.messages[1]!.content);
    // Charlie's own record (block id and said day) is not asked about; the title is
    expect(asked).not.toContain('flat by the river');
    expect(asked).toContain('Dexter IVA paperwork');
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith('---\nsensitivity: sensitive/financial\n---\n')).toBe(true);
    expect(after).toContain('## Linus and the long years [sensitivity:: sensitive/financial]');
    expect(after).toContain('[source:: her sister] [sensitivity:: sensitive/financial]');
    // the page's title says it: every chunk of the page is sensitive (no hosted vector, no breadcrumb to a hosted reader)
    expect(chunkPage('notes/People/Dexter-IVA-paperwork.md', after).every((c) => c.sensitivity === 'sensitive')).toBe(true);
    // a heading alone: the sections under it (a deeper one too) carry it in their breadcrumb, so they are sensitive
    const headingOnly = after.replace(/^---\n[\s\S]*?---\n/, '');
    const chunks = chunkPage('notes/People/Dexter.md', headingOnly);
    expect(chunks.find((c) => c.text.includes('Tuesday group'))?.sensitivity).toBe('sensitive');
    expect(chunks.find((c) => c.text.includes('blue folder'))?.sensitivity).not.toBe('sensitive');
  });

  it('the layer files, a title the rules label, a file name under another title and a record edited in the web app are judged too (sixth outside sweep)', async () => {
    const lane = flaggingLane(['horses again', 'stomach pumped', 'bookie slips', 'signed the DRO']);
    const root = tmp();
    const projectsDir = join(root, 'projects');
    const dir = join(projectsDir, 'family');
    mkdirSync(join(dir, 'notes', 'Things'), { recursive: true });
    mkdirSync(join(dir, 'notes', 'People'), { recursive: true });
    writeFileSync(join(dir, 'project.md'), '---\nname: family\n---\n\nThe family plans the summer.\nDad lost the house deposit on the horses again.\n');
    writeFileSync(
      join(dir, 'decisions.md'),
      '# Decisions\n\n- **2026-12-01** — Ravi signed the DRO at the council ([source](terminal:family#4))\n- **2026-12-02** — Paint the shed green ([source](terminal:family#5))\n',
    );
    writeFileSync(join(dir, 'quotes.md'), '# Quotes\n\n> "Never again at the bookies, the horses again took it all."\n> — Dad, 2026-12-01 ([source](terminal:family#6))\n');
    // the rules label this title; the file name says it under another title; the lane names the file name
    writeFileSync(join(dir, 'notes', 'Things', "Morwenna's probation reports.md"), '---\ntitle: "Morwenna\'s probation reports"\n---\n\nThe folder is in the hall.\n');
    writeFileSync(join(dir, 'notes', 'Things', 'Gareth bookie slips.md'), '---\ntitle: Invoices\n---\n\nKept in the blue box.\n');
    // a tag is shown with the page (read_note's header): a name of it too
    writeFileSync(join(dir, 'notes', 'Things', 'Shoebox.md'), '---\ntitle: Shoebox\ntags: [receipts, bookie-slips]\n---\n\nUnder the stairs.\n');
    // a record edited in the web app keeps its said day and source, and says who wrote it now
    const morwenna = join(dir, 'notes', 'People', 'Morwenna.md');
    writeFileSync(morwenna, '- Morwenna had to have her stomach pumped in April. [type:: fact] [said:: 2026-12-01] [source:: web:family#2] [via:: manual] ^r-6b6b6b\n');
    const hand = new HandLabels({ projectsDir, ledgerPath: join(root, 'ledger.json'), precheck: textPrecheck(lane, SETTINGS, () => 'hosted'), logger: silentLogger });
    await hand.scan('family');
    const asked = lane.requests.map((r) => String(r.messages[1]!.content)).join('\n');
    // a quote's attribution line is a name and a date: not asked; a quote is asked about without its quotation marks
    expect(asked).not.toContain('Dad, 2026-12-01');
    expect(asked).toMatch(/(^|\n|\] )Never again at the bookies, the horses again took it all\.(\n|$)/);
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    expect(read('project.md')).toContain('Dad lost the house deposit on the horses again. [sensitivity:: sensitive/financial]');
    expect(read('project.md')).toContain('The family plans the summer.\n');
    // the label goes before the source link, which the decisions' reader still finds
    expect(read('decisions.md')).toContain('Ravi signed the DRO at the council [sensitivity:: sensitive/financial] ([source](terminal:family#4))');
    const { parseDecisions, parseQuotes } = await import('../../src/memory/store/layers-format.js');
    expect(parseDecisions(read('decisions.md'), 'decisions.md').decisions[0]).toMatchObject({ source: 'terminal:family#4' });
    expect(parseQuotes(read('quotes.md'), 'quotes.md').quotes[0]!.text).toContain('[sensitivity:: sensitive/financial]');
    expect(read("notes/Things/Morwenna's probation reports.md")).toMatch(/^---\ntitle: .*\nsensitivity: sensitive\n---\n/);
    expect(read('notes/Things/Gareth bookie slips.md')).toMatch(/^---\ntitle: Invoices\nsensitivity: sensitive\/financial\n---\n/);
    expect(read('notes/Things/Shoebox.md')).toContain('sensitivity: sensitive/financial');
    expect(read('notes/People/Morwenna.md')).toContain('[via:: manual] [sensitivity:: sensitive/financial] ^r-6b6b6b');
    // nothing is asked twice
    const before = lane.requests.length;
    await hand.scan('family');
    expect(lane.requests).toHaveLength(before);
  });
});

describe('records written before a record took its message label (seventh outside sweep, P1)', () => {
  it('a record Charlie wrote gets the label of the message it cites, once a project, and in a page that changes', async () => {
    const { formatLogEntry, logFileHeading } = await import('../../src/memory/archive-format.js');
    const root = tmp();
    const projectsDir = join(root, 'projects');
    const dir = join(projectsDir, 'family');
    mkdirSync(join(dir, 'log'), { recursive: true });
    mkdirSync(join(dir, 'notes', 'People'), { recursive: true });
    // the archive: the message was labelled when it was archived (the precheck); its words are nothing the rules know
    const said = (n: number, text: string, sensitivity?: 'sensitive') =>
      formatLogEntry({ time: `2026-11-20T10:0${n}:00Z`, speaker: 'Ann', role: 'user', source: `terminal:family#${n}`, text, ...(sensitivity ? { sensitivity, kind: 'phi' as const } : {}) });
    writeFileSync(join(dir, 'log', '2026-11-20.md'), logFileHeading('2026-11-20.md') + said(1, 'Rowan has been gouching on the sofa by noon.', 'sensitive') + said(2, 'Rowan likes climbing.'));
    const page = (extra = '') =>
      `---\nschema: 2\ntitle: Rowan\n---\n\n## Facts\n- Rowan uses again. [type:: fact] [said:: 2026-11-20] [source:: terminal:family#1] ^r-1a1a\n- Rowan likes climbing. [type:: fact] [said:: 2026-11-20] [source:: terminal:family#2] ^r-2b2b\n${extra}`;
    const path = join(dir, 'notes', 'People', 'Rowan.md');
    writeFileSync(path, page());
    const lane = new ScriptedChatModel(() => ({ text: '{"sensitive":[]}' }));
    const hand = () => new HandLabels({ projectsDir, ledgerPath: join(root, 'data', 'hand-lines.json'), precheck: textPrecheck(lane, SETTINGS, () => 'hosted'), logger: silentLogger });
    mkdirSync(join(root, 'data'), { recursive: true });
    expect(await hand().scanAll()).toBe(1);
    const after = readFileSync(path, 'utf8');
    expect(after).toContain('[source:: terminal:family#1] [sensitivity:: sensitive/phi] ^r-1a1a');
    expect(after).toContain('[source:: terminal:family#2] ^r-2b2b');
    expect(JSON.parse(readFileSync(join(root, 'data', 'record-labels.json'), 'utf8'))).toEqual(['family']);
    // checked once: neither a start after it nor a page that changes looks again (no day file read per change)
    writeFileSync(path, page());
    expect(await hand().scanAll()).toBe(0);
    expect(await hand().scan('family', ['notes/People/Rowan.md'])).toBe(0);
    // a project not checked yet is checked at its first page change too
    rmSync(join(root, 'data', 'record-labels.json'));
    expect(await hand().scan('family', ['notes/People/Rowan.md'])).toBe(1);
    expect(readFileSync(path, 'utf8')).toContain('[sensitivity:: sensitive/phi] ^r-1a1a');
  });
});
