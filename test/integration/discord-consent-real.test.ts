/**
 * Asking in the moment through the whole Discord front door and the real composition (buildApp)
 * with a hosted chat model behind the scripted fake server: Alice asks in #general about herself
 * and Bob; the question goes to her DMs, naming only her item; Once lets exactly her record go
 * to the model in that turn, never Bob's; the channel never sees the item, its content or the
 * question; `/privacy consents` then lists her answer.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { CONSENT_PREFIX } from '../../src/discord/consent-ask.js';
import { buildApp } from '../../src/main.js';
import { writeNote } from '../support/camping-project.js';
import { firstCallback, startBotHarness, subcommand } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { startFakeModelServer } from '../support/fake-model-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ALICE = 'CANARY-ALICE-3f19 takes sumatriptan for migraines';
const BOB = 'CANARY-BOB-8e40 has a hepatitis diagnosis';
const content = (m: Json) => String(m.content ?? '');
const buttons = (m: Json) => ((m.components as Json[] | undefined) ?? []).flatMap((row) => (row.components as Json[] | undefined) ?? []);

/** The hosted model: reads both pages once per turn, then answers. */
function searcher() {
  let call = 0;
  return (request: { messages: { role: string }[] }) => {
    if (request.messages.at(-1)?.role === 'tool') return { text: 'Here is what I found.' };
    call++;
    return {
      toolCalls: [
        { id: `a${call}`, name: 'read_note', arguments: JSON.stringify({ path: 'People/Alice.md' }) },
        { id: `b${call}`, name: 'read_note', arguments: JSON.stringify({ path: 'People/Bob.md' }) },
      ],
    };
  };
}

describe('Discord and the real composition: asking in the moment', () => {
  it('the question goes to her DMs with her item only; Once sends exactly her record, in that turn; the channel sees no item', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charlie-discord-consent-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await startFakeModelServer(searcher());
    cleanups.push(() => server.close());
    const config = loadConfig(
      {
        LLM_BASE_URL: server.url,
        LLM_LOCALITY: 'hosted',
        LLM_API_KEY: 'test-key',
        LLM_MAX_RETRIES: '0',
        EMBEDDER: 'builtin',
        WATCH_PROJECTS: 'false',
        CONSENT_MODE: 'ask',
        CONSENT_TIMEOUT_MS: '20000',
        PROJECTS_DIR: join(dir, 'projects'),
        DATA_DIR: join(dir, 'data'),
      },
      dir,
    );
    const app = await buildApp(config, silentLogger);
    cleanups.push(() => app.close());
    const h = await startBotHarness({ assistant: app.assistant });
    cleanups.push(() => h.close());

    const place: Place = { kind: 'project', origin: { name: 'general', key: `discord:${h.guild.id}:${h.general.id}`, discord: { guildId: h.guild.id, channelId: h.general.id } } };
    await app.assistant.settings.showMemory(place);
    const [folder] = readdirSync(join(dir, 'projects'));
    const root = join(dir, 'projects', folder!);
    writeNote(root, 'People/Alice.md', `---\nschema: 1\ntitle: Alice\n---\n\n- Alice ${ALICE}. [about:: medication] [sensitivity:: sensitive/phi] ^r-a11a11\n`);
    writeNote(root, 'People/Bob.md', `---\nschema: 1\ntitle: Bob\n---\n\n- Bob ${BOB}. [about:: diagnosis] [sensitivity:: sensitive/phi] ^r-b22b22\n`);

    h.fake.postMessage(h.general, h.alice, `<@${h.fake.bot.id}> what do you remember about me and Bob?`, { mentions: [h.fake.bot] });
    const dm = h.fake.dmChannel(h.alice);
    const asked = await h.fake.waitFor(() => h.fake.botMessagesIn(dm.id).find((m) => buttons(m).some((b) => String(b.custom_id).startsWith(`${CONSENT_PREFIX}:`))), 30_000, 'the question in her DMs');
    expect(content(asked)).toContain('People/Alice › medication (health)');
    expect(content(asked)).not.toMatch(/Bob|sumatriptan|CANARY/);
    expect(JSON.stringify(server.requests)).not.toContain(ALICE); // nothing went before she answered

    h.fake.pressButton(dm, h.alice, asked, String(buttons(asked).find((b) => b.label === 'Once')!.custom_id));
    const reply = await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id).find((m) => content(m).includes('Here is what I found.')), 30_000, 'the reply');
    await h.bot.idle();
    expect(JSON.stringify(server.requests)).toContain(ALICE);
    expect(JSON.stringify(server.requests)).not.toContain(BOB);
    expect(JSON.stringify(server.requests)).not.toMatch(/May I send|marked private|in a DM/);
    // the channel: a line that a DM went and the reply; no item names, no content
    const channel = h.fake.botMessagesIn(h.general.id).map(content).join('\n');
    expect(channel).toContain('I asked alice in a DM');
    expect(channel).not.toMatch(/CANARY|sumatriptan|hepatitis|People\/|medication/);
    // the turn's line says what went where, without the item
    expect(channel).toMatch(/sent to the chat model \(.*\) for this answer: 1 item \S+ was asked about/);
    expect(content(reply)).toBeTruthy();

    const listed = await firstCallback(h, h.fake.runCommand(dm, h.alice, 'privacy', subcommand('consents')));
    expect(String((listed.data as Json).content)).toMatch(/People\/Alice › medication \(health\) → the chat model .* · once/);
    const bobs = await firstCallback(h, h.fake.runCommand(h.general, h.bob, 'privacy', subcommand('consents')));
    expect(String((bobs.data as Json).content)).toContain('You have not let anything go to a hosted service.');
  }, 90_000);
});
