/**
 * Read aloud in the web app names the chat its text is from, so the voice is chosen by that
 * place's stored label (the outside sweep: without a place, only the newest 500 entries of each
 * project were looked at, and an older labelled reply went to the online voice).
 */
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { voiceRoutes } from '../../src/web/api-voice.js';
import type { WebEnv } from '../../src/web/web-deps.js';
import type { WebUser } from '../../src/web/auth.js';
import type { Place } from '../../src/core/place.js';
import { InMemoryProjectStore } from '../support/fakes.js';

const owner: WebUser = { kind: 'owner', id: 'owner', name: 'Ann' } as WebUser;

async function web() {
  const store = new InMemoryProjectStore();
  await store.ensureProject({ name: 'general', key: 'web:general' });
  const heard: (Place | null | undefined)[] = [];
  const app = new Hono<WebEnv>();
  app.use(async (c, next) => {
    c.set('user', owner);
    await next();
  });
  voiceRoutes(app, { speak: (_text, _signal, place) => (heard.push(place), Promise.resolve({ mime: 'audio/wav', data: new Uint8Array([1]), spokenBy: 'local' })) }, store);
  const say = (body: unknown) => app.request('/api/speech', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { say, heard };
}

describe('Read aloud names its place', () => {
  it("a project's text is spoken with that project as its place, the private chat's with the person's, none with none", async () => {
    const { say, heard } = await web();
    expect((await say({ text: 'The choir meets on Tuesday.', project: 'general' })).status).toBe(200);
    expect((await say({ text: 'The choir meets on Tuesday.', project: '@me' })).status).toBe(200);
    expect((await say({ text: 'The choir meets on Tuesday.' })).status).toBe(200);
    expect(heard).toEqual([{ kind: 'project', origin: { name: 'general', key: 'web:general' } }, { kind: 'private', userId: 'owner', userName: 'Ann' }, null]);
  });

  it('a project that does not exist is refused, and nothing is spoken', async () => {
    const { say, heard } = await web();
    expect((await say({ text: 'Hello', project: 'nowhere' })).status).toBe(404);
    expect((await say({ text: 'Hello', project: '../etc' })).status).toBe(404);
    expect(heard).toEqual([]);
  });
});
