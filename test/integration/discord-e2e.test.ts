/**
 * The Discord front door on the real core: a real discord.js client against the fake Discord,
 * the real Assistant with the OpenAI-compatible client against the scripted model server,
 * the Markdown store in a temp folder and the SQLite private store.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, systemClock } from '../../src/core/ports/index.js';
import { APOLOGY_TEXT } from '../../src/discord/message-handler.js';
import { FileProjectStore } from '../../src/memory/store/project-store.js';
import { Wiki } from '../../src/memory/graph/wiki.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { SqliteUsageStore } from '../../src/storage/usage-store.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { startBotHarness, subcommand, type BotHarness } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { type Script } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';
import { writePage } from '../support/pages.js';
import { fakeModelServers, testChatModel } from '../support/model-servers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const newDir = tempDirs('charlie-discord-');
const startServer = fakeModelServers();

async function setup(script: Script, opts: { modelUrl?: string; allowBothGuilds?: boolean } = {}) {
  const dir = newDir();
  const server = opts.modelUrl ? undefined : await startServer(script);
  const model = testChatModel(opts.modelUrl ?? server!.url);
  const projectsDir = join(dir, 'projects');
  const store = new FileProjectStore({ projectsDir, clock: systemClock, logger: silentLogger });
  const privateStore = new SqlitePrivateStore(join(dir, 'data', 'charlie.db'));
  cleanups.push(() => privateStore.close());
  const usage = new SqliteUsageStore(join(dir, 'data', 'charlie.db'));
  cleanups.push(() => usage.close());
  const graph = new Wiki({ projectsDir, clock: systemClock, logger: silentLogger });
  const { assistant } = makeAssistant({ model, memoryModel: null, store, privateStore, usage, graph, clock: systemClock });
  const h: BotHarness = await startBotHarness({ assistant, config: opts.allowBothGuilds ? { DISCORD_ALLOWED_GUILDS: [] } : {} });
  cleanups.push(async () => {
    await h.close();
    await assistant.idle();
  });
  return { dir, projectsDir, dbPath: join(dir, 'data', 'charlie.db'), server, assistant, store, graph, usage, h };
}

const content = (m: Json) => String(m.content);
/** Projects answer only when addressed by default: mention the bot. */
const ask = (h: BotHarness, channel: Parameters<BotHarness['fake']['postMessage']>[0], author: Parameters<BotHarness['fake']['postMessage']>[1], text: string) =>
  h.fake.postMessage(channel, author, `<@${h.fake.bot.id}> ${text}`, { mentions: [h.fake.bot] });

async function reply(h: BotHarness, channelId: string, n = 1): Promise<Json> {
  const list = await h.fake.waitFor(
    () => {
      const r = h.fake.botMessagesIn(channelId).filter((m) => !content(m).includes('⏳'));
      return r.length >= n ? r : null;
    },
    8000,
    'a finished reply',
  );
  await h.bot.idle();
  return list[n - 1]!;
}

