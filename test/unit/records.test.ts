import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyToPage, type PagePlan } from '../../src/memory/graph/graph-write.js';
import { parseFactLine, renderFact, setField } from '../../src/memory/markdown/lines.js';
import { blockIdFor } from '../../src/core/records/block-id.js';
import { readPage } from '../../src/memory/graph/page.js';
import { readRecord, recordsOf } from '../../src/memory/records/record.js';

const PAGE = 'People/Sarah-Chen.md';
const personal = { sensitivity: 'personal' as const };

function fact(line: string) {
  const f = parseFactLine(line, 1);
  if (!f) throw new Error(`not a fact line: ${line}`);
  return f;
}

function plan(facts: PagePlan['facts']): PagePlan {
  return { path: PAGE, isNew: true, title: 'Sarah Chen', category: 'People', aliases: ['Sarah'], description: 'Leads design.', staleness: 3, facts, links: [] };
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
}

describe('typed records', () => {
  it('reads every field written, and keeps said apart from happened', () => {
    const line = renderFact(PAGE, {
      text: 'Ran the Berlin marathon.',
      type: 'episode',
      happened: '2026-04-12',
      confidence: 0.7,
      sensitivity: 'sensitive/phi',
      status: 'review',
      said: '2026-06-20',
      source: 'voice:2026-06-20T10:00',
    });
    const r = readRecord(PAGE, fact(line), personal);
    expect(r).toMatchObject({
      statement: 'Ran the Berlin marathon.',
      category: 'episode',
      happened: '2026-04-12',
      said: '2026-06-20',
      confidence: 0.7,
      sensitivity: 'sensitive',
      sensitiveKind: 'phi',
      status: 'review',
      provenance: { kind: 'voice', source: 'voice:2026-06-20T10:00' },
      handEdited: false,
    });
    expect(r.id).toMatch(/^r-[0-9a-f]{6}$/);
  });

  it('fills what a line leaves out with defaults: a graph-era line reads as before', () => {
    const r = readRecord(PAGE, fact('- Leads the design team. [type:: identity] [said:: 2026-06-20] [source:: [msg](https://discord.com/channels/1/2/3)]'), {
      sensitivity: 'sensitive',
      kind: 'financial',
    });
    expect(r).toMatchObject({
      category: 'identity',
      confidence: 1,
      status: 'active',
      sensitivity: 'sensitive',
      sensitiveKind: 'financial',
      provenance: { kind: 'manual', source: 'https://discord.com/channels/1/2/3' },
      due: '',
      happened: '',
      id: '',
    });
    const id = (text: string) => ` ^${blockIdFor(PAGE, text)}`;
    expect(readRecord(PAGE, fact(`- Likes tea. [type:: mood] [status:: bogus] [confidence:: 7] [source:: inbox/a.csv]${id('Likes tea.')}`), personal)).toMatchObject({
      category: '',
      status: 'active',
      confidence: 1,
      provenance: { kind: 'ingest' },
    });
    expect(readRecord(PAGE, fact(`- Likes tea. [confidence:: 0.25] [via:: reflection] [source:: x]${id('Likes tea.')}`), personal)).toMatchObject({
      confidence: 0.25,
      provenance: { kind: 'reflection' },
    });
  });

  it('a statement changed by hand reads as manual with confidence 1; a field changed by hand does not', () => {
    const line = renderFact(PAGE, { text: 'Works at Acme.', type: 'identity', confidence: 0.6, said: '2026-06-20', source: 'https://discord.com/channels/1/2/3' });
    expect(readRecord(PAGE, fact(line), personal)).toMatchObject({ confidence: 0.6, handEdited: false, provenance: { kind: 'chat' } });
    const edited = line.replace('Works at Acme.', 'Works at Acme Corp.');
    expect(readRecord(PAGE, fact(edited), personal)).toMatchObject({ statement: 'Works at Acme Corp.', confidence: 1, handEdited: true, provenance: { kind: 'manual' } });
    const held = setField(line, 'status', 'held');
    expect(readRecord(PAGE, fact(held), personal)).toMatchObject({ status: 'held', handEdited: false, confidence: 0.6 });
  });

  it('setField changes one field and nothing else', () => {
    const line = '- Will send the mock-ups. [type:: commitment]  [source:: [msg](https://x/[1])] [due:: 2026-06-26] ^r-88d0';
    expect(setField(line, 'due', '2026-07-01')).toBe('- Will send the mock-ups. [type:: commitment]  [source:: [msg](https://x/[1])] [due:: 2026-07-01] ^r-88d0');
    expect(setField(line, 'status', 'held')).toBe(`${line.slice(0, -8)} [status:: held] ^r-88d0`);
    expect(setField(line, 'source', null)).toBe('- Will send the mock-ups. [type:: commitment] [due:: 2026-06-26] ^r-88d0');
    expect(setField('- Plain fact.', 'status', 'held')).toBe('- Plain fact. [status:: held]');
  });

  it('round-trips the fixture pages byte for byte: setting each field to its own value changes nothing', () => {
    const root = join(import.meta.dirname, '../fixtures');
    let checked = 0;
    for (const file of walk(root)) {
      const text = readFileSync(file, 'utf8');
      const page = readPage(text, 'x.md', file);
      if (page.ok && /[/\\](notes|records)[/\\]/.test(file))
        expect(
          applyToPage(text, { ...plan([]), path: 'x.md', isNew: false, aliases: [] }, '2026-12-01', () => null),
          file,
        ).toBeNull();
      for (const [i, raw] of text.split('\n').entries()) {
        const f = parseFactLine(raw, i + 1);
        if (!f) continue;
        for (const { key, value } of f.fields) {
          expect(setField(raw, key, value), `${file}:${i + 1}`).toBe(raw.replace(new RegExp(`\\[${key}::[ \\t]*`), `[${key}:: `));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
    const sarah = readPage(readFileSync(join(root, 'records/People/Sarah-Chen.md'), 'utf8'), 'People/Sarah-Chen.md', 'x');
    if (!sarah.ok) throw new Error('fixture unreadable');
    // ids there were typed by hand (not hashes of the statements): those records read as manual
    expect(recordsOf(sarah.page).map((r) => [r.category, r.status, r.provenance.kind, r.confidence, r.happened])).toEqual([
      ['identity', 'active', 'manual', 1, ''],
      ['preference', 'active', 'manual', 1, ''],
      ['commitment', 'active', 'manual', 1, ''],
      ['episode', 'active', 'manual', 1, '2026-04-12'],
      ['identity', 'superseded', 'manual', 1, ''],
      ['', 'active', 'manual', 1, ''],
    ]);
  });

  it('a page the graph wrote round-trips: nothing new leaves it alone, a restatement touches one line', () => {
    const facts = [
      { text: 'Works at Acme.', type: 'identity', said: '2026-06-20', source: 'https://discord.com/channels/1/2/3' },
      { text: 'Prefers async updates.', type: 'preference', said: '2026-06-20', source: 'voice:2026-06-20T10:00' },
    ];
    const first = applyToPage(null, plan(facts), '2026-06-20', () => null);
    if (!first) throw new Error('no page');
    expect(applyToPage(first.content, { ...plan(facts), isNew: false }, '2026-06-21', () => null)).toBeNull();
    const page = readPage(first.content, PAGE, PAGE);
    if (!page.ok) throw new Error('unreadable');
    const records = recordsOf(page.page);
    expect(records.map((r) => [r.category, r.provenance.kind, r.handEdited])).toEqual([
      ['identity', 'chat', false],
      ['preference', 'voice', false],
    ]);
    const withConfidence = first.content.replace('[type:: identity]', '[type:: identity] [confidence:: 0.4]');
    const again = applyToPage(withConfidence, { ...plan([{ ...facts[0]!, said: '2026-07-01' }]), isNew: false }, '2026-07-01', () => null);
    if (!again) throw new Error('not refreshed');
    const before = withConfidence.split('\n');
    const after = again.content.split('\n');
    const changed = after.filter((l, i) => l !== before[i]);
    expect(changed.filter((l) => !l.startsWith('updated:'))).toEqual([expect.stringContaining('[confidence:: 1] [said:: 2026-07-01]')]);
  });
});
