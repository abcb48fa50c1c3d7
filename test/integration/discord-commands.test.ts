/** Slash commands, buttons and modals through a real discord.js client and the fake Discord. */
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../commands/index.js';
import { REFUSAL } from '../../src/discord/interaction-router.js';
import { registerCommands } from '../../src/discord/register.js';
import { botHarnesses, EPHEMERAL, firstCallback, subcommand } from '../support/fake-discord/bot-harness.js';
import { startFakeDiscord, type Json } from '../support/fake-discord/server.js';
import { disagreeingPair, FakeAssistant, waitingCandidate } from '../support/fake-assistant.js';
import { placeKey } from '../../src/core/place.js';
import { postToChannel } from '../../src/discord/announce.js';

const startHarness = botHarnesses();

describe('Discord slash commands', () => {
  it('/memory show replies ephemeral and paged; the buttons turn the pages', async () => {
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant });
    const key = `discord:${h.guild.id}:${h.general.id}`;
    assistant.layersByPlace.set(key, {
      summary: 'The family plans a trip to Lisbon in May.',
      decisions: Array.from({ length: 60 }, (_, i) => ({ date: '2026-11-01', text: `decision number ${i} about the trip and its many details`, source: 'manual' })),
      quotes: [{ date: '2026-11-02', speaker: 'alice', text: 'Pastéis first!', source: 'x' }],
      style: 'brief',
    });
    const rec = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('show'));
    const cb = await firstCallback(h, rec);
    expect(cb.type).toBe(4);
    const data = cb.data as Json;
    expect(Number(data.flags) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(data.content)).toContain('Memory of general');
    expect(String(data.content)).toContain('Lisbon in May');
    expect(String(data.content)).toMatch(/page 1\/\d/);
    const buttons = ((data.components as Json[])[0]!.components as Json[]).map((b) => String(b.custom_id));
    expect(buttons).toEqual(['memory-show:-1', 'memory-show:1']);

    const press = h.fake.pressButton(h.general, h.alice, rec.original!, 'memory-show:1');
    const update = await firstCallback(h, press);
    expect(update.type).toBe(7);
    expect(String((update.data as Json).content)).toMatch(/page 2\/\d/);
    expect(String((update.data as Json).content)).toContain('decision number');
  });

  it('/memory edit opens a modal prefilled with the memory; submitting saves it', async () => {
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant });
    const key = `discord:${h.guild.id}:${h.general.id}`;
    assistant.layersByPlace.set(key, { summary: 'Old summary', decisions: [{ date: '2026-11-01', text: 'Buy a tent', source: 'x' }], quotes: [], style: 'brief' });
    const rec = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('edit'));
    const cb = await firstCallback(h, rec);
    expect(cb.type).toBe(9);
    const modal = cb.data as Json;
    expect(modal.custom_id).toBe('memory-edit:save');
    const inputs = (modal.components as Json[]).map((r) => (r.components as Json[])[0]!);
    expect(inputs.map((i) => [i.custom_id, i.value])).toEqual([
      ['summary', 'Old summary'],
      ['decisions', '- 2026-11-01: Buy a tent'],
      ['quotes', undefined],
      ['style', 'brief'],
    ]);
    const submit = h.fake.submitModal(h.general, h.alice, 'memory-edit:save', { summary: 'New summary', decisions: '- 2026-11-01: Buy a tent\n- 2026-11-03: Rent a car', quotes: '', style: 'chatty' });
    const saved = await firstCallback(h, submit);
    expect(saved.type).toBe(4);
    expect(String((saved.data as Json).content)).toContain('Saved');
    expect(assistant.edits).toEqual([{ place: key, edit: { summary: 'New summary', decisions: '- 2026-11-01: Buy a tent\n- 2026-11-03: Rent a car', quotes: '', style: 'chatty' } }]);
  });

  it('refuses a stranger ephemerally, and a command in a guild that is not allow-listed', async () => {
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant });
    const a = h.fake.runCommand(h.general, h.stranger, 'memory', subcommand('show'));
    const b = h.fake.runCommand(h.otherGuild.channels[0]!, h.alice, 'help');
    for (const rec of [a, b]) {
      const cb = await firstCallback(h, rec);
      expect((cb.data as Json).content).toBe(REFUSAL);
      expect(Number((cb.data as Json).flags) & EPHEMERAL).toBe(EPHEMERAL);
    }
    expect(assistant.layersByPlace.size).toBe(0);
  });

  it('/memory show in a DM shows the private memory of that user only', async () => {
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant });
    assistant.layersByPlace.set(`dm:${h.alice.id}`, { summary: 'Alice is planning a surprise party.', decisions: [], quotes: [], style: '' });
    assistant.layersByPlace.set(`discord:${h.guild.id}:${h.general.id}`, { summary: 'Shared channel stuff.', decisions: [], quotes: [], style: '' });
    const rec = h.fake.runCommand(h.fake.dmChannel(h.alice), h.alice, 'memory', subcommand('show'));
    const content = String(((await firstCallback(h, rec)).data as Json).content);
    expect(content).toContain('Your private memory');
    expect(content).toContain('surprise party');
    expect(content).not.toContain('Shared channel');
    const inGuild = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('show'));
    const guildContent = String(((await firstCallback(h, inGuild)).data as Json).content);
    expect(guildContent).not.toContain('surprise party');
  });

  it('/project style, /project distill, /memory search, /memory forget and /help', async () => {
    const assistant = new FakeAssistant();
    assistant.notes = [
      { path: 'Topics/Tent.md', title: 'Tent', tags: ['camping'], updated: '2026-11-01', body: 'The blue tent sleeps four.', aliases: [], staleness: 3, confidence: 0.8, sensitivity: 'public' },
    ];
    const h = await startHarness({ assistant });
    const key = `discord:${h.guild.id}:${h.general.id}`;
    const style = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'project', subcommand('style', [{ type: 3, name: 'text', value: 'pirate speak' }])));
    expect(String((style.data as Json).content)).toContain('pirate speak');
    expect(assistant.layersByPlace.get(key)?.style).toBe('pirate speak');

    const distill = h.fake.runCommand(h.general, h.alice, 'project', subcommand('distill'));
    await h.fake.waitFor(() => distill.original?.content, 5000, 'distill edit');
    expect(distill.callbacks[0]!.type).toBe(5);
    expect(String(distill.original!.content)).toContain('Distilled 3 messages');

    const search = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('search', [{ type: 3, name: 'query', value: 'blue tent' }]));
    await h.fake.waitFor(() => search.original?.content, 5000, 'search edit');
    expect(String(search.original!.content)).toContain('notes/Topics/Tent.md');

    const forget = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'memory', subcommand('forget', [{ type: 3, name: 'item', value: 'note:Topics/Tent.md' }])));
    expect(String((forget.data as Json).content)).toContain('Forgot');
    expect(assistant.notes).toEqual([]);

    const respond = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'project', subcommand('respond', [{ type: 3, name: 'when', value: 'mention' }])));
    expect(String((respond.data as Json).content)).toContain('only when mentioned');
    expect(assistant.respond.get(key)).toBe('mention');
    h.fake.postMessage(h.general, h.alice, 'not addressed now');
    await h.fake.waitFor(() => assistant.handled.length === 1);
    await h.bot.idle();
    expect(assistant.handled[0]!.reply).toBe(false);

    const help = String(((await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'help'))).data as Json).content);
    for (const c of ['/memory show', '/memory edit', '/memory search', '/memory forget', '/project style', '/project distill', '/help']) expect(help).toContain(c);
    // which way asking in the moment goes (the fake's privacy slice: withhold)
    expect(help).toContain('consent: withhold');
  });

  it('suggested-note buttons show the note and record an accepted suggestion; tags lead to related notes', async () => {
    const assistant = new FakeAssistant(() => ({ reply: 'Take the blue tent.', related: ['notes/Topics/Tent.md'] }));
    assistant.notes = [
      { path: 'Topics/Tent.md', title: 'Tent', tags: ['camping'], updated: '2026-11-01', body: 'The blue tent sleeps four.', aliases: [], staleness: 3, confidence: 0.8, sensitivity: 'public' },
      { path: 'Places/Lake.md', title: 'Lake', tags: ['camping'], updated: '2026-11-01', body: 'Quiet lake.', aliases: [], staleness: 3, confidence: 0.8, sensitivity: 'public' },
    ];
    const h = await startHarness({ assistant });
    h.fake.postMessage(h.general, h.alice, 'which tent?');
    const reply = await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id).find((m) => (m.components as Json[]).length), 5000, 'reply with buttons');
    const button = ((reply.components as Json[])[0]!.components as Json[])[0]!;
    expect(button.label).toBe('📝 Tent');
    expect(String(button.custom_id).length).toBeLessThanOrEqual(100);

    const shown = await firstCallback(h, h.fake.pressButton(h.general, h.alice, reply, String(button.custom_id)));
    expect(String((shown.data as Json).content)).toContain('The blue tent sleeps four.');
    expect(Number((shown.data as Json).flags) & EPHEMERAL).toBe(EPHEMERAL);
    expect(assistant.reads).toEqual([
      { place: placeKey({ kind: 'project', origin: { name: 'general', key: `discord:${h.guild.id}:${h.general.id}` } }), path: 'notes/Topics/Tent.md', reason: 'suggestion_accepted' },
    ]);

    const tag = (((shown.data as Json).components as Json[])[0]!.components as Json[])[0]!;
    expect(tag.label).toBe('#camping');
    const related = await firstCallback(h, h.fake.pressButton(h.general, h.alice, reply, String(tag.custom_id)));
    expect(assistant.reads[1]).toMatchObject({ path: 'Topics/Tent.md', reason: 'tag' });
    expect((((related.data as Json).components as Json[])[0]!.components as Json[]).map((b) => b.label)).toEqual(['Lake']);

    // a button pressed in another channel does not open the note there
    const elsewhere = await firstCallback(h, h.fake.pressButton(h.kitchen, h.alice, reply, String(button.custom_id)));
    expect(String((elsewhere.data as Json).content)).toContain('expired');
  });

  it('a reply that used memory has a why? button carrying only record ids; it and /memory why show the chain; unknown ids get a clear answer', async () => {
    const assistant = new FakeAssistant((m) => ({ reply: 'Sarah leads design at Acme.', ...(m.text.includes('Sarah') ? { records: ['r-aaaaaa', 'r-bbbbbb', 'not an id'] } : {}) }));
    assistant.chains = [
      {
        id: 'r-aaaaaa',
        page: 'People/Sarah-Chen.md',
        statement: 'Is head of design at Acme.',
        category: 'identity',
        status: 'active',
        via: 'chat',
        confidence: 0.79,
        effective: 0.78,
        state: 'fresh',
        said: '2026-06-08',
        handEdited: false,
        sensitivity: 'personal',
        steps: [{ at: '2026-06-01T10:00:00.000Z', kind: 'added', text: 'stated, and written (by distillation; gate 0.66)', source: 'https://discord.com/channels/1/2/101' }],
      },
    ];
    const h = await startHarness({ assistant });
    h.fake.postMessage(h.general, h.alice, 'what does Sarah do?');
    const reply = await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id).find((m) => (m.components as Json[]).length), 5000, 'reply with the why? button');
    const button = ((reply.components as Json[])[0]!.components as Json[])[0]!;
    expect(button.label).toBe('❔ why?');
    expect(button.custom_id).toBe('why:r-aaaaaa,r-bbbbbb'); // record ids only: the message's text is nowhere in it
    const shown = await firstCallback(h, h.fake.pressButton(h.general, h.alice, reply, String(button.custom_id)));
    const content = String((shown.data as Json).content);
    expect(Number((shown.data as Json).flags) & EPHEMERAL).toBe(EPHEMERAL);
    expect(content).toContain('“Is head of design at Acme.” — People/Sarah-Chen.md ^r-aaaaaa');
    expect(content).toContain('2026-06-01  added    stated, and written (by distillation; gate 0.66) — <https://discord.com/channels/1/2/101>');
    expect(content).toContain('now: confidence 0.79, 0.78 after decay');
    expect(content).toContain('No longer in memory: ^r-bbbbbb');
    expect(assistant.whyAsked).toEqual([{ ids: ['r-aaaaaa', 'r-bbbbbb'] }]);

    const gone = await firstCallback(h, h.fake.pressButton(h.general, h.alice, reply, 'why:r-cccccc'));
    expect(String((gone.data as Json).content)).toContain('no longer in memory');
    const forged = await firstCallback(h, h.fake.pressButton(h.general, h.alice, reply, 'why:Sarah leads design'));
    expect(String((forged.data as Json).content)).toContain('not one I can read');
    expect(assistant.whyAsked).toHaveLength(2); // the forged id was never looked up

    const asked = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('why', [{ type: 3, name: 'fact', value: 'head of design' }]));
    const deferred = await firstCallback(h, asked);
    expect(deferred.type).toBe(5);
    expect(Number((deferred.data as Json).flags) & EPHEMERAL).toBe(EPHEMERAL);
    await h.fake.waitFor(() => asked.original?.content, 5000, 'why edit');
    expect(String(asked.original!.content)).toContain('“Is head of design at Acme.”');
    expect(assistant.whyAsked[2]).toEqual({ query: 'head of design' });

    // a reply that used no record has no why? button
    h.fake.postMessage(h.general, h.alice, 'hello');
    const plain = await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id)[1], 5000, 'second reply');
    expect(plain.components ?? []).toEqual([]);
  });

  it('/memory candidates lists what waits with score and message; promote: promotes it', async () => {
    const assistant = new FakeAssistant();
    assistant.candidates = [waitingCandidate('c-0badf00d')];
    const h = await startHarness({ assistant });
    const list = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'memory', subcommand('candidates')));
    const content = String((list.data as Json).content);
    expect(Number((list.data as Json).flags) & EPHEMERAL).toBe(EPHEMERAL);
    expect(content).toContain('`c-0badf00d` **Bob**: Is moving to Porto.');
    expect(content).toContain('> Bob said something about Porto');
    expect(content).toContain('score 0.51 · expires 2026-11-18');
    const promote = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'memory', subcommand('candidates', [{ type: 3, name: 'promote', value: 'c-0badf00d' }])));
    expect(String((promote.data as Json).content)).toContain('Promoted `c-0badf00d`');
    expect(assistant.candidates).toEqual([]);
    const empty = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'memory', subcommand('candidates')));
    expect(String((empty.data as Json).content)).toBe('Nothing waits for promotion.');
  });

  it('/memory review shows a pair with keep new / keep old / keep both / hold; a press resolves it', async () => {
    const assistant = new FakeAssistant();
    assistant.reviews = [disagreeingPair()];
    const h = await startHarness({ assistant });
    const rec = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('review'));
    const cb = await firstCallback(h, rec);
    const data = cb.data as Json;
    expect(String(data.content)).toContain('**old** (said 2026-06-01): Works at Acme.');
    expect(String(data.content)).toContain('**new** (said 2026-07-01): Joined Globex.');
    const buttons = ((data.components as Json[])[0]!.components as Json[]).map((b) => [String(b.label), String(b.custom_id)]);
    expect(buttons).toEqual([
      ['Keep new', 'memory-review:keep-new:r-bbbbbb'],
      ['Keep old', 'memory-review:keep-old:r-bbbbbb'],
      ['Keep both', 'memory-review:keep-both:r-bbbbbb'],
      ['Hold', 'memory-review:hold:r-bbbbbb'],
    ]);
    const press = await firstCallback(h, h.fake.pressButton(h.general, h.alice, rec.original!, 'memory-review:keep-new:r-bbbbbb'));
    expect(press.type).toBe(7);
    expect(String((press.data as Json).content)).toContain('Keep new: done');
    expect(String((press.data as Json).content)).toContain('Nothing is in review.');
    expect(assistant.resolved).toEqual([{ id: 'r-bbbbbb', choice: 'keep-new' }]);
  });

  it('/memory reflect answers with the report; /memory restore puts a kept version back', async () => {
    const assistant = new FakeAssistant();
    assistant.versions = [{ page: 'People/Sarah-Chen.md', version: '2026-11-30T14-00-00.000Z', file: '.history/notes/People/Sarah-Chen.2026-11-30T14-00-00.000Z.md' }];
    const h = await startHarness({ assistant });
    const reflect = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('reflect'));
    await h.fake.waitFor(() => reflect.original?.content, 5000, 'reflect edit');
    expect(reflect.callbacks[0]!.type).toBe(5);
    expect(Number((reflect.callbacks[0]!.data as Json | undefined)?.flags ?? 0) & EPHEMERAL).toBe(EPHEMERAL);
    expect(String(reflect.original!.content)).toContain('Reflection over 2 pages: merged 1, distilled 1 rule, expired 1');
    expect(assistant.reflections).toEqual([`discord:${h.guild.id}:${h.general.id}`]);

    const restore = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'memory', subcommand('restore', [{ type: 3, name: 'page', value: 'People/Sarah-Chen' }])));
    expect(String((restore.data as Json).content)).toContain('Restored `People/Sarah-Chen.md` to its version of 2026-11-30T14-00-00.000Z');
    const none = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'memory', subcommand('restore', [{ type: 3, name: 'page', value: 'People/Bob' }])));
    expect(String((none.data as Json).content)).toContain('Not restored: no earlier version of People/Bob is kept');
  });

  it('with REFLECT_REPORT=channel the report is for the channel: /memory reflect answers openly, a scheduled report is posted', async () => {
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant, services: { reflectReport: 'channel' } });
    const reflect = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('reflect'));
    await h.fake.waitFor(() => reflect.original?.content, 5000, 'reflect edit');
    expect(Number((reflect.callbacks[0]!.data as Json | undefined)?.flags ?? 0) & EPHEMERAL).toBe(0);
    expect(await postToChannel(h.bot.client, h.general.id, '🪞 Reflection over 2 pages: merged 1')).toBe(true);
    expect(h.fake.botMessagesIn(h.general.id).map((m) => m.content)).toContain('🪞 Reflection over 2 pages: merged 1');
    expect(await postToChannel(h.bot.client, '999999999999999999', 'nowhere')).toBe(false);
  });

  it('register-commands puts /memory, /project and /help with their subcommands to a guild', async () => {
    const bare = await startFakeDiscord();
    try {
      const commands = await loadCommands();
      const result = await registerCommands({ token: bare.token, apiUrl: bare.apiUrl, guildId: '123456789012345678', commands });
      expect(result).toMatchObject({ scope: 'guild', applicationId: bare.applicationId });
      const saved = bare.registeredCommands.get('guild:123456789012345678')!;
      const shape = Object.fromEntries(saved.map((c) => [c.name, ((c.options as Json[]) ?? []).filter((o) => o.type === 1).map((o) => o.name)]));
      expect(shape.memory).toEqual(['candidates', 'edit', 'forget', 'ingest', 'reflect', 'restore', 'review', 'search', 'show', 'why']);
      expect(shape.project).toEqual(['distill', 'respond', 'style']);
      expect(shape.help).toEqual([]);
      const global = await registerCommands({ token: bare.token, apiUrl: bare.apiUrl, commands });
      expect(global.scope).toBe('global');
      expect(bare.registeredCommands.get('global')?.length).toBe(saved.length);
    } finally {
      await bare.close();
    }
  });
});
