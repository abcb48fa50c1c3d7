/**
 * The Memory Inspector's typed-record API through the real composition: hold and release, the
 * review queue, promotion candidates, editing a fact or a note page (a hand edit: manual,
 * confidence 1) and forgetting a fact with a tombstone — each checked on disk and in recall.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, DAVID, demoFiles, GLOBEX, WAITING, writeWaiting } from '../support/web-demo-data.js';
import { startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

let f: WebFixture;
const bearer = { authorization: `Bearer ${TOKEN}` };
const json = { ...bearer, 'content-type': 'application/json' };

interface Rec {
  id: string;
  kind: string;
  text: string;
  page: string | null;
  status: string;
  source: string;
  confidence?: number;
  effective?: number;
  holdable: boolean;
  editable: boolean;
  forgettable: boolean;
  blockId?: string;
}

beforeAll(async () => {
  f = await startWebFixture({ files: demoFiles(), script: () => ({ text: 'ok' }) });
  writeWaiting(f.dataDir);
}, 60_000);
afterAll(async () => f.close());

const url = (path: string) => `${f.web.url}/api/projects/trip${path}`;
const records = async () => ((await (await fetch(url('/records'), { headers: bearer })).json()) as { records: Rec[] }).records;
const fact = async (text: string) => (await records()).find((r) => r.kind === 'fact' && r.text.includes(text));
const sarah = () => readFileSync(join(f.projectsDir, 'trip', 'notes', 'People', 'Sarah-Chen.md'), 'utf8');
const search = async (q: string) => ((await (await fetch(url(`/search?q=${encodeURIComponent(q)}`), { headers: bearer })).json()) as { hits: { text: string }[] }).hits;

describe('inspector API: typed records', () => {
  it('gives typed records their effective confidence, and they can be held and released', async () => {
    const museum = await fact('tiles museum');
    expect(museum).toMatchObject({ holdable: true, editable: true, forgettable: true, confidence: 0.85 });
    // a preference said weeks ago has faded a little (half-life 180 days)
    expect(museum?.effective).toBeLessThan(0.85);
    expect(museum?.effective).toBeGreaterThan(0.5);
    const before = await search('flat options Friday');
    expect(before.some((h) => h.text.includes('Will send the flat options'))).toBe(true);

    const promise = await fact('flat options');
    const promiseLine = () =>
      sarah()
        .split('\n')
        .find((l) => l.includes('flat options'));
    const hold = await fetch(url(`/records/${encodeURIComponent(promise?.id ?? '')}/hold`), { method: 'POST', headers: bearer });
    expect(hold.status).toBe(200);
    expect(promiseLine()).toContain('[status:: held]');
    expect((await fact('flat options'))?.status).toBe('held');
    const after = await search('flat options Friday');
    expect(after.some((h) => h.text.includes('Will send the flat options'))).toBe(false);

    const release = await fetch(url(`/records/${encodeURIComponent(promise?.id ?? '')}/release`), { method: 'POST', headers: bearer });
    expect(release.status).toBe(200);
    expect(promiseLine()).not.toContain('[status::');
    // only typed records can be held
    const decision = (await records()).find((r) => r.kind === 'decision');
    expect((await fetch(url(`/records/${encodeURIComponent(decision?.id ?? '')}/hold`), { method: 'POST', headers: bearer })).status).toBe(400);
  });

  it('lists the review queue and resolves a pair: the loser is superseded on disk', async () => {
    const queue = (await (await fetch(url('/review'), { headers: bearer })).json()) as { pairs: { old: { id: string; statement: string }; new: { id: string; statement: string } }[] };
    expect(queue.pairs).toHaveLength(1);
    expect(queue.pairs[0]?.old).toMatchObject({ id: DAVID(ACME), statement: ACME });
    expect(queue.pairs[0]?.new).toMatchObject({ id: DAVID(GLOBEX), statement: GLOBEX });
    expect((await fetch(url(`/review/${DAVID(GLOBEX)}`), { method: 'POST', headers: json, body: JSON.stringify({ choice: 'maybe' }) })).status).toBe(400);
    const res = await fetch(url(`/review/${DAVID(GLOBEX)}`), { method: 'POST', headers: json, body: JSON.stringify({ choice: 'keep-new' }) });
    expect(res.status).toBe(200);
    const page = readFileSync(join(f.projectsDir, 'trip', 'notes', 'People', 'David-Kim.md'), 'utf8').split('\n');
    expect(page.find((l) => l.includes(ACME))).toMatch(/\[status:: superseded\] .*\[superseded:: \d{4}-\d{2}-\d{2}\]/);
    expect(page.find((l) => l.includes(GLOBEX))).not.toContain('[status::');
    expect(readFileSync(join(f.projectsDir, 'trip', 'review.md'), 'utf8')).toContain('Nothing is in review.');
    // no such record
    expect((await fetch(url('/review/r-000000'), { method: 'POST', headers: json, body: JSON.stringify({ choice: 'keep-old' }) })).status).toBe(409);
  });

  it('lists promotion candidates with their score and promotes one into the page', async () => {
    const list = (await (await fetch(url('/candidates'), { headers: bearer })).json()) as { candidates: { key: string; text: string; score: number; entity: string }[] };
    expect(list.candidates).toEqual([expect.objectContaining({ key: WAITING.key, text: WAITING.fact.text, score: WAITING.score, entity: 'Sarah Chen' })]);
    const res = await fetch(url(`/candidates/${WAITING.key}/promote`), { method: 'POST', headers: bearer });
    expect(res.status).toBe(200);
    expect(sarah()).toContain(WAITING.fact.text);
    const again = (await (await fetch(url('/candidates'), { headers: bearer })).json()) as { candidates: unknown[] };
    expect(again.candidates).toEqual([]);
    expect((await fetch(url(`/candidates/${WAITING.key}/promote`), { method: 'POST', headers: bearer })).status).toBe(409);
  });

  it('edits a fact: a hand edit, manual with confidence 1, the rest of the line kept', async () => {
    const museum = await fact('tiles museum');
    const res = await fetch(url(`/records/${encodeURIComponent(museum?.id ?? '')}`), {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ text: 'Wants to see the tiles museum and the [type:: rule] tram.' }),
    });
    expect(res.status).toBe(200);
    const line = sarah()
      .split('\n')
      .find((l) => l.includes('tram'));
    expect(line).toContain('[type:: preference]');
    expect(line).toContain('[via:: manual]');
    expect(line).toContain('[confidence:: 1]');
    expect(line).toContain('[source:: [msg](https://discord.com/channels/1/2/5)]');
    // a typed statement cannot forge a field
    expect(line).not.toContain('[type:: rule]');
    const edited = await fact('tram');
    expect(edited).toMatchObject({ source: 'manual', confidence: 1, id: museum?.id });
    // the record's history (/memory why) has the hand edit, without its text
    const log = readFileSync(join(f.projectsDir, 'trip', 'notes', '_log.md'), 'utf8');
    expect(log).toContain(`edited People/Sarah-Chen.md#^${museum?.blockId as string} (source: hand edit)`);
    expect(log).not.toContain('tram');
    // and the web shows the same chain as /memory why
    const why = (await (await fetch(url(`/why?id=${museum?.blockId as string}`), { headers: bearer })).json()) as { chains: { steps: { kind: string }[] }[] };
    expect(why.chains[0]?.steps.map((s) => s.kind)).toContain('edited');
    expect((await fetch(url('/why'), { headers: bearer })).status).toBe(400);
  });

  it('edits a note page: its text replaced, front matter says a person wrote it', async () => {
    const note = (await records()).find((r) => r.kind === 'note' && r.page === 'notes/Places/Lisbon.md');
    expect(note?.editable).toBe(true);
    const res = await fetch(url(`/records/${encodeURIComponent(note?.id ?? '')}`), {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ text: '### 2026-11-30\n\nThe March trip. Flat in Graça.\n\n## Related\n- [[People/Sarah-Chen]] (visitor)' }),
    });
    expect(res.status).toBe(200);
    const page = readFileSync(join(f.projectsDir, 'trip', 'notes', 'Places', 'Lisbon.md'), 'utf8');
    expect(page).toMatch(/^---\n[\s\S]*title: Lisbon[\s\S]*- manual\nconfidence: 1\n[\s\S]*\n---\n\n### 2026-11-30\n\nThe March trip. Flat in Graça.\n/);
    expect(page).not.toContain('Alfama');
  });

  it('forgets a fact with a tombstone, as /memory forget does', async () => {
    // /memory forget (Discord autocomplete, the terminal) names typed records too
    const items = await f.app.assistant.memory.forgettable({ kind: 'project', origin: { name: 'trip', key: 'web:trip' } });
    expect(items).toContainEqual({ label: 'record Sarah Chen: Will send the flat options by Friday.', target: { kind: 'record', path: 'People/Sarah-Chen.md', id: 'r-88d0' } });
    const promise = await fact('flat options');
    const res = await fetch(url(`/records/${encodeURIComponent(promise?.id ?? '')}`), { method: 'DELETE', headers: bearer });
    expect(res.status).toBe(200);
    expect(sarah()).not.toContain('flat options');
    const tombstones = readFileSync(join(f.projectsDir, 'trip', 'forgotten.md'), 'utf8');
    expect(tombstones).toMatch(/· record · record r-88d0 of People\/Sarah-Chen\.md · by \S+ · `fp:[0-9a-f]+`/);
    expect(tombstones).not.toContain('flat options');
    expect((await fetch(url(`/records/${encodeURIComponent(promise?.id ?? '')}`), { method: 'DELETE', headers: bearer })).status).toBe(409);
  });

  it('answers 400, not 500, for a record id naming a path outside the project', async () => {
    for (const id of ['note:../../../etc/passwd', 'fact:../../../etc/passwd:r-1234', 'note:/etc/passwd']) {
      const res = await fetch(url(`/records/${encodeURIComponent(id)}`), { method: 'DELETE', headers: bearer });
      expect([400, 409], id).toContain(res.status);
      expect(res.status, id).not.toBe(500);
    }
  });

  it('lists the kept versions of a page and restores one; refuses without a token and outside notes/', async () => {
    const kept = join(f.projectsDir, 'trip', '.history', 'notes', 'Places');
    mkdirSync(kept, { recursive: true });
    const old = '---\ntitle: Lisbon\n---\n\nAn older Lisbon page.\n';
    writeFileSync(join(kept, 'Lisbon.2026-11-10T09-00-00.000Z.md'), old);
    const restore = (body: unknown, headers: Record<string, string> = json) => fetch(url('/restore'), { method: 'POST', headers, body: JSON.stringify(body) });
    expect((await fetch(url('/versions?page=notes/Places/Lisbon.md'))).status).toBe(401);
    const before = readFileSync(join(f.projectsDir, 'trip', 'notes', 'Places', 'Lisbon.md'), 'utf8');
    expect([401, 403]).toContain((await restore({ page: 'Places/Lisbon.md', version: '2026-11-10T09-00-00.000Z' }, { 'content-type': 'application/json' })).status);
    expect(readFileSync(join(f.projectsDir, 'trip', 'notes', 'Places', 'Lisbon.md'), 'utf8')).toBe(before);
    const listed = (await (await fetch(url('/versions?page=notes/Places/Lisbon.md'), { headers: bearer })).json()) as { versions: { page: string; version: string }[] };
    expect(listed.versions.map((v) => [v.page, v.version])).toEqual([['Places/Lisbon.md', '2026-11-10T09-00-00.000Z']]);
    const escape = await restore({ page: '../../../etc/passwd', version: '2026-11-10T09-00-00.000Z' });
    expect(escape.status).toBe(404);
    expect(((await escape.json()) as { error: string }).error).toContain('not a page name');
    expect((await restore({})).status).toBe(400);
    const res = await restore({ page: 'Places/Lisbon.md', version: '2026-11-10T09-00-00.000Z' });
    expect(await res.json()).toEqual({ ok: true, page: 'Places/Lisbon.md', version: '2026-11-10T09-00-00.000Z' });
    expect(readFileSync(join(f.projectsDir, 'trip', 'notes', 'Places', 'Lisbon.md'), 'utf8')).toBe(old);
  });
});

describe('inspector API: your private memory', () => {
  it('lists the typed records of your private conversation (private.db), which can be held but have no page', async () => {
    f.app.privateStore.records.write('web-owner', {
      origin: 'test',
      links: [],
      entities: [{ name: 'Dentist', create: true, facts: [{ text: 'Has a dentist appointment on the 3rd.', type: 'commitment', said: '2026-11-20', source: 'dm:1' }] }],
    });
    const list = ((await (await fetch(`${f.web.url}/api/projects/%40me/records`, { headers: bearer })).json()) as { records: Rec[] }).records;
    const mine = list.find((r) => r.kind === 'fact');
    expect(mine).toMatchObject({ text: 'Has a dentist appointment on the 3rd.', page: null, holdable: true, editable: false, forgettable: false, status: 'active' });
    const hold = await fetch(`${f.web.url}/api/projects/%40me/records/${encodeURIComponent(mine?.id ?? '')}/hold`, { method: 'POST', headers: bearer });
    expect(hold.status).toBe(200);
    expect(f.app.privateStore.records.list('web-owner', new Date()).map((r) => r.status)).toEqual(['held']);
    // nothing of it reached Markdown
    expect(readFileSync(join(f.projectsDir, 'trip', 'notes', 'People', 'Sarah-Chen.md'), 'utf8')).not.toContain('dentist');
  });
});
