/**
 * `/sync` on Discord (issue 42): Charlie's owner sees the same status as the terminal's `/sync
 * status` and the web app's Settings, and syncs now — through a real git engine to a bare
 * repository on a local path, two devices. Anyone else is refused by the role table.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EPHEMERAL, firstCallback, startBotHarness, subcommand, type BotHarness } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { makeDevice, type Device } from '../support/sync-devices.js';
import { suiteTempDir } from '../support/temp-dir.js';

const PAGE = 'home/notes/Topics/Tent.md';

describe('/sync on Discord', { timeout: 120_000 }, () => {
  const root = suiteTempDir('discord-sync-');
  let laptop: Device;
  let server: Device;
  let h: BotHarness;
  beforeAll(async () => {
    const bare = join(root, 'charlie.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    laptop = makeDevice(root, 'laptop', { SYNC_REMOTE: bare, SYNC_BACKGROUND: 'false' });
    server = makeDevice(root, 'server', { SYNC_REMOTE: bare, SYNC_BACKGROUND: 'true' });
    await laptop.sync.setup();
    await server.sync.setup();
    h = await startBotHarness({ assistant: new FakeAssistant(), services: { sync: server.sync } });
  });
  afterAll(async () => {
    await h.close();
  });

  const run = async (name: string, user = h.fake.owner) => {
    const rec = h.fake.runCommand(h.general, user, 'sync', subcommand(name));
    const first = await firstCallback(h, rec);
    if (first.type === 5) return { first, text: String(await h.fake.waitFor(() => rec.original?.content, 60_000, `/sync ${name}`)) };
    return { first, text: String((first.data as Json).content) };
  };

  it('/sync now syncs this device and says what arrived; /sync status shows the devices', async () => {
    laptop.write(PAGE, '---\nschema: 2\ntitle: Tent\n---\n\nThe blue tent sleeps four.\n');
    await laptop.sync.syncNow();
    server.write('home/notes/Topics/Stove.md', '---\nschema: 2\ntitle: Stove\n---\n\nThe stove runs on gas.\n');
    const now = await run('now');
    expect(Number((now.first.data as Json | undefined)?.flags ?? 0) & EPHEMERAL).toBe(EPHEMERAL);
    expect(now.text).toMatch(/^synced: 1 file\(s\) arrived or changed here/);
    expect(now.text).toContain(`sync: server ↔ ${join(root, 'charlie.git')}`);
    expect(now.text).toContain('this device’s changes were sent');
    expect(server.read(PAGE)).toContain('The blue tent sleeps four.');
    const status = await run('status');
    expect(Number((status.first.data as Json).flags) & EPHEMERAL).toBe(EPHEMERAL);
    expect(status.text).toMatch(/laptop — last synced \S+/);
    expect(status.text).toMatch(/server — last synced \S+ — runs the background jobs/);
    expect(status.text).toContain('waiting: 0 change(s) here not yet sent');
  });

  it('only Charlie’s owner: an editor and a member are refused, and nothing syncs', async () => {
    laptop.write(PAGE, '---\nschema: 2\ntitle: Tent\n---\n\nThe blue tent sleeps five.\n');
    await laptop.sync.syncNow();
    for (const user of [h.alice, h.bob]) {
      for (const name of ['status', 'now']) expect((await run(name, user)).text).toMatch(/Only Charlie's owner may/);
    }
    expect(server.read(PAGE)).toContain('sleeps four');
  });
});
