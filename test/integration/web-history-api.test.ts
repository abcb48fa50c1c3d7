/**
 * Paging the chat history: `GET …/messages?limit=&before=` walks a 500-message conversation from
 * its newest page to its first message, each message once and in order; a message written while
 * paging does not shift the pages; bad query parameters are refused with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longConversation } from '../support/web-demo-data.js';
import { startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

let f: WebFixture;
const bearer = { authorization: `Bearer ${TOKEN}` };

interface Page {
  messages: { text: string; role: string }[];
  before: string | null;
}

beforeAll(async () => {
  f = await startWebFixture({ files: longConversation(500), script: () => ({ text: 'A new reply.' }) });
}, 60_000);
afterAll(async () => f.close());

const get = async (query: string) => fetch(`${f.web.url}/api/projects/long/messages${query}`, { headers: bearer });
const page = async (query: string) => {
  const res = await get(query);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
};

describe('chat history pages', () => {
  it('walks back to the first message, each message once and in order', async () => {
    const first = await page('?limit=60');
    expect(first.messages).toHaveLength(60);
    expect(first.messages.at(-1)?.text).toBe('Message 500 of 500.');
    expect(first.messages[0]?.text).toBe('Message 441 of 500.');
    expect(first.before).toEqual(expect.any(String));
    const seen = [...first.messages];
    let before = first.before;
    let pages = 1;
    while (before) {
      const older = await page(`?limit=60&before=${before}`);
      expect(older.messages.length).toBeGreaterThan(0);
      seen.unshift(...older.messages);
      before = older.before;
      pages++;
      expect(pages).toBeLessThan(20);
    }
    expect(pages).toBe(Math.ceil(500 / 60));
    expect(seen.map((m) => m.text)).toEqual(Array.from({ length: 500 }, (_, i) => (i === 0 ? 'Message 1 of 500: where it all began.' : `Message ${i + 1} of 500.`)));
    expect(seen.map((m) => m.role).slice(0, 4)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('keeps a page where it was when a new message arrives while paging', async () => {
    const newest = await page('?limit=50');
    const olderBefore = await page(`?limit=50&before=${newest.before}`);
    const send = await fetch(`${f.web.url}/api/projects/long/messages`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'One more question.' }),
    });
    expect(send.status).toBe(200);
    await send.text(); // the turn's stream, to its end
    const olderAfter = await page(`?limit=50&before=${newest.before}`);
    expect(olderAfter.messages.map((m) => m.text)).toEqual(olderBefore.messages.map((m) => m.text));
    expect((await page('?limit=2')).messages.map((m) => m.text)).toEqual(['One more question.', 'A new reply.']);
  });

  it('refuses bad query parameters with the reason', async () => {
    for (const q of ['?limit=0', '?limit=501', '?limit=ten', '?before=not%20a%20cursor', '?before=bm9wZQ']) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: string }).error, q).toMatch(/limit|before/);
    }
  });
});
