/**
 * `/memory ingest` downloads the attached file the way message attachments are downloaded:
 * time-boxed by DISCORD_ATTACHMENT_TIMEOUT_MS (a stalled CDN answer used to hold the command
 * for as long as the socket lived) and capped in size while reading, whatever the declared size.
 */
import { describe, expect, it } from 'vitest';
import type { FileIngest } from '../../src/discord/command.js';
import { botHarnesses, subcommand } from '../support/fake-discord/bot-harness.js';
import type { FakeAttachment } from '../support/fake-discord/server.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { stallingServers } from '../support/stalling-server.js';

const startHarness = botHarnesses();

const startServer = stallingServers();

/** A CDN stand-in: `/stall` sends the headers and the start of the body, then nothing; `/big` sends more than it declares. */
function cdn(): Promise<string> {
  return startServer((req, res) => {
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(6_000_000, 97));
      return false;
    }
    res.writeHead(200, { 'content-type': 'text/calendar', 'content-length': '4096' });
    res.write('BEGIN:VCALENDAR\n');
    return true;
  });
}

class RecordingIngest implements FileIngest {
  readonly added: { project: string; name: string; bytes: number }[] = [];
  async add(project: string, name: string, bytes: Buffer) {
    this.added.push({ project, name, bytes: bytes.length });
    return { source: `inbox/${name}`, outcome: 'ingested' as const, items: 1, facts: 0 };
  }
}

const attachment = (url: string, filename: string, size: number): FakeAttachment => ({ filename, url, content_type: 'text/plain', size });

describe('/memory ingest', () => {
  it('gives up on a stalled download after the configured limit and says so; the channel keeps answering', async () => {
    const base = await cdn();
    const ingest = new RecordingIngest();
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant, services: { ingest }, config: { DISCORD_ATTACHMENT_TIMEOUT_MS: 300 } });
    const started = performance.now();
    const run = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('ingest', [{ type: 11, name: 'file', value: '900' }]), { '900': attachment(`${base}/stall`, 'trip.ics', 4096) });
    await h.fake.waitFor(() => run.original?.content, 5000, 'ingest reply');
    expect(String(run.original!.content)).toBe('I could not download `trip.ics` from Discord (the download took longer than 0.3 s). Try again?');
    expect(performance.now() - started).toBeLessThan(4000);
    expect(ingest.added).toEqual([]);

    // a file that is served at once is read into the project
    const ok = h.fake.addAttachment('notes.txt', 'Remember the ferry leaves at 9.', 'text/plain');
    const second = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('ingest', [{ type: 11, name: 'file', value: '901' }]), { '901': ok });
    await h.fake.waitFor(() => second.original?.content, 5000, 'second ingest reply');
    expect(String(second.original!.content)).toContain('Read `inbox/notes.txt`: 1 new item(s)');
    expect(ingest.added).toEqual([{ project: `discord:${h.guild.id}:${h.general.id}`, name: 'notes.txt', bytes: 31 }]);
  });

  it('without a file, shows how far the channel’s big inbox files are', async () => {
    const asked: string[] = [];
    const ingest = Object.assign(new RecordingIngest(), {
      status: async (project: string) => {
        asked.push(project);
        return [{ source: 'inbox/big.csv', mode: 'rows' as const, done: 3000, bytesDone: 250_000, bytesTotal: 1_000_000, batches: 100 }];
      },
    });
    const h = await startHarness({ assistant: new FakeAssistant(), services: { ingest } });
    const run = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('ingest', []));
    const content = () => (run.callbacks[0]?.data as { content?: string } | undefined)?.content;
    await h.fake.waitFor(content, 5000, 'status reply');
    expect(String(content())).toBe('Reading 1 inbox file:\n• inbox/big.csv — 3,000 rows · 0.3 of 1.0 MB (25%) · 100 batches');
    expect(asked).toEqual([`discord:${h.guild.id}:${h.general.id}`]);
    expect(ingest.added).toEqual([]);
  });

  it('stops reading a file that turns out larger than 5 MB, whatever size it declared', async () => {
    const base = await cdn();
    const ingest = new RecordingIngest();
    const h = await startHarness({ assistant: new FakeAssistant(), services: { ingest } });
    const run = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('ingest', [{ type: 11, name: 'file', value: '902' }]), { '902': attachment(`${base}/big`, 'export.csv', 1000) });
    await h.fake.waitFor(() => run.original?.content, 5000, 'ingest reply');
    expect(String(run.original!.content)).toBe('`export.csv` is larger than 5 MB; I read files up to that size.');
    expect(ingest.added).toEqual([]);
  });
});
