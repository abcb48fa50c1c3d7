/**
 * DM memory gets the same typed records as a project's pages, in private.db (never Markdown),
 * behind the same promotion gate: chit-chat never, "remember that" at once, a passing mention
 * waits (and `/memory candidates` in the DM shows it); a contradiction puts both records into
 * review, keep new supersedes the old one with a date and takes it out of search; hold keeps a
 * record out of search; a sensitive record is on the egress guard's list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { PROMOTE_AT } from '../../src/core/writing/gate-factors.js';
import type { Place } from '../../src/core/place.js';
import { sensitiveRecords } from '../../src/core/privacy/sensitive-records.js';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';
import { makeAssistant } from '../support/assistant-fixture.js';
import { tempPrivateStores } from '../support/private-db.js';
import { FixedClock, InMemoryProjectStore, ScriptedChatModel } from '../support/fakes.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const dana: Place = { kind: 'private', userId: '1001', userName: 'Dana' };
const DAY = 86_400_000;

interface Fact {
  entity: string;
  text: string;
  message: number;
  type?: string;
}

const newPrivateStore = tempPrivateStores('charlie-dm-records-');

function setup() {
  const { privateStore, file } = newPrivateStore();
  /** What the memory model proposes at the next distillation. */
  let next: Fact[] = [];
  const memory = new ScriptedChatModel(() => ({ text: JSON.stringify({ summary: 'Dana talks about Sarah.', decisions: [], quotes: [], entities: [], facts: next, links: [] }) }));
  const store = new InMemoryProjectStore();
  const clock = new FixedClock(new Date('2026-06-01T10:00:00Z'));
  const { assistant } = makeAssistant({ model: memory, memoryModel: memory, store, privateStore, privateRecords: privateStore.records, clock });
  let n = 0;
  const say = async (text: string) => {
    n++;
    await assistant.conversation.handle({ place: dana, speaker: 'Dana', text, source: `dm:m${n}`, reply: false });
    return `dm:m${n}`;
  };
  const distil = async (facts: Fact[]) => {
    next = facts;
    await assistant.memory.distillNow(dana);
  };
  const records = () => privateStore.records.list('1001', clock.now());
  return { assistant, privateStore, store, clock, file, say, distil, records };
}

