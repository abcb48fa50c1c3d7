/**
 * Label creep (the second privacy sweep: 234 of 260 ordinary replies labelled sensitive): a
 * conversation of ordinary turns after two sensitive messages, on the real composition. How many
 * replies are labelled is counted from the archive; the numbers are printed for the record.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { parseLog } from '../../src/memory/archive-format.js';
import { labelOf } from '../../src/core/privacy/sensitivity.js';
import { buildApp } from '../../src/main.js';
import type { App } from '../../src/app/app.js';
import { startFakeModelServer, type ScriptedReply } from '../support/fake-model-server.js';
import { tempDirs } from '../support/temp-dir.js';

const tempDir = tempDirs('charlie-label-creep-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const origin = { name: 'general', key: 'terminal:general' };
const project: Place = { kind: 'project', origin };
const SENSITIVE = ['I take sumatriptan for my migraines.', 'My bank PIN is 4921.'];
const TURNS = 40;

interface Request {
  messages: { role: string; content: unknown }[];
}

async function converse(
  locality: 'local' | 'hosted',
  reply: (r: Request) => ScriptedReply,
  said: string[] = [...SENSITIVE, ...Array.from({ length: TURNS }, (_, i) => `ping ${i + 1}`)],
  before?: (app: App) => Promise<unknown>,
): Promise<{ labelled: number[]; total: number }> {
  const dir = tempDir();
  const chat = await startFakeModelServer(reply);
  const memory = await startFakeModelServer(() => ({ text: JSON.stringify({ summary: 'We talked.', decisions: [], quotes: [], sensitive: [] }) }));
  cleanups.push(
    () => chat.close(),
    () => memory.close(),
  );
  const config = loadConfig(
    {
      LLM_BASE_URL: chat.url,
      LLM_LOCALITY: locality,
      LLM_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      MEMORY_LLM_BASE_URL: memory.url,
      EMBEDDER: 'builtin',
      WATCH_PROJECTS: 'false',
      DISTILL_EVERY: '1000',
      WEB_PORT: '0',
      PROJECTS_DIR: join(dir, 'projects'),
      DATA_DIR: join(dir, 'data'),
    },
    dir,
  );
  const app = await buildApp(config, silentLogger);
  cleanups.push(() => app.close());
  await app.store.ensureProject(origin);
  await before?.(app);
  for (const [i, text] of said.entries()) await app.assistant.conversation.handle({ place: project, speaker: 'Alice', text, source: `terminal:${i + 1}` });
  await app.assistant.idle();
  const day = new Date().toISOString().slice(0, 10);
  const replies = parseLog(readFileSync(join(dir, 'projects', 'general', 'log', `${day}.md`), 'utf8'), day).filter((e) => e.role === 'assistant');
  // the turn number (1-based, over the whole conversation) of each reply labelled sensitive
  const labelled = replies.flatMap((e, i) => (labelOf(e).sensitivity === 'sensitive' ? [i + 1] : []));
  return { labelled, total: replies.length };
}

/** The model answers "pong N" to "ping N" (and retells a sensitive message: the reply paraphrases what it read). */
const ponger = (r: Request): ScriptedReply => {
  const last = String([...r.messages].reverse().find((m) => m.role === 'user')?.content ?? '');
  return { text: last.includes('ping') ? last.replace(/^.*ping/, 'pong') : 'Noted, I will keep that in mind.' };
};

/** A model that retells the last few messages it was shown with its answer (as models do): its replies quote ordinary lines. */
const reteller = (r: Request): ScriptedReply => {
  const shown = r.messages.filter((m) => m.role !== 'system').map((m) => String(m.content));
  const last = shown.at(-1) ?? '';
  return { text: `${last.includes('ping') ? last.replace(/^.*ping/, 'pong') : 'Noted.'}\nSo far we said:\n${shown.slice(-4, -1).join('\n')}` };
};

describe('label creep: ordinary turns after two sensitive messages', () => {
  it('a hosted model that retells what it was shown: the labelled messages were withheld from it, so its ordinary replies stay ordinary', async () => {
    const { labelled, total } = await converse('hosted', reteller);
    console.log(`label creep (hosted, retelling): ${labelled.length} of ${total} replies labelled sensitive: turns ${labelled.join(', ')}`);
    // before: the line matcher found the retold ordinary lines inside labelled replies, withheld them, and that tainted every turn (40 of 40)
    expect(labelled).toEqual([1, 2]);
  }, 120_000);

  it('a hosted model that only answers: only the replies to the sensitive messages', async () => {
    const { labelled } = await converse('hosted', ponger);
    expect(labelled).toEqual([1, 2]);
  }, 120_000);

  it('a local model reads the labelled history: every reply whose prompt holds a labelled message (or a labelled reply) is labelled', async () => {
    const { labelled, total } = await converse('local', ponger);
    console.log(`label creep (local): ${labelled.length} of ${total} replies labelled sensitive`);
    // a labelled reply in the window can retell what it was made from, so it taints the next turn: the chain does not expire
    expect(labelled).toHaveLength(total);
  }, 120_000);
});

describe('what a model read and may retell is still labelled', () => {
  it('a local model that paraphrases a labelled message of its prompt window: the reply is labelled', async () => {
    // the reply names nothing the rules know: only the taint of its prompt labels it
    const paraphrase = (r: Request): ScriptedReply => ({ text: JSON.stringify(r.messages).includes('sumatriptan') ? 'You said your head pills help.' : 'Hello.' });
    const { labelled } = await converse('local', paraphrase, ['hello', SENSITIVE[0]!, 'what did I say?']);
    expect(labelled).toEqual([2, 3]);
  }, 120_000);

  it('a local model shown a summary marked sensitive (no labelled message in its window): the reply that retells it is labelled', async () => {
    const retell = (r: Request): ScriptedReply => ({ text: String(r.messages[0]?.content).includes('locked ward') ? 'Marek is home again from the ward.' : 'Hello.' });
    const { labelled } = await converse('local', retell, ['how is Marek?'], (app) =>
      app.assistant.settings.editMemory(project, { summary: 'Marek spent a week on a locked ward.\n\n[sensitivity:: sensitive/phi]' }),
    );
    expect(labelled).toEqual([1]);
  }, 120_000);
});
