import { appendFile, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestItems } from '../../src/core/writing/ingest.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { Inbox } from '../../src/memory/ingest/inbox.js';
import { IngestService } from '../../src/memory/ingest/ingest-service.js';
import { parseSource } from '../../src/memory/ingest/parsers.js';
import { tinyPdf } from '../support/tiny-pdf.js';
import { isSensitive, sensitivityOfText } from '../../src/core/privacy/sensitivity.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';

const fixtures = join(import.meta.dirname, '../fixtures/inbox');
let root: string;
let inbox: string;
let wiki: Wiki;
let model: ScriptedChatModel;
let scan: () => ReturnType<Inbox['scan']>;

const NEW_EVENT = `BEGIN:VEVENT
UID:dinner-1@example
DTSTAMP:20260601T090000Z
DTSTART:20260514T190000Z
SUMMARY:Dinner with Sarah
LOCATION:Lisbon
END:VEVENT
END:VCALENDAR
`;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-inbox-'));
  inbox = join(root, 'home', 'inbox');
  await mkdir(inbox, { recursive: true });
  const clock = new FixedClock(new Date('2026-06-02T10:00:00Z'));
  wiki = new Wiki({ projectsDir: root, clock, logger: silentLogger });
  // the memory lane: one fact about the trip per item it is sent
  model = new ScriptedChatModel((req) => {
    const items = String(req.messages[1]?.content ?? '')
      .split('\n')
      .filter((l) => /^\[\d+\]/.test(l));
    return {
      text: JSON.stringify({
        entities: [{ name: 'Lisbon trip', category: 'Travel', new: true, staleness: 6 }],
        facts: items.map((l, i) => ({ entity: 'Lisbon trip', text: l.replace(/^\[\d+\]\s*/, '').slice(0, 80), message: i + 1 })),
        links: [],
      }),
    };
  });
  const box = new Inbox({ projectsDir: root, log: wiki, logger: silentLogger });
  const graph = {
    taxonomy: () => wiki.taxonomy('home'),
    pageMap: (r: Parameters<Wiki['pageMap']>[1]) => wiki.pageMap('home', r),
    write: (w: Parameters<Wiki['write']>[1]) => wiki.write('home', w),
    related: async () => [],
  };
  scan = () => box.scan('home', (_p, source, items) => ingestItems(source, items, { model, graph, logger: silentLogger, now: clock.now() }));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the inbox', () => {
  it('ingests an .ics once; the same file again makes no model call; one appended event sends one item', async () => {
    await copyFile(join(fixtures, 'trip.ics'), join(inbox, 'trip.ics'));
    expect(await scan()).toEqual([{ source: 'inbox/trip.ics', outcome: 'ingested', items: 2, facts: 2 }]);
    expect(model.requests).toHaveLength(1);
    const page = await readFile(join(root, 'home/notes/Travel/Lisbon-trip.md'), 'utf8');
    expect(page).toMatch(/Event: Flight to Lisbon; starts 2026-05-12T07:00:00Z.*\[source:: inbox\/trip\.ics#event-1\]/);

    expect(await scan()).toEqual([{ source: 'inbox/trip.ics', outcome: 'unchanged', items: 0, facts: 0 }]);
    expect(model.requests).toHaveLength(1);

    const text = await readFile(join(inbox, 'trip.ics'), 'utf8');
    await writeFile(join(inbox, 'trip.ics'), text.replace('END:VCALENDAR\n', NEW_EVENT));
    expect(await scan()).toEqual([{ source: 'inbox/trip.ics', outcome: 'ingested', items: 1, facts: 1 }]);
    expect(model.requests).toHaveLength(2);
    const sent = String(model.requests[1]!.messages[1]!.content);
    expect(sent).toContain('[1] Event: Dinner with Sarah');
    expect(sent).not.toContain('Flight to Lisbon');
    const log = await readFile(join(root, 'home/notes/_log.md'), 'utf8');
    expect(log.match(/ingested inbox\/trip\.ics — sha256 [0-9a-f]{64}, 3 items/g)).toHaveLength(1);
  });

  it('classifies what it files by the item it came from: a bank row and a salary e-mail are sensitive, whatever the model says', async () => {
    // the memory lane writes a bland fact for every item, with no sensitivity of its own
    model = new ScriptedChatModel(() => ({
      text: JSON.stringify({
        entities: [{ name: 'Household', category: 'Topics', new: true }],
        facts: [{ entity: 'Household', text: 'Something about the landlord happened.', message: 1 }],
        links: [],
      }),
    }));
    await writeFile(join(inbox, 'bank.csv'), 'date,description,amount\n2026-05-01,Rent May,-1200.00\n');
    await writeFile(join(inbox, 'hr.eml'), 'From: HR <hr@example.com>\nTo: me@example.com\nSubject: Your new salary\nDate: Mon, 1 Jun 2026 09:00:00 +0000\n\nFrom January it is 5,400 a month.\n');
    await scan();
    const page = await readFile(join(root, 'home/notes/Topics/Household.md'), 'utf8');
    const lines = page.split('\n').filter((l) => l.includes('Something about the landlord'));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toContain('[sensitivity:: sensitive/financial]');
  });

  it("labels a fact by the memory lane's verdict on its item: words the rules miss are sensitive when the lane says so, and a verdict never lowers a label", async () => {
    const reworded = 'Dad is back on the locked ward since Tuesday.';
    const plain = 'The bins go out on Thursday.';
    expect(isSensitive(sensitivityOfText(reworded))).toBe(false); // the rules miss it: only the verdict can label it
    const scripted = (sensitive: unknown) =>
      new ScriptedChatModel((req) => {
        const items = String(req.messages[1]?.content ?? '')
          .split('\n')
          .filter((l) => /^\[\d+\]/.test(l));
        return {
          text: JSON.stringify({
            entities: [{ name: 'Household', category: 'Topics', new: true }],
            facts: items.map((l, i) => ({ entity: 'Household', text: l.replace(/^\[\d+\]\s*/, ''), message: i + 1 })),
            links: [],
            sensitive,
          }),
        };
      });
    const factLine = async (text: string) => (await readFile(join(root, 'home/notes/Topics/Household.md'), 'utf8')).split('\n').find((l) => l.includes(text)) ?? '';

    // item 1 is the ward, item 2 the bins; the lane names item 1, and gives one malformed item that changes nothing
    model = scripted([
      { message: 1, kind: 'phi' },
      { message: 'two', kind: 'nonsense' },
    ]);
    await writeFile(join(inbox, 'notes.txt'), `${reworded}\n${plain}\n`);
    await scan();
    expect(model.requests).toHaveLength(1);
    expect(String(model.requests[0]!.messages[0]!.content)).toContain('- sensitive: every source item');
    expect(await factLine('locked ward')).toContain('[sensitivity:: sensitive/phi]');
    expect(await factLine('bins go out')).not.toContain('sensitivity::');

    // a reply with no verdict, or one naming an item the rules already label, lowers nothing
    model = scripted(undefined);
    await writeFile(join(inbox, 'bank.csv'), 'date,description,amount\n2026-05-01,Rent May,-1200.00\n');
    await scan();
    expect(await factLine('Rent May')).toContain('[sensitivity:: sensitive/financial]');
  });

  it('sends only the new lines of a growing text file', async () => {
    await writeFile(join(inbox, 'journal.txt'), 'Booked the Lisbon flight.\n');
    await scan();
    await appendFile(join(inbox, 'journal.txt'), '\nSarah will join on the 13th.\n');
    expect(await scan()).toEqual([{ source: 'inbox/journal.txt', outcome: 'ingested', items: 1, facts: 1 }]);
    expect(String(model.requests[1]!.messages[1]!.content)).toMatch(/Source items:\n\[1\] Sarah will join on the 13th\.$/);
    expect(await readFile(join(root, 'home/notes/Travel/Lisbon-trip.md'), 'utf8')).toContain('[source:: inbox/journal.txt#L3]');
  });

  it('reports a file it cannot parse once, ingests none of it, and makes no model call', async () => {
    await writeFile(join(inbox, 'broken.ics'), 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:half\n');
    await writeFile(join(inbox, 'rows.csv'), 'a,b\n1,2,3\n');
    const first = await scan();
    expect(first.map((r) => [r.source, r.outcome])).toEqual([
      ['inbox/broken.ics', 'unparseable'],
      ['inbox/rows.csv', 'unparseable'],
    ]);
    expect(first[1]!.message).toMatch(/not a valid CSV file/);
    expect(model.requests).toHaveLength(0);
    expect((await scan()).map((r) => r.outcome)).toEqual(['unchanged', 'unchanged']);
    expect(await readFile(join(root, 'home/notes/_log.md'), 'utf8')).toMatch(/skipped inbox\/broken\.ics — .* — not a valid iCalendar file/);
  });
});

describe('an attachment (/memory ingest)', () => {
  it('is put into the inbox under a safe name and read; the same file again is not read twice', async () => {
    const service = new IngestService({
      projectsDir: root,
      graph: wiki,
      recall: { recall: async () => [] },
      memoryModel: model,
      clock: new FixedClock(new Date('2026-06-02T10:00:00Z')),
      logger: silentLogger,
    });
    const bytes = await readFile(join(fixtures, 'trip.ics'));
    expect(await service.add('home', '../Trip plan.ics', bytes)).toEqual({ source: 'inbox/Trip-plan.ics', outcome: 'ingested', items: 2, facts: 2 });
    expect(await service.add('home', 'Trip plan.ics', bytes)).toMatchObject({ source: 'inbox/Trip-plan.ics', outcome: 'unchanged' });
    expect(model.requests).toHaveLength(1);
    // a kind it does not read is refused by name, with the kinds it does; a damaged PDF is read and refused
    expect(await service.add('home', 'letter.docx', Buffer.from('PK'))).toMatchObject({ outcome: 'unparseable', message: expect.stringMatching(/\.ics .*\.pdf/) });
    expect(await service.add('home', 'scan.pdf', Buffer.from('%PDF'))).toMatchObject({ outcome: 'unparseable', message: expect.stringMatching(/not a readable PDF/) });
  });

  it('two files added at once (dropped together on the web chat) each report what was read of them', async () => {
    const service = new IngestService({
      projectsDir: root,
      graph: wiki,
      recall: { recall: async () => [] },
      memoryModel: model,
      clock: new FixedClock(new Date('2026-06-02T10:00:00Z')),
      logger: silentLogger,
    });
    // the first add's scan reads both files; the second's own scan then finds its file unchanged
    const [a, b] = await Promise.all([service.add('home', 'a.txt', Buffer.from('Sarah booked the Lisbon hotel.\n')), service.add('home', 'b.txt', Buffer.from('The Lisbon flight leaves at nine.\n'))]);
    expect(a).toEqual({ source: 'inbox/a.txt', outcome: 'ingested', items: 1, facts: 1 });
    expect(b).toEqual({ source: 'inbox/b.txt', outcome: 'ingested', items: 1, facts: 1 });
    expect(await service.add('home', 'b.txt', Buffer.from('The Lisbon flight leaves at nine.\n'))).toMatchObject({ outcome: 'unchanged' });
  });
});

describe('source parsers', () => {
  it('read a PDF into passages of each page, with the page in the reference; a PDF without text says so', async () => {
    const pdf = tinyPdf([['Sam will send the mock-ups by Wednesday.', 'The kiln (the big one) is in the garage.'], ['We fly to Lisbon on 3 May.']]);
    expect(await parseSource('plans.pdf', pdf)).toEqual([
      { ref: 'p1.1', text: 'Sam will send the mock-ups by Wednesday. The kiln (the big one) is in the garage.' },
      { ref: 'p2.1', text: 'We fly to Lisbon on 3 May.' },
    ]);
    await expect(parseSource('scan.pdf', tinyPdf([[]]))).rejects.toThrow(/no text in it/);
  });

  it('read e-mails, CSV exports and text into items', async () => {
    const mail = await parseSource('note.eml', await readFile(join(fixtures, 'note.eml')));
    expect(mail).toEqual([
      {
        ref: 'mail',
        date: '2026-06-01T09:30:00.000Z',
        text: expect.stringMatching(/^E-mail from "Sarah Chen" <sarah\.chen@acme\.example>, to "Alice" <alice@example\.org>, on 2026-06-01, subject: Lisbon plans\nHi Alice, the hotel is booked/),
      },
    ]);
    expect(await parseSource('bank.csv', await readFile(join(fixtures, 'bank.csv')))).toEqual([
      { ref: 'L2', text: 'date: 2026-05-01; description: Rent May; amount: -1200.00' },
      { ref: 'L3', text: 'date: 2026-05-03; description: Coffee, large; amount: -3.50' },
    ]);
    expect(await parseSource('a.md', Buffer.from('# Title\n\nline two\n'))).toEqual([
      { ref: 'L1', text: '# Title' },
      { ref: 'L3', text: 'line two' },
    ]);
    await expect(parseSource('x.pdf', Buffer.from('%PDF'))).rejects.toThrow(/not a readable PDF/);
    await expect(parseSource('x.docx', Buffer.from('PK'))).rejects.toThrow(/unsupported file type \.docx/);
    await expect(parseSource('x.eml', Buffer.from('\n\njust text'))).rejects.toThrow(/not an e-mail/);
  });
});
