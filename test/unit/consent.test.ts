/**
 * Asking in the moment, unit by unit: whose data it is (generated from the role table), one turn's
 * questions (once per item, the ledger answers first, a failing door is no, a person is asked only
 * about what is theirs), and the SQLite ledger (survives reopening, revoke is the owner's, wiped
 * with the DMs, a damaged row is skipped).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { itemLabel, mayConsent, type ConsentAnswer, type ConsentItem, type ConsentRequest } from '../../src/core/privacy/consent.js';
import { TurnConsent } from '../../src/core/privacy/consent-turn.js';
import { may, ROLES } from '../../src/core/roles.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const shared: ConsentItem = { id: 'r-aaaa01', where: 'Trips/Lisbon', name: 'budget', kind: 'financial' };
const annsOwn: ConsentItem = { id: 'r-bbbb02', where: 'People/Ann', name: 'medication', kind: 'phi', subject: 'Ann' };
const bobs: ConsentItem = { id: 'r-cccc03', where: 'People/Bob', name: 'diagnosis', kind: 'phi', subject: 'Bob' };
const byId: ConsentItem = { id: 'dm#1', where: 'your private memory', subject: 'u-42' };
const chat = { kind: 'chat' as const, id: 'gpt@https://api.example/v1' };

describe('whose data it is', () => {
  it.each(ROLES)('%s: a shared item by role; their own always; someone else’s never', (role) => {
    const ann = { id: 'u-42', name: 'Ann', role };
    expect(mayConsent(ann, shared)).toBe(may(role, 'edit-memory'));
    expect(mayConsent(ann, annsOwn)).toBe(true);
    expect(mayConsent({ ...ann, name: 'ann' }, annsOwn)).toBe(true);
    expect(mayConsent(ann, bobs)).toBe(false);
    expect(mayConsent(ann, byId)).toBe(true);
    expect(mayConsent({ id: 'u-7', name: 'Bob', role }, byId)).toBe(false);
  });

  it('an item is named without its content', () => {
    expect(itemLabel(annsOwn)).toBe('People/Ann › medication (health)');
    expect(itemLabel(shared)).toBe('Trips/Lisbon › budget (money)');
    expect(itemLabel({ id: 'x', where: 'project.md' })).toBe('project.md');
  });
});

function ledger() {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-consent-'));
  dirs.push(dir);
  const file = join(dir, 'private.db');
  return { file, store: new SqlitePrivateStore(file) };
}

function turnOf(answer: ConsentAnswer | Error, opts: { mode?: 'ask' | 'withhold'; role?: 'owner' | 'editor' | 'member'; noDoor?: boolean } = {}) {
  const { store } = ledger();
  const asked: ConsentRequest[] = [];
  const notices: string[] = [];
  const consent = new TurnConsent({
    mode: opts.mode ?? 'ask',
    ledger: store.consents,
    timeoutMs: 5000,
    now: () => new Date('2026-12-06T10:00:00Z'),
    signals: [],
    notice: (t) => notices.push(t),
    access: opts.noDoor
      ? undefined
      : {
          person: { id: 'u-42', name: 'Ann', role: opts.role ?? 'member' },
          shared: true,
          ask: (r) => {
            asked.push(r);
            return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
          },
        },
  });
  return { consent, asked, notices, store };
}

const entries = (...items: ConsentItem[]) => items.map((item) => ({ item, text: `the words of ${item.id}` }));

describe('one turn’s questions', () => {
  it('asks only about what is the person’s, once per item and turn, and never shows the words', async () => {
    const t = turnOf('once');
    const ok = await t.consent.decide(entries(annsOwn, bobs, shared), chat);
    expect([...ok]).toEqual([annsOwn.id]);
    expect(t.asked).toHaveLength(1);
    expect(t.asked[0]?.items.map((i) => i.id)).toEqual([annsOwn.id]);
    expect(JSON.stringify(t.asked)).not.toContain('the words of');
    expect([...(await t.consent.decide(entries(annsOwn), chat))]).toEqual([annsOwn.id]);
    expect(t.asked).toHaveLength(1);
    expect([...t.consent.released(chat)]).toEqual([annsOwn.id]);
    expect(t.consent.releasedTexts(chat)).toEqual([`the words of ${annsOwn.id}`]);
    // another service is another question
    await t.consent.decide(entries(annsOwn), { kind: 'chat', id: 'other' });
    expect(t.asked).toHaveLength(2);
  });

  it('an editor is asked about shared items too', async () => {
    const t = turnOf('no', { role: 'editor' });
    expect([...(await t.consent.decide(entries(shared, bobs), chat))]).toEqual([]);
    expect(t.asked[0]?.items.map((i) => i.id)).toEqual([shared.id]);
    // a shared place: the line counts what the question named
    expect(t.notices.join()).toMatch(/held back from the chat model .*: 1 item Ann was asked about/);
  });

  it('withhold mode, no door, or a failing door: nothing is released', async () => {
    for (const t of [turnOf('always', { mode: 'withhold' }), turnOf('always', { noDoor: true })]) {
      expect((await t.consent.decide(entries(annsOwn), chat)).size).toBe(0);
      expect(t.asked).toHaveLength(0);
    }
    const broken = turnOf(new Error('DMs closed'));
    expect((await broken.consent.decide(entries(annsOwn), chat)).size).toBe(0);
    expect(await broken.store.consents.list('u-42')).toEqual([]);
  });

  it('always is kept and answers the next turn without asking', async () => {
    const t = turnOf('always');
    await t.consent.decide(entries(annsOwn), chat);
    expect(await t.store.consents.allows('u-42', annsOwn.id, chat)).toBe(true);
    const next = new TurnConsent({
      mode: 'ask',
      ledger: t.store.consents,
      timeoutMs: 5000,
      now: () => new Date(),
      signals: [],
      notice: () => {},
      access: { person: { id: 'u-42', name: 'Ann', role: 'member' }, shared: false, ask: () => Promise.reject(new Error('must not ask')) },
    });
    expect([...(await next.decide(entries(annsOwn), chat))]).toEqual([annsOwn.id]);
  });
});

describe('the ledger in private.db', () => {
  it('survives reopening; revoke is the owner’s, once only; wiped with the DMs', async () => {
    const { file, store } = ledger();
    const g = await store.consents.record('u-42', annsOwn, chat, 'always', '2026-12-06T10:00:00.000Z');
    await store.consents.record('u-42', annsOwn, chat, 'once', '2026-12-06T09:00:00.000Z');
    await store.consents.record('u-7', bobs, chat, 'always', '2026-12-06T10:00:00.000Z');
    store.close();
    const again = new SqlitePrivateStore(file);
    expect((await again.consents.list('u-42')).map((x) => [x.answer, x.item])).toEqual([
      ['always', annsOwn],
      ['once', annsOwn],
    ]);
    expect(await again.consents.revoke('u-7', g.id, '2026-12-07T00:00:00.000Z')).toBe(false);
    expect(await again.consents.revoke('u-42', g.id, '2026-12-07T00:00:00.000Z')).toBe(true);
    expect(await again.consents.revoke('u-42', g.id, '2026-12-07T00:00:00.000Z')).toBe(false);
    expect(await again.consents.allows('u-42', annsOwn.id, chat)).toBe(false);
    expect((await again.consents.list('u-42'))[0]?.revoked).toBe('2026-12-07T00:00:00.000Z');
    again.wipe('u-42');
    expect(await again.consents.list('u-42')).toEqual([]);
    expect(await again.consents.allows('u-7', bobs.id, chat)).toBe(true);
    again.close();
  });
});

describe('a ledger that cannot be read', () => {
  it('releases nothing and says so', async () => {
    const notices: string[] = [];
    const broken = {
      list: () => Promise.reject(new Error('private.db is damaged')),
      record: () => Promise.reject(new Error('private.db is damaged')),
      revoke: () => Promise.reject(new Error('private.db is damaged')),
      allows: () => Promise.reject(new Error('private.db is damaged')),
    };
    const consent = new TurnConsent({
      mode: 'ask',
      ledger: broken,
      timeoutMs: 5000,
      now: () => new Date(),
      signals: [],
      notice: (t) => notices.push(t),
      access: { person: { id: 'u-42', name: 'Ann', role: 'member' }, shared: false, ask: () => Promise.resolve('once') },
    });
    expect((await consent.decide(entries(annsOwn), chat)).size).toBe(0);
    expect(consent.released(chat).size).toBe(0);
    expect(notices.join()).toMatch(/could not be read .*private.db is damaged.*nothing marked sensitive was sent/);
  });
});