describe('Discord on the real core', () => {
  it('answers in the channel from the model and keeps the channel as a Markdown project', async () => {
    const { h, projectsDir, server } = await setup([{ text: 'Hello Alice, noted the trip.' }]);
    ask(h, h.general, h.alice, 'we go to Lisbon in May');
    expect(content(await reply(h, h.general.id))).toBe('Hello Alice, noted the trip.');
    expect(JSON.stringify(server!.requests[0].messages)).toContain('we go to Lisbon in May');
    expect(readdirSync(projectsDir)).toEqual(['general']);
    const logs = readdirSync(join(projectsDir, 'general', 'log'));
    expect(readFileSync(join(projectsDir, 'general', 'log', logs[0]!), 'utf8')).toContain('we go to Lisbon in May');
  });

  it('shows the tool trace, offers the opened note as a button, and pressing it records usage', async () => {
    const { h, store, graph, usage } = await setup([{ toolCalls: [{ name: 'read_note', arguments: '{"path":"Topics/Tent.md"}' }] }, { text: 'Take the blue tent; it sleeps four.' }]);
    const config = await store.ensureProject({ name: 'general', key: `discord:${h.guild.id}:${h.general.id}`, discord: { guildId: h.guild.id, channelId: h.general.id } });
    await writePage(graph, config.slug, { title: 'Tent', category: 'Topics', facts: ['The blue tent sleeps four.'] });
    const [note] = await store.listNotes(config.slug);
    ask(h, h.general, h.alice, 'which tent should we take?');
    const answer = await reply(h, h.general.id);
    expect(content(answer)).toContain('Take the blue tent; it sleeps four.');
    expect(content(answer)).toMatch(/✓ opened Tent/);
    expect(content(answer)).not.toMatch(/read_note|"path"/);
    const button = ((answer.components as Json[])[0]!.components as Json[])[0]!;
    expect(button.label).toBe('📝 Tent');
    const before = usage.boost(config.slug, `notes/${note!.path}`);
    const press = h.fake.pressButton(h.general, h.alice, answer, String(button.custom_id));
    const shown = await h.fake.waitFor(() => press.callbacks[0]);
    expect(String((shown.data as Json).content)).toContain('The blue tent sleeps four.');
    expect(usage.boost(config.slug, `notes/${note!.path}`)).toBeGreaterThan(before);
  });

  it('/memory edit (modal submit) changes the Markdown and marks edits as manual', async () => {
    const { h, projectsDir } = await setup([{ text: 'ok' }]);
    ask(h, h.general, h.alice, 'first message creates the project');
    await reply(h, h.general.id);
    const open = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('edit'));
    const modal = await h.fake.waitFor(() => open.callbacks[0]);
    expect(modal.type).toBe(9);
    const submit = h.fake.submitModal(h.general, h.alice, 'memory-edit:save', {
      summary: 'We are planning a family trip to Lisbon.',
      decisions: '- 2026-11-20: Fly on 3 May',
      quotes: '- 2026-11-21 alice: "Pastéis first!"',
      style: 'short and warm',
    });
    await h.fake.waitFor(() => submit.callbacks[0]);
    await h.bot.idle();
    const dir = join(projectsDir, 'general');
    expect(readFileSync(join(dir, 'project.md'), 'utf8')).toContain('We are planning a family trip to Lisbon.');
    expect(readFileSync(join(dir, 'project.md'), 'utf8')).toContain('short and warm');
    const decisions = readFileSync(join(dir, 'decisions.md'), 'utf8');
    expect(decisions).toContain('Fly on 3 May');
    expect(decisions).toContain('manual');
    expect(readFileSync(join(dir, 'quotes.md'), 'utf8')).toContain('Pastéis first!');

    const show = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('show'));
    const shown = await h.fake.waitFor(() => show.callbacks[0]);
    expect(String((shown.data as Json).content)).toContain('Fly on 3 May');
  });

  it('keeps a DM in SQLite only: nothing under projects/, and /memory show there shows the private memory', async () => {
    const { h, projectsDir, dbPath, server } = await setup([{ text: 'Your secret is safe.' }, { text: 'Not much yet.' }]);
    const dm = h.fake.dmChannel(h.alice);
    h.fake.postMessage(dm, h.alice, 'my PIN hint is the cat');
    expect(content(await reply(h, dm.id))).toBe('Your secret is safe.');
    const submit = h.fake.submitModal(dm, h.alice, 'memory-edit:save', { summary: 'Alice keeps a PIN hint.' });
    await h.fake.waitFor(() => submit.callbacks[0]);
    await h.bot.idle();
    expect(existsSync(projectsDir) ? readdirSync(projectsDir) : []).toEqual([]); // checked before any guild message
    const db = new DatabaseSync(dbPath, { readOnly: true });
    try {
      const rows = db.prepare('SELECT text, role FROM dm_messages WHERE user_id = ? ORDER BY id').all(h.alice.id);
      expect(rows.map((r) => r.text)).toEqual(['my PIN hint is the cat', 'Your secret is safe.']);
    } finally {
      db.close();
    }
    const show = h.fake.runCommand(dm, h.alice, 'memory', subcommand('show'));
    const shown = String(((await h.fake.waitFor(() => show.callbacks[0])).data as Json).content);
    expect(shown).toContain('Alice keeps a PIN hint.');
    // the same command in a guild channel never shows it
    const inGuild = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('show'));
    const guildShown = String(((await h.fake.waitFor(() => inGuild.callbacks[0])).data as Json).content);
    expect(guildShown).not.toContain('PIN');
    // and a turn in a guild channel never sees the DM
    ask(h, h.general, h.alice, 'what do you know about me?');
    await reply(h, h.general.id);
    expect(JSON.stringify(server!.requests.at(-1))).not.toMatch(/PIN|secret is safe/);
  });

  it('apologises in the channel when the model server is down', async () => {
    const { h } = await setup([], { modelUrl: 'http://127.0.0.1:9/v1' });
    ask(h, h.general, h.alice, 'are you there?');
    const text = content(await reply(h, h.general.id));
    expect(text.length).toBeGreaterThan(10);
    expect(text).toMatch(/sorry/i);
    expect(text === APOLOGY_TEXT || /model server/i.test(text)).toBe(true);
  });

  it('gives channels of the same name in two guilds separate projects, kept across a rename', async () => {
    const { h, projectsDir, server } = await setup(() => ({ text: 'ok' }), { allowBothGuilds: true });
    // with an empty guild list only the owner is served in guilds
    const owner = h.fake.owner;
    const lobby = h.otherGuild.channels[0]!;
    lobby.name = 'general';
    ask(h, h.general, owner, 'in home');
    await reply(h, h.general.id);
    ask(h, lobby, owner, 'in elsewhere');
    await reply(h, lobby.id);
    const folders = readdirSync(projectsDir).sort();
    expect(folders).toHaveLength(2);
    expect(JSON.stringify(server!.requests[1])).not.toContain('in home'); // the other guild's project never sees it
    ask(h, h.general, h.alice, 'alice is not the owner');
    h.fake.gateway.dispatch('CHANNEL_UPDATE', { id: h.general.id, type: 0, name: 'renamed', guild_id: h.guild.id, position: 0, permission_overwrites: [] });
    ask(h, h.general, owner, 'after rename');
    await reply(h, h.general.id, 2);
    expect(readdirSync(projectsDir).sort()).toEqual(folders);
    expect(server!.requests).toHaveLength(3); // alice was not served: not the owner, no guild list
  });
});
