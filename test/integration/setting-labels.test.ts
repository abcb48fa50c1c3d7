/**
 * A project's name and response style go into every system prompt (sixth outside sweep: a project
 * named "Kit's court case" and a style that said what someone was going through reached the
 * hosted chat model in every turn). They are judged like any text a person wrote: a hosted model
 * is not given one labelled sensitive — by the rules here, and by a scripted memory lane for a
 * wording no rule knows, asked once for each wording; a local model reads both.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';
import { cleanupsAfterEach, startApp } from '../support/hosted-app.js';

const tempDir = tempDirs('charlie-setting-labels-');
const cleanups = cleanupsAfterEach();

interface Request {
  messages: { role: string; content: unknown }[];
}
const systemOf = (chat: FakeModelServer) => chat.requests.map((r: Request) => String(r.messages[0]?.content ?? ''));
const LANE_NAMES = 'Tilly is expecting';

async function start(locality: 'local' | 'hosted') {
  const dir = tempDir();
  const chat = await startFakeModelServer(() => ({ text: 'Noted.' }));
  // the lane: names the item that says what the style tells (a wording no rule knows)
  const lane = await startFakeModelServer((r: Request) => {
    const text = String(r.messages.at(-1)?.content ?? '');
    const named = [...text.matchAll(/^\[(\d+)\] (.*)$/gm)].filter((m) => m[2]!.includes(LANE_NAMES)).map((m) => ({ message: Number(m[1]), kind: 'phi' }));
    return { text: JSON.stringify({ sensitive: named }) };
  });
  cleanups.push(
    () => chat.close(),
    () => lane.close(),
  );
  const config = loadConfig(
    {
      LLM_BASE_URL: chat.url,
      LLM_LOCALITY: locality,
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      MEMORY_LLM_BASE_URL: lane.url,
      MEMORY_LLM_LOCALITY: 'local',
      EMBEDDER: 'builtin',
      WATCH_PROJECTS: 'false',
      WEB_PORT: '0',
      PROJECTS_DIR: join(dir, 'projects'),
      DATA_DIR: join(dir, 'data'),
    },
    dir,
  );
  const app = await startApp(config, cleanups);
  return { app, chat, lane };
}

describe("a project's name and style reach a hosted model only when they may", () => {
  it('a name the rules label and a style only the lane labels are withheld from a hosted model, asked once; an ordinary style goes', async () => {
    const { app, chat, lane } = await start('hosted');
    const place: Place = { kind: 'project', origin: { name: "Kit's court case", key: 'terminal:kit' } };
    await app.store.ensureProject(place.origin);
    await app.assistant.settings.setStyle(place, `Be gentle: ${LANE_NAMES} and it is early days.`);
    const say = (text: string, n: number) => app.assistant.conversation.handle({ place, speaker: 'Alice', text, source: `terminal:${n}` });
    await say('What is on this week?', 1);
    await say('And next week?', 2);
    for (const system of systemOf(chat)) {
      expect(system).not.toContain('court case');
      expect(system).not.toContain(LANE_NAMES);
      expect(system).toContain('(its name is withheld: marked sensitive)');
    }
    const asked = () => lane.requests.filter((r: Request) => String(r.messages.at(-1)?.content ?? '').includes(LANE_NAMES)).length;
    expect(asked()).toBe(1);
    await app.assistant.settings.setStyle(place, 'Answer in short sentences.');
    await say('Thanks', 3);
    expect(systemOf(chat).at(-1)).toContain('Answer in short sentences.');
  }, 60_000);

  it('a local model reads the name and the style', async () => {
    const { app, chat } = await start('local');
    const place: Place = { kind: 'project', origin: { name: "Kit's court case", key: 'terminal:kit' } };
    await app.store.ensureProject(place.origin);
    await app.assistant.settings.setStyle(place, `Be gentle: ${LANE_NAMES}.`);
    await app.assistant.conversation.handle({ place, speaker: 'Alice', text: 'hello', source: 'terminal:1' });
    expect(systemOf(chat)[0]).toContain("Kit's court case");
    expect(systemOf(chat)[0]).toContain(LANE_NAMES);
  }, 60_000);
});