describe('DM records in private.db', () => {
  it('go through the promotion gate: chit-chat never, "remember that" at once, a passing mention waits and can be promoted', async () => {
    const t = setup();
    const remember = await t.say('Remember that Sarah works at Acme');
    await t.say('hi!');
    await t.say('we chatted about the weather, Tom bakes bread');
    await t.distil([
      { entity: 'Sarah', text: 'Works at Acme.', message: 1, type: 'identity' },
      { entity: 'Dana', text: 'hi!', message: 2 },
      { entity: 'Tom', text: 'Bakes sourdough bread every weekend.', message: 3, type: 'preference' },
    ]);
    const [acme, ...others] = t.records();
    expect(others).toEqual([]);
    expect(acme).toMatchObject({
      entity: 'Sarah',
      statement: 'Works at Acme.',
      category: 'identity',
      source: remember,
      via: 'chat',
      confidence: 1,
      sensitivity: 'personal',
      status: 'active',
      said: '2026-06-01',
    });
    expect(acme?.id).toMatch(/^r-[0-9a-f]{6}$/);

    const waiting = await t.assistant.memory.memoryCandidates(dana);
    expect(waiting.map((c) => [c.entity, c.fact.text])).toEqual([['Tom', 'Bakes sourdough bread every weekend.']]);
    expect(waiting[0]?.score).toBeLessThan(PROMOTE_AT);
    expect(await t.assistant.memory.promoteCandidate(dana, waiting[0]?.key ?? 'none')).toBe(true);
    expect(await t.assistant.memory.memoryCandidates(dana)).toEqual([]);
    expect(t.records().find((r) => r.entity === 'Tom')).toMatchObject({ statement: 'Bakes sourdough bread every weekend.', confidence: 1, category: 'preference' });

    // none of it reached Markdown: the DM made no project, and the rows are in private.db
    expect(t.store.projects.size).toBe(0);
    const db = new DatabaseSync(t.file, { readOnly: true });
    try {
      expect(db.prepare('SELECT statement FROM dm_records WHERE user_id = ? ORDER BY rowid').all('1001')).toEqual([
        { statement: 'Works at Acme.' },
        { statement: 'Bakes sourdough bread every weekend.' },
      ]);
    } finally {
      db.close();
    }
  });

  it('"Sarah works at Acme", later "Sarah joined Globex": both in review; keep new supersedes Acme with a date, out of search; hold hides Globex', async () => {
    const t = setup();
    await t.say('Remember that Sarah works at Acme');
    await t.distil([{ entity: 'Sarah', text: 'Works at Acme.', message: 1, type: 'identity' }]);
    t.clock.advance(30 * DAY);
    await t.say('Sarah joined Globex as head of design');
    await t.distil([{ entity: 'Sarah', text: 'Joined Globex as head of design.', message: 1, type: 'identity' }]);

    const [acme, globex] = t.records();
    expect(acme).toMatchObject({ statement: 'Works at Acme.', status: 'review', vs: globex?.id });
    expect(globex).toMatchObject({ statement: 'Joined Globex as head of design.', status: 'review', vs: acme?.id, confidence: 0.79, said: '2026-07-01' });
    const pairs = await t.assistant.memory.reviewList(dana);
    expect(pairs.map((p) => [p.title, p.old.statement, p.new.statement])).toEqual([['Sarah', 'Works at Acme.', 'Joined Globex as head of design.']]);
    const before = await t.assistant.memory.searchMemory(dana, 'where does Sarah work, Acme or Globex?');
    expect(before.filter((h) => h.page === 'private record').map((h) => h.why.includes('review'))).toEqual([true, true]);

    t.clock.advance(DAY);
    expect(await t.assistant.memory.resolveReview(dana, globex?.id ?? '', 'keep-new')).toBe(true);
    const [acmeAfter, globexAfter] = t.records();
    expect(acmeAfter).toMatchObject({ status: 'superseded', superseded: '2026-07-02' });
    expect(globexAfter).toMatchObject({ status: 'active', vs: '' });
    expect(await t.assistant.memory.reviewList(dana)).toEqual([]);
    const after = await t.assistant.memory.searchMemory(dana, 'where does Sarah work, Acme or Globex?');
    const typed = after.filter((h) => h.page === 'private record').map((h) => h.text);
    expect(typed.some((x) => x.includes('Acme'))).toBe(false);
    expect(typed.some((x) => x.includes('Globex'))).toBe(true);

    expect(await t.assistant.memory.resolveReview(dana, globex?.id ?? '', 'hold')).toBe(true);
    const held = await t.assistant.memory.searchMemory(dana, 'Sarah Globex head of design');
    expect(held.filter((h) => h.page === 'private record')).toEqual([]);
    // another place cannot reach these records
    expect(await t.assistant.memory.resolveReview({ kind: 'private', userId: '2002', userName: 'Eve' }, globex?.id ?? '', 'keep-both')).toBe(false);
  });

  it('a sensitive record is on the egress guard list; wipe removes every record, its history and every candidate', async () => {
    const t = setup();
    await t.say('Remember that I take medication for migraines');
    await t.say('my cousin mentioned that Lea plays chess');
    await t.distil([
      { entity: 'Dana', text: 'Takes medication for migraines.', message: 1, type: 'identity' },
      { entity: 'Lea', text: 'Plays competitive chess in a weekend club.', message: 2 },
    ]);
    expect(t.records().map((r) => [r.statement, r.sensitivity])).toEqual([['Takes medication for migraines.', 'sensitive/phi']]);
    const list = await sensitiveRecords(new InMemoryProjectStore(), () => new Date(), t.privateStore, t.privateStore.records).list({ kind: 'private', userId: '1001' });
    expect(list.map((r) => r.text)).toContain('Takes medication for migraines.');
    expect(await t.assistant.memory.memoryCandidates(dana)).toHaveLength(1);
    const ids = t.records().map((r) => r.id);
    expect(t.privateStore.records.history('1001', ids).map((e) => e.kind)).toEqual(['added']);
    expect(await t.assistant.private.wipePrivate(dana)).toBe(true);
    expect(t.records()).toEqual([]);
    expect(t.privateStore.records.history('1001', ids)).toEqual([]);
    expect(await t.assistant.memory.memoryCandidates(dana)).toEqual([]);
  });
});

