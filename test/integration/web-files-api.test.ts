/**
 * Files into memory from the chat, over HTTP against a whole Charlie: a Markdown file and a
 * calendar go through the inbox's own ingestion (the file lands in `inbox/`, the memory lane files
 * its facts on a page, recall finds them), the chat is told what was learnt and where; a PDF, an
 * unknown kind, a file too big, an empty one and the private conversation are refused in plain words.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedServer, PORTO_PAGE } from '../support/live-settings-fixture.js';
import { projectFile, startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

const ICS = `BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:porto-1@example
DTSTAMP:20260601T090000Z
DTSTART:20260514T091000Z
SUMMARY:Porto trip: flight to Porto
LOCATION:Gate B7
END:VEVENT
END:VCALENDAR
`;

describe('files dropped on the chat', { timeout: 120_000 }, () => {
  let f: WebFixture;
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const send = (name: string, body: string | Uint8Array, project = 'home') =>
    fetch(`${f.web.url}/api/projects/${encodeURIComponent(project)}/files?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/octet-stream' },
      body,
    });
  const finish = async (id: string) => {
    for (let i = 0; i < 200; i++) {
      const job = (await (await fetch(`${f.web.url}/api/projects/home/files/${id}`, { headers: bearer })).json()) as { state: string; ok?: boolean; said?: string };
      if (job.state === 'done') return job;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the file was never read');
  };

  beforeAll(async () => {
    f = await startWebFixture({ files: { 'home/project.md': projectFile('home', 'web:home'), 'home/notes/Travel/Porto-trip.md': PORTO_PAGE }, script: namedServer('A') });
  }, 60_000);

  afterAll(async () => {
    await f.close();
  });

  it('reads a Markdown file and a calendar through the inbox, and says what was learnt and where', async () => {
    const md = await send('Porto notes.md', 'On the Porto trip we stay at the Casa Azul guesthouse, booked for 14 to 18 May.\n');
    expect(md.status).toBe(202);
    const first = await finish(((await md.json()) as { id: string }).id);
    expect(first).toEqual({
      state: 'done',
      ok: true,
      said: expect.stringMatching(/^Read Porto notes\.md into the memory of home: 1 new item, 1 fact written or refreshed on its pages \(Memory › Pages\)\./) as unknown,
    });
    const ics = await send('trip.ics', ICS);
    const second = await finish(((await ics.json()) as { id: string }).id);
    expect(second.said).toMatch(/^Read trip\.ics into the memory of home: 1 new item, 1 fact/);
    // the same ingestion as the inbox: the files are in inbox/ and recorded in its ledger
    expect(existsSync(join(f.projectsDir, 'home', 'inbox', 'Porto-notes.md'))).toBe(true);
    expect(existsSync(join(f.projectsDir, 'home', 'inbox', 'trip.ics'))).toBe(true);
    const page = readFileSync(join(f.projectsDir, 'home', 'notes', 'Travel', 'Porto-trip.md'), 'utf8');
    expect(page).toContain('Casa Azul');
    expect(page).toContain('flight to Porto');
    // and findable
    const hits = (await (await fetch(`${f.web.url}/api/projects/home/search?q=${encodeURIComponent('Casa Azul guesthouse')}`, { headers: bearer })).json()) as { hits: { page: string }[] };
    expect(hits.hits.map((h) => h.page)).toContain('notes/Travel/Porto-trip.md');
    // the same file again: nothing new
    expect((await finish(((await (await send('trip.ics', ICS)).json()) as { id: string }).id)).said).toBe('trip.ics was read before and has not changed, so there is nothing new to learn.');
  });

  it('refuses what it cannot read, in plain words', async () => {
    const error = async (res: Response) => ({ status: res.status, error: ((await res.json()) as { error: string }).error });
    expect(await error(await send('scan.pdf', '%PDF-1.7'))).toEqual({
      status: 415,
      error: 'scan.pdf is a PDF, which Charlie cannot read into memory yet. Save it as text (.txt) or Markdown and drop that instead.',
    });
    expect((await error(await send('photo.heic', 'x'))).error).toBe(
      'photo.heic is not a kind of file Charlie reads. It reads text (.txt), Markdown (.md), calendars (.ics), e-mails (.eml) and tables (.csv).',
    );
    expect(await error(await send('huge.csv', new Uint8Array(10_000_001)))).toEqual({
      status: 413,
      error: "huge.csv is 10.0 MB; Charlie reads files up to 10 MB from the chat. Put bigger ones into the project's inbox folder.",
    });
    expect((await error(await send('empty.txt', ''))).error).toBe('empty.txt is empty.');
    expect((await error(await send('notes.md', 'x', '@me'))).error).toContain('Your private conversation keeps no files');
    expect((await send('../escape.md', 'x')).status).toBe(400);
    expect((await fetch(`${f.web.url}/api/projects/home/files/nope`, { headers: bearer })).status).toBe(404);
  });
});
