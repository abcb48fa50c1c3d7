/**
 * Who may change shared memory, through the real discord.js client and the fake Discord:
 * an allowed user without Manage Server (bob) may read but not edit, forget, restyle,
 * re-set or distil; the check repeats when a button is pressed or a modal submitted.
 */
import { describe, expect, it } from 'vitest';
import { botHarnesses, EPHEMERAL, firstCallback, subcommand } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';
import { FakeAssistant } from '../support/fake-assistant.js';

const startHarness = botHarnesses();

function refusal(cb: Json): string {
  const data = cb.data as Json;
  expect(cb.type).toBe(4);
  expect(Number(data.flags) & EPHEMERAL).toBe(EPHEMERAL);
  return String(data.content);
}

describe('changing shared memory needs an editor', () => {
  it('refuses every editing command to a non-editor, ephemerally and saying why; reading stays open', async () => {
    const assistant = new FakeAssistant();
    assistant.notes = [{ path: 'Topics/Tent.md', title: 'Tent', tags: [], updated: '2026-11-01', body: 'The blue tent.', aliases: [], staleness: 3, confidence: 0.8, sensitivity: 'public' }];
    const h = await startHarness({ assistant });
    const key = `discord:${h.guild.id}:${h.general.id}`;
    const attempts: [string, ReturnType<typeof subcommand>][] = [
      ['project', subcommand('style', [{ type: 3, name: 'text', value: 'pirate' }])],
      ['project', subcommand('respond', [{ type: 3, name: 'when', value: 'mention' }])],
      ['project', subcommand('distill')],
      ['memory', subcommand('forget', [{ type: 3, name: 'item', value: 'note:Topics/Tent.md' }])],
      ['memory', subcommand('edit')],
    ];
    for (const [name, options] of attempts) {
      const text = refusal(await firstCallback(h, h.fake.runCommand(h.general, h.bob, name, options)));
      expect(text).toMatch(/Only Charlie's owner, someone with \*\*Manage Server\*\*.*can change this channel's shared memory/);
    }
    expect(assistant.layersByPlace.get(key)?.style ?? '').toBe('');
    expect(assistant.respond.get(key)).toBeUndefined();
    expect(assistant.forgets).toEqual([]);
    expect(assistant.notes).toHaveLength(1);

    const show = await firstCallback(h, h.fake.runCommand(h.general, h.bob, 'memory', subcommand('show')));
    expect(String((show.data as Json).content)).toContain('Memory of general');

    // the same commands work for an editor (Manage Server) and for the owner
    const style = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'project', subcommand('style', [{ type: 3, name: 'text', value: 'pirate' }])));
    expect(String((style.data as Json).content)).toContain('pirate');
    const forget = await firstCallback(h, h.fake.runCommand(h.general, h.fake.owner, 'memory', subcommand('forget', [{ type: 3, name: 'item', value: 'note:Topics/Tent.md' }])));
    expect(String((forget.data as Json).content)).toContain('Forgot note Topics/Tent.md');
    expect(assistant.forgets).toMatchObject([{ target: { kind: 'note', path: 'Topics/Tent.md' }, by: 'owner' }]);
  });

  it('a button or modal shown to an editor is checked again when someone else uses it', async () => {
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant });
    const key = `discord:${h.guild.id}:${h.general.id}`;
    const shown = h.fake.runCommand(h.general, h.alice, 'memory', subcommand('show'));
    const cb = await firstCallback(h, shown);
    const rows = (cb.data as Json).components as Json[];
    const edit = rows.flatMap((r) => r.components as Json[]).find((b) => b.custom_id === 'memory-edit:open');
    expect(edit).toBeDefined();
    const message = { id: 'm1', channel_id: h.general.id, content: '', components: rows };

    const pressedByBob = await firstCallback(h, h.fake.pressButton(h.general, h.bob, message, 'memory-edit:open'));
    expect(refusal(pressedByBob)).toMatch(/can change this channel's shared memory/);
    const submittedByBob = await firstCallback(h, h.fake.submitModal(h.general, h.bob, 'memory-edit:save', { summary: 'hijacked' }));
    expect(refusal(submittedByBob)).toMatch(/Manage Server/);
    expect(assistant.edits).toEqual([]);

    const pressedByAlice = await firstCallback(h, h.fake.pressButton(h.general, h.alice, message, 'memory-edit:open'));
    expect(pressedByAlice.type).toBe(9); // the modal opens
    await firstCallback(h, h.fake.submitModal(h.general, h.alice, 'memory-edit:save', { summary: 'Camping in May' }));
    expect(assistant.layersByPlace.get(key)?.summary).toBe('Camping in May');
  });

  it('the editor role from DISCORD_MEMORY_EDITOR_ROLE may edit', async () => {
    const assistant = new FakeAssistant();
    const h = await startHarness({ assistant, guildRoles: [{ id: '990011223344556677', name: 'memory keepers' }], config: { DISCORD_MEMORY_EDITOR_ROLE: 'memory keepers' } });
    const refused = await firstCallback(h, h.fake.runCommand(h.general, h.bob, 'project', subcommand('style', [{ type: 3, name: 'text', value: 'brief' }])));
    expect(refusal(refused)).toContain('the **memory keepers** role');
    h.bob.roles = ['990011223344556677'];
    const style = await firstCallback(h, h.fake.runCommand(h.general, h.bob, 'project', subcommand('style', [{ type: 3, name: 'text', value: 'brief' }])));
    expect(String((style.data as Json).content)).toContain('brief');
  });
});