describe('private.db migration', () => {
  it('opens a private.db of schema 1 (no sensitivity column, no records): old rows stay readable, records work, reopening is a no-op', () => {
    const dir = mkdtempSync(join(tmpdir(), 'charlie-dm-migrate-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'private.db');
    const old = new DatabaseSync(file);
    old.exec(`
      CREATE TABLE dm_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, time TEXT NOT NULL, speaker TEXT NOT NULL,
        source TEXT NOT NULL, text TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('user', 'assistant')));
      CREATE TABLE dm_memory (user_id TEXT PRIMARY KEY, summary TEXT NOT NULL DEFAULT '', decisions TEXT NOT NULL DEFAULT '[]', quotes TEXT NOT NULL DEFAULT '[]',
        distilled_through INTEGER NOT NULL DEFAULT 0, style TEXT NOT NULL DEFAULT '', updated TEXT NOT NULL);
      CREATE TABLE dm_tombstones (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, kind TEXT NOT NULL, description TEXT NOT NULL, keys TEXT NOT NULL, time TEXT NOT NULL, by TEXT NOT NULL);
      INSERT INTO dm_messages (user_id, time, speaker, source, text, role) VALUES ('1001', '2026-05-01T09:00:00.000Z', 'Dana', 'dm:1', 'an old message', 'user');
      INSERT INTO dm_memory (user_id, summary, distilled_through, updated) VALUES ('1001', 'An old summary.', 1, '2026-05-01');
    `);
    old.close();

    const store = new SqlitePrivateStore(file);
    expect(store.problem).toBeNull();
    expect(store.recentMessages('1001', 5).map((e) => e.text)).toEqual(['an old message']);
    expect(store.readLayers('1001')).toMatchObject({ summary: 'An old summary.', distilledThrough: 1 });
    const write = { origin: 'test', links: [], entities: [{ name: 'Sarah', create: true, facts: [{ text: 'Works at Acme.', type: 'identity', said: '2026-06-01', source: 'dm:2' }] }] };
    expect(store.records.write('1001', write).factsAdded).toBe(1);
    store.close();

    const again = new SqlitePrivateStore(file);
    cleanups.push(() => again.close());
    expect(again.records.list('1001', new Date('2026-06-02T00:00:00Z')).map((r) => r.statement)).toEqual(['Works at Acme.']);
    expect(again.recentMessages('1001', 5)).toHaveLength(1);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 4 });
    } finally {
      db.close();
    }
  });

  it('a record written before a record took its message label (stored personal) takes the label of its DM at the next open (seventh sweep)', async () => {
    const t = setup();
    // a DM the precheck labelled when it was archived: words no rule knows
    await t.assistant.conversation.handle({ place: dana, speaker: 'Dana', text: 'Remember that Rowan has been gouching on the sofa by noon', source: 'dm:gear', reply: false });
    const plain = await t.say('Remember that Rowan likes climbing');
    await t.distil([
      { entity: 'Rowan', text: 'Uses again.', message: 1 },
      { entity: 'Rowan', text: 'Likes climbing.', message: 2, type: 'preference' },
    ]);
    t.privateStore.close();
    // as the code before stored it: the message labelled, its record not
    const db = new DatabaseSync(t.file);
    db.prepare("UPDATE dm_messages SET sensitivity = 'sensitive' WHERE source = 'dm:gear'").run();
    db.prepare("UPDATE dm_records SET sensitivity = 'personal'").run();
    db.close();
    const reopened = new SqlitePrivateStore(t.file);
    try {
      const bySource = Object.fromEntries(reopened.records.list('1001', t.clock.now()).map((r) => [r.source, r.sensitivity]));
      expect(bySource).toEqual({ 'dm:gear': 'sensitive', [plain]: 'personal' });
    } finally {
      reopened.close();
    }
  });
});
