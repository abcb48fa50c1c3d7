import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { searchPrivate, searchPrivateHybrid } from '../../src/core/private/private-search.js';
import type { LogEntry } from '../../src/core/ports/index.js';
import { ConceptEmbedder } from '../support/concept-embedder.js';
import { tempPrivateStores } from '../support/private-db.js';

const openStore = tempPrivateStores('charlie-private-recall-');
const clock = { now: () => new Date('2026-11-20T10:00:00Z') };
const say = (text: string, role: LogEntry['role'] = 'user'): LogEntry => ({ time: '2026-11-19T09:00:00Z', speaker: role === 'user' ? 'Dana' : 'Charlie', source: 'dm', text, role });
const GROUPS = [
  ['bicycle', 'bike', 'cycle'],
  ['bought', 'buy', 'purchase', 'purchased'],
];

function seed(store: ReturnType<typeof openStore>['privateStore'], user: string) {
  store.appendMessage(user, say('I finally bought a bicycle, a green one from the shop on Elm street.'));
  store.appendMessage(user, say('Nice, enjoy the rides!', 'assistant'));
  store.appendMessage(user, say('The dentist moved my appointment to Thursday morning.'));
  store.appendMessage(user, say('Our neighbours are repainting their fence this weekend.'));
}

const rows = (file: string, user: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM dm_recall WHERE user_id = ?').get(user) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('private (DM) hybrid recall', () => {
  it('a paraphrased question finds the DM message that keyword matching alone misses', async () => {
    const { privateStore, file } = openStore();
    seed(privateStore, 'u1');
    const question = 'What kind of bike did I purchase?';
    // the words-only search of before, and BM25 alone, find nothing
    expect(searchPrivate(privateStore, 'u1', question, 5).map((h) => h.text)).not.toContainEqual(expect.stringContaining('bicycle'));
    const keywordOnly = await searchPrivateHybrid(privateStore, privateStore.recall(null, clock), 'u1', question, 5);
    expect(keywordOnly.map((h) => h.text)).not.toContainEqual(expect.stringContaining('bicycle'));

    const embedder = new ConceptEmbedder(GROUPS);
    const hits = await searchPrivateHybrid(privateStore, privateStore.recall(embedder, clock), 'u1', question, 3);
    expect(hits[0]?.text).toContain('bought a bicycle');
    expect(hits[0]?.why).toContain('vector');
    expect(hits[0]?.parts.keyword).toBe(0);
    // the index lives in private.db, one row per message
    expect(rows(file, 'u1')).toBe(4);
  });

  it('keyword matching is the lexical module: stemmed, stop words dropped', async () => {
    const { privateStore } = openStore();
    seed(privateStore, 'u1');
    const hits = await searchPrivateHybrid(privateStore, privateStore.recall(null, clock), 'u1', 'when was the appointment at the dentists?', 3);
    expect(hits[0]?.text).toContain('dentist moved my appointment');
    expect(hits.map((h) => h.text)).not.toContainEqual(expect.stringContaining('fence'));
  });

  it('vectors are computed once per message and kept in private.db', async () => {
    const { privateStore } = openStore();
    seed(privateStore, 'u1');
    const embedder = new ConceptEmbedder(GROUPS);
    await searchPrivateHybrid(privateStore, privateStore.recall(embedder, clock), 'u1', 'bike', 3);
    const first = embedder.texts.length;
    expect(first).toBe(5); // four messages and the query
    // a new process (a new index over the same file) reads the stored vectors
    await searchPrivateHybrid(privateStore, privateStore.recall(embedder, clock), 'u1', 'fence', 3);
    expect(embedder.texts.length).toBe(first + 1);
  });

  it('a hosted embedder is never given DM text', async () => {
    const { privateStore } = openStore();
    seed(privateStore, 'u1');
    const hosted = new ConceptEmbedder(GROUPS, 'hosted');
    const hits = await searchPrivateHybrid(privateStore, privateStore.recall(hosted, clock), 'u1', 'dentist appointment', 3);
    expect(hosted.texts).toEqual([]);
    expect(hits[0]?.text).toContain('dentist');
  });

  it('usage: a passage retrieved before ranks above an equal one', async () => {
    const { privateStore } = openStore();
    privateStore.appendMessage('u1', say('The spare key is under the blue pot.'));
    privateStore.appendMessage('u1', say('The spare key is under the red pot.'));
    const index = privateStore.recall(null, clock);
    const first = await searchPrivateHybrid(privateStore, index, 'u1', 'red pot key', 1);
    expect(first[0]?.text).toContain('red');
    const hits = await searchPrivateHybrid(privateStore, index, 'u1', 'spare key pot', 2);
    expect(hits[0]?.text).toContain('red');
    expect(hits[0]?.parts.usage).toBeGreaterThan(0);
    expect(hits[1]?.parts.usage).toBe(0);
  });

  it('/private wipe deletes the per-user index; another user keeps theirs', async () => {
    const { privateStore, file } = openStore();
    seed(privateStore, 'u1');
    seed(privateStore, 'u2');
    const index = privateStore.recall(new ConceptEmbedder(GROUPS), clock);
    await searchPrivateHybrid(privateStore, index, 'u1', 'bike', 3);
    await searchPrivateHybrid(privateStore, index, 'u2', 'bike', 3);
    expect(rows(file, 'u1')).toBe(4);
    privateStore.wipe('u1');
    expect(rows(file, 'u1')).toBe(0);
    expect(rows(file, 'u2')).toBe(4);
    // nothing of the wiped conversation is found again, from the file or from memory
    expect(await searchPrivateHybrid(privateStore, index, 'u1', 'What kind of bike did I purchase?', 5)).toEqual([]);
    expect(rows(file, 'u1')).toBe(0);
  });

  it('deleted messages leave the index at once', async () => {
    const { privateStore, file } = openStore();
    seed(privateStore, 'u1');
    const index = privateStore.recall(null, clock);
    await searchPrivateHybrid(privateStore, index, 'u1', 'fence', 3);
    expect(rows(file, 'u1')).toBe(4);
    privateStore.deleteMessages('u1', { lastN: 1 });
    expect(rows(file, 'u1')).toBe(3);
    expect(await searchPrivateHybrid(privateStore, index, 'u1', 'neighbours repainting fence', 3)).toEqual([]);
  });

  it('a typed record is found by its meaning and leaves the index when held', async () => {
    const { privateStore, file } = openStore();
    const records = privateStore.records;
    records.write('u1', { origin: 'test', entities: [{ name: 'Dana', create: true, facts: [{ text: 'Dana purchased a cargo bicycle in October', said: '2026-10-02', source: 'dm' }] }], links: [] });
    const index = privateStore.recall(new ConceptEmbedder(GROUPS), clock);
    const list = () => records.list('u1', clock.now());
    const hits = await searchPrivateHybrid(privateStore, index, 'u1', 'did she buy a bike?', 3, list());
    expect(hits[0]?.page).toBe('private record');
    expect(hits[0]?.text).toContain('cargo bicycle');
    expect(rows(file, 'u1')).toBe(1);
    const id = list()[0]!.id;
    records.review('u1', id, 'hold', '2026-11-20');
    expect(rows(file, 'u1')).toBe(0);
    expect(await searchPrivateHybrid(privateStore, index, 'u1', 'did she buy a bike?', 3, list())).toEqual([]);
  });
});
