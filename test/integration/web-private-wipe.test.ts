/**
 * `/private wipe` reaches every store of the web app a private conversation wrote to. A private
 * conversation is had over HTTP — a message with an image, a second conversation renamed, a reply
 * cut by the model server mid-stream (its words kept for a reload) — each carrying a canary; the
 * cases are made from the list of stores (src/web/private-wipe.ts): each held the canary and holds
 * nothing of it after the wipe. A folder of DATA_DIR/web that holds the canary but is not in the
 * list fails, so a new store of a private conversation is covered. A project's stay.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastUserText, type ChatBody } from '../support/fake-model-server.js';
import { projectFile, startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';
import { PRIVATE_CONVERSATION_FOLDERS } from '../../src/web/private-wipe.js';
import { OWNER_ID } from '../../src/web/auth.js';

const CANARY = 'CANARY-PRIVATE-WEB-5d1e';
const KEEP = 'KEEP-PROJECT-WEB-88c4';
const bearer = { authorization: `Bearer ${TOKEN}` };

/** The folders (relative to DATA_DIR/web) whose files hold `text`, and the files. */
function holding(root: string, text: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (readFileSync(p).toString('latin1').includes(text)) out.push(relative(root, p));
    }
  };
  walk(root);
  return out;
}
const topFolder = (path: string) => path.split(/[\\/]/)[0] ?? '';

let f: WebFixture;
let web = '';
const before = new Map<string, string[]>();
const after = new Map<string, string[]>();

const call = async (project: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${f.web.url}/api/projects/${encodeURIComponent(project)}${path}`, {
    method,
    headers: { ...bearer, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res;
};
/** A whole conversation's worth in a place: an image, a renamed conversation, a cut reply. */
async function converse(project: string, words: string): Promise<void> {
  const image = `data:image/png;base64,${Buffer.from(`${words} in the image`).toString('base64')}`;
  await (await call(project, 'POST', '/messages', { text: `${words} first message`, images: [image] })).text();
  const made = (await (await call(project, 'POST', '/conversations')).json()) as { id: string };
  await (await call(project, 'POST', '/messages', { text: `${words} cut me`, conversation: made.id })).text();
  await call(project, 'PATCH', `/conversations/${made.id}`, { title: `${words} the title` });
}

beforeAll(async () => {
  f = await startWebFixture({
    files: { 'home/project.md': projectFile('home', 'web:home') },
    env: { LLM_ACCEPTS_IMAGES: 'true' },
    script: (body: ChatBody) => {
      const q = lastUserText(body);
      const words = q.includes(CANARY) ? CANARY : KEEP;
      // the model server dies mid-reply: the words so far are kept for a reload
      return q.includes('cut me') ? { text: `${words} ${words} ${words} ${words} the words so far`, dieAfterChunks: 4 } : { text: 'Noted.' };
    },
  });
  web = join(f.dataDir, 'web');
  await converse('@me', CANARY);
  await converse('home', KEEP);
  for (const p of holding(web, CANARY)) before.set(topFolder(p), [...(before.get(topFolder(p)) ?? []), p]);
  expect(await f.app.assistant.private.wipePrivate({ kind: 'private', userId: OWNER_ID, userName: 'Owner' })).toBe(true);
  for (const p of holding(web, CANARY)) after.set(topFolder(p), [...(after.get(topFolder(p)) ?? []), p]);
}, 90_000);
afterAll(async () => f.close());

describe('/private wipe and the web app', () => {
  it.each(Object.entries(PRIVATE_CONVERSATION_FOLDERS))('%s: held the private conversation, and nothing of it after the wipe', (_store, folder) => {
    expect(before.get(folder)?.length ?? 0).toBeGreaterThan(0);
    expect(after.get(folder) ?? []).toEqual([]);
  });

  it('no other folder of the web app held the private conversation (a new store goes into the list)', () => {
    const listed = new Set(Object.values(PRIVATE_CONVERSATION_FOLDERS));
    expect([...before.keys()].filter((folder) => !listed.has(folder))).toEqual([]);
    expect([...after.values()].flat()).toEqual([]);
  });

  it("leaves a project's conversations, turns and images, and the private conversation starts afresh", async () => {
    for (const folder of Object.values(PRIVATE_CONVERSATION_FOLDERS)) expect(holding(join(web, folder), KEEP).length, folder).toBeGreaterThan(0);
    const list = (await (await call('@me', 'GET', '/conversations')).json()) as { conversations: { title: string; messages: number }[] };
    expect(list.conversations.map((c) => c.title)).toEqual(['Main conversation']);
    expect(list.conversations[0]?.messages).toBe(0);
  });
});
