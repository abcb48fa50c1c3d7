/**
 * `/privacy consents` and `/privacy revoke id` on the real discord.js client against the fake
 * Discord server: each person sees and ends only their own answers to "ask in the moment",
 * in a server channel or a DM, and only they see the reply.
 */
import { describe, expect, it } from 'vitest';
import type { ConsentGrant, ConsentItem } from '../../src/core/privacy/consent.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { botHarnesses, EPHEMERAL, firstCallback, subcommand } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';

const start = botHarnesses();

const medication: ConsentItem = { id: 'r-med001', where: 'People/Alice', name: 'medication', kind: 'phi', subject: 'alice' };
const salary: ConsentItem = { id: 'r-pay001', where: 'People/Alice', name: 'salary', kind: 'financial', subject: 'alice' };
const SERVICE = { kind: 'chat', id: 'gpt-4o@api.openai.com' } as const;

describe('/privacy consents and /privacy revoke', () => {
  const grant = (id: string, userId: string, item: ConsentItem, answer: ConsentGrant['answer']): ConsentGrant => ({ id, userId, item, service: SERVICE, answer, at: '2026-12-01T10:00:00.000Z' });

  it('each person sees and revokes only their own answers; the reply is only theirs to see', async () => {
    const assistant = new FakeAssistant();
    const h = await start({ assistant });
    assistant.privacy.mode = 'ask';
    const bobs = { ...grant('c-bob00001', h.bob.id, { ...salary, where: 'People/Bob', subject: 'bob' }, 'always') };
    assistant.privacy.grants.push(grant('c-ali00001', h.alice.id, medication, 'always'), grant('c-ali00002', h.alice.id, salary, 'once'), bobs);

    const listed = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'privacy', subcommand('consents')));
    expect(listed).toMatchObject({ type: 4, data: { flags: EPHEMERAL } });
    const text = String((listed.data as Json).content);
    expect(text).toContain('consent: ask');
    expect(text).toContain('c-ali00001');
    expect(text).toContain('People/Alice › medication (health)');
    expect(text).toContain('1 standing, 2 answer(s)');
    expect(text).not.toContain('c-bob00001');
    expect(text).not.toContain('People/Bob');

    // Alice cannot end Bob's "always", even with its id
    const foreign = await firstCallback(h, h.fake.runCommand(h.general, h.alice, 'privacy', subcommand('revoke', [{ type: 3, name: 'id', value: 'c-bob00001' }])));
    expect(String((foreign.data as Json).content)).toContain('You have no standing "always" with the id c-bob00001');
    expect(bobs.revoked).toBeUndefined();

    const own = await firstCallback(h, h.fake.runCommand(h.fake.dmChannel(h.alice), h.alice, 'privacy', subcommand('revoke', [{ type: 3, name: 'id', value: 'c-ali00001' }])));
    expect(own).toMatchObject({ type: 4, data: { flags: EPHEMERAL } });
    expect(String((own.data as Json).content)).toContain('Revoked c-ali00001');
    expect(assistant.privacy.grants.find((g) => g.id === 'c-ali00001')!.revoked).toBeDefined();

    const bobList = await firstCallback(h, h.fake.runCommand(h.general, h.bob, 'privacy', subcommand('consents')));
    const bobText = String((bobList.data as Json).content);
    expect(bobText).toContain('c-bob00001');
    expect(bobText).not.toContain('c-ali0000');
  }, 60_000);
});
