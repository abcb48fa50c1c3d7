/**
 * Conversations over HTTP: a project's single conversation of before is its first one; a new one
 * is made, titled by its first message, renamed, listed and deleted (the first cannot be); the
 * model reads only the conversation it answers in; editing an older message and regenerating an
 * answer keep the alternatives, and choosing one shows its branch; search finds messages in every
 * conversation, naming which.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longConversation } from '../support/web-demo-data.js';
import { startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

let f: WebFixture;
const asked: string[][] = [];
let answers = 0;
const bearer = { authorization: `Bearer ${TOKEN}` };

interface Shown {
  role: string;
  text: string;
  source: string;
  alts?: { index: number; count: number; prev?: string; next?: string };
}
interface Item {
  id: string;
  title: string;
  messages: number;
  first: boolean;
}

beforeAll(async () => {
  f = await startWebFixture({
    files: longConversation(6),
    script: (req: { messages: { role: string; content: unknown }[] }) => {
      asked.push(req.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))));
      return { text: `Answer ${++answers}.` };
    },
  });
}, 60_000);
afterAll(async () => f.close());

const call = async (method: string, path: string, body?: unknown) =>
  fetch(`${f.web.url}/api/projects/long${path}`, { method, headers: { ...bearer, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
const json = async <T>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
  const res = await call(method, path, body);
  expect(res.status, `${method} ${path}`).toBe(status);
  return (await res.json()) as T;
};
const send = async (body: Record<string, unknown>) => {
  const res = await call('POST', '/messages', body);
  expect(res.status).toBe(200);
  await res.text(); // the turn, to its end
};
const shown = async (conversation: string) => (await json<{ messages: Shown[] }>('GET', `/messages?conversation=${conversation}&limit=500`)).messages;
const list = async () => (await json<{ conversations: Item[] }>('GET', '/conversations')).conversations;

describe('conversations', () => {
  let trip = '';

  it('lists the conversation of before as the first one, with all its messages', async () => {
    const all = await list();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: 'main', first: true, messages: 6 });
    expect((await shown('main')).map((m) => m.text)[0]).toBe('Message 1 of 6: where it all began.');
  });

  it('makes a conversation, titles it by its first message, and the model reads only it', async () => {
    const made = await json<Item>('POST', '/conversations', undefined, 201);
    trip = made.id;
    expect(made.title).toBe('New conversation');
    await send({ conversation: trip, text: 'Plan the trip to Lisbon in May, with the train and the hotels near the river' });
    const model = asked.at(-1)!.join('\n');
    expect(model).toContain('Lisbon');
    expect(model).not.toContain('Message 6 of 6.');
    const item = (await list()).find((c) => c.id === trip);
    expect(item?.title).toBe('Plan the trip to Lisbon in May, with the train and the…');
    expect(item?.messages).toBe(2);
    // the first conversation does not show it
    expect((await shown('main')).some((m) => m.text.includes('Lisbon'))).toBe(false);
    await send({ conversation: trip, text: 'Which day do we leave?' });
    expect(asked.at(-1)!.join('\n')).toContain('Lisbon');
  });

  it('renames a conversation; an automatic title never replaces a given one', async () => {
    await json('PATCH', `/conversations/${trip}`, { title: '  Lisbon   trip ' });
    expect((await list()).find((c) => c.id === trip)?.title).toBe('Lisbon trip');
    expect((await call('PATCH', `/conversations/${trip}`, { title: '' })).status).toBe(400);
    expect((await call('PATCH', '/conversations/nosuch', { title: 'x' })).status).toBe(404);
  });

  it('edits an older message into a new branch and regenerates an answer, keeping the alternatives', async () => {
    const before = await shown(trip);
    const first = before[0]!;
    await send({ conversation: trip, text: 'Plan the trip to Porto instead', replaces: first.source });
    let now = await shown(trip);
    // the edit is a new branch: what followed the old message is not shown
    expect(now.map((m) => m.text)).toEqual(['Plan the trip to Porto instead', expect.stringMatching(/^Answer \d+\.$/)]);
    expect(now[0]!.alts).toMatchObject({ index: 2, count: 2, prev: first.source });
    // the model did not read the branch it left
    expect(asked.at(-1)!.join('\n')).not.toContain('Which day');
    // regenerate the answer: the same question again, a third alternative
    const answer = now[1]!.text;
    await send({ conversation: trip, text: '', regenerates: now[0]!.source });
    now = await shown(trip);
    expect(now.map((m) => m.text)[0]).toBe('Plan the trip to Porto instead');
    expect(now[1]!.text).not.toBe(answer);
    expect(now[1]!.alts).toMatchObject({ index: 3, count: 3 });
    // back to the first alternative: its whole branch is shown again
    await json('POST', `/conversations/${trip}/choose`, { source: first.source });
    now = await shown(trip);
    expect(now.map((m) => m.text)).toEqual([before[0]!.text, before[1]!.text, before[2]!.text, before[3]!.text]);
    expect(now[0]!.alts).toMatchObject({ index: 1, count: 3 });
  });

  it('refuses to edit a message that is not in the conversation, or not one’s own', async () => {
    expect((await call('POST', '/messages', { conversation: trip, text: 'x', replaces: 'web:1' })).status).toBe(409);
    const theirs = (await shown('main')).find((m) => m.role === 'user')!; // Dana's, not the owner's
    expect((await call('POST', '/messages', { text: 'x', replaces: theirs.source })).status).toBe(409);
    expect((await call('POST', '/messages', { conversation: 'nosuch', text: 'x' })).status).toBe(404);
  });

  it('searches every conversation and says which holds each hit', async () => {
    const { hits } = await json<{ hits: { conversation: string; title: string; snippet: string }[] }>('GET', '/conversations/search?q=porto');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ conversation: trip, title: 'Lisbon trip' });
    const both = await json<{ hits: { conversation: string }[] }>('GET', '/conversations/search?q=message');
    expect(new Set(both.hits.map((h) => h.conversation))).toEqual(new Set(['main']));
    const lisbon = await json<{ hits: { conversation: string }[] }>('GET', '/conversations/search?q=lisbon');
    expect(lisbon.hits.map((h) => h.conversation)).toEqual([trip]);
  });

  it('keeps conversations in the private chat too, apart from the project’s', async () => {
    const me = async (method: string, path: string, body?: unknown) =>
      fetch(`${f.web.url}/api/projects/%40me${path}`, { method, headers: { ...bearer, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const made = (await (await me('POST', '/conversations')).json()) as Item;
    const sent = await me('POST', '/messages', { conversation: made.id, text: 'My passport expires in March' });
    expect(sent.status).toBe(200);
    await sent.text();
    const page = (await (await me('GET', `/messages?conversation=${made.id}`)).json()) as { messages: Shown[] };
    expect(page.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const mine = (await (await me('GET', '/conversations')).json()) as { conversations: Item[] };
    // titled by its day, not its first message: a private message stays in private.db only
    expect(mine.conversations.map((c) => c.title)).toEqual(['Main conversation', `Conversation of ${new Date().toISOString().slice(0, 10)}`]);
    const kept = join(f.dataDir, 'web', 'conversations');
    expect(readdirSync(kept).length).toBeGreaterThan(0);
    expect(
      readdirSync(kept)
        .map((n) => readFileSync(join(kept, n), 'utf8'))
        .join('\n'),
    ).not.toContain('passport');
    expect((await list()).some((c) => c.id === made.id)).toBe(false);
    // a secret in a first message never becomes a title
    const other = (await (await me('POST', '/conversations')).json()) as Item;
    await (await me('POST', '/messages', { conversation: other.id, text: 'my key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' })).text();
    const titles = ((await (await me('GET', '/conversations')).json()) as { conversations: Item[] }).conversations.map((c) => c.title);
    expect(titles.join(' ')).not.toContain('abcdefghijklmnop');
  });

  it('deletes a conversation (not the first) and it leaves the list, the chat and search', async () => {
    expect((await call('DELETE', '/conversations/main')).status).toBe(400);
    const gone = await json<{ messages: number }>('DELETE', `/conversations/${trip}`);
    expect(gone.messages).toBeGreaterThan(4);
    expect((await list()).map((c) => c.id)).toEqual(['main']);
    expect((await call('GET', `/messages?conversation=${trip}`)).status).toBe(404);
    expect((await json<{ hits: unknown[] }>('GET', '/conversations/search?q=lisbon')).hits).toEqual([]);
    expect((await shown('main')).some((m) => m.text.includes('Lisbon'))).toBe(false);
  });
});
