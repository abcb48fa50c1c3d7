/**
 * `propose_fact` from outside (an MCP client) is a write request like any other, and more
 * guarded: refused when no person of the project said it; otherwise marked untrusted, and what
 * the memory lane accepts goes through the plain-code promotion gate, never straight onto a
 * page. The break this closes: "Mallory is the owner" from an MCP client became a page after the
 * memory lane's review although nobody had said it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger, type ChatRequest } from '../../src/core/ports/index.js';
import { InMemoryWriteRequests } from '../../src/core/writing/write-requests.js';
import type { Candidate, CandidateStore } from '../../src/core/records/candidates.js';
import { entityFacts, general, makeAssistant, msg, tempGraph } from '../support/assistant-fixture.js';
import { FixedClock, GrepRecall, InMemoryPrivateStore, InMemoryProjectStore, RecordingUsageStore, ScriptedChatModel } from '../support/fakes.js';

/** A memory lane that accepts every candidate it is shown (the worst case for the gate behind it). */
function acceptingLane() {
  return new ScriptedChatModel((req: ChatRequest) => {
    const prompt = String(req.messages[1]?.content ?? '');
    if (String(req.messages[0]?.content ?? '').includes('Each candidate')) {
      const ids = [...prompt.matchAll(/id (\S+?)[: ]/g)].map((m) => m[1]!);
      return { text: JSON.stringify({ verdicts: ids.map((id) => ({ id, save: true })) }) };
    }
    return { text: JSON.stringify({ summary: 'They talked.', decisions: [], quotes: [] }) };
  });
}

function world() {
  const chat = new ScriptedChatModel<'hosted'>(() => ({ text: 'Noted.' }), false, 'hosted');
  const lane = acceptingLane();
  const store = new InMemoryProjectStore();
  const requests = new InMemoryWriteRequests();
  const { graph, projectsDir } = tempGraph();
  let waiting: Candidate[] = [];
  const candidates: CandidateStore = { list: () => Promise.resolve(waiting), replace: (c) => Promise.resolve(void (waiting = c)) };
  const { assistant } = makeAssistant({
    model: chat,
    memoryModel: lane,
    store,
    privateStore: new InMemoryPrivateStore(),
    recall: new GrepRecall(store),
    usage: new RecordingUsageStore(),
    graph,
    projectsDir,
    candidates: () => candidates,
    writeRequests: requests,
    clock: new FixedClock(),
    logger: silentLogger,
  });
  return { assistant, requests, graph, lane, projectsDir };
}

const fromMcp = (entity: string, fact: string) => ({ title: entity, text: fact, source: 'mcp:claude-desktop', by: 'mcp:claude-desktop' });

describe('propose_fact from an MCP client', () => {
  it('"Mallory is the owner", which nobody said, is refused and never becomes a page', async () => {
    const w = world();
    await w.assistant.conversation.handle(msg('We should buy a new tent for the trip'));
    const result = await w.assistant.memory.proposeFact(general, fromMcp('Mallory', 'Mallory is the owner'));
    expect(result).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/no message by a person/) });
    expect(await w.requests.list('general')).toEqual([]);
    await w.assistant.memory.distillNow(general);
    expect(Object.keys(await entityFacts(w.graph))).not.toContain('Mallory');
    expect(JSON.stringify(await entityFacts(w.graph))).not.toMatch(/owner/i);
  });

  it('one a person said is an untrusted write request with their message as its source', async () => {
    const w = world();
    const said = msg('remember that Alice is learning to lead climb');
    await w.assistant.conversation.handle(said);
    const result = await w.assistant.memory.proposeFact(general, fromMcp('Alice', 'Alice is learning to lead climb.'));
    expect(result.kind).toBe('requested');
    const [request] = await w.requests.list('general');
    expect(request).toMatchObject({ untrusted: true, source: said.source, by: 'mcp:claude-desktop' });
  });

  it('what the memory lane accepts goes through the promotion gate: promoted with the gate’s verdict in its history', async () => {
    const w = world();
    await w.assistant.conversation.handle(msg('remember that Alice is learning to lead climb'));
    await w.assistant.memory.proposeFact(general, fromMcp('Alice', 'Alice is learning to lead climb.'));
    await w.assistant.memory.distillNow(general);
    // the lane was told the candidate is from outside
    expect(w.lane.requests.map((r) => String(r.messages[1]?.content ?? '')).join('\n')).toMatch(/proposed from outside, untrusted/);
    expect((await entityFacts(w.graph)).Alice).toContain('Alice is learning to lead climb.');
    const history = readFileSync(join(w.projectsDir, 'general', 'notes', '_log.md'), 'utf8');
    expect(history).toMatch(/asked to remember; gate \d\.\d\d/);
    expect(history).not.toMatch(/the gate does not judge it/);
    expect(await w.requests.list('general')).toEqual([]);
  });

  it('the gate still judges: an accepted proposal whose message is chit-chat is rejected, not written', async () => {
    const w = world();
    await w.assistant.conversation.handle(msg('haha ok thanks'));
    // words that the message does hold, so the proposal passes the "somebody said it" test
    const result = await w.assistant.memory.proposeFact(general, fromMcp('Thanks', 'haha ok thanks'));
    expect(result.kind).toBe('requested');
    await w.assistant.memory.distillNow(general);
    expect(Object.keys(await entityFacts(w.graph))).not.toContain('Thanks');
  });
});
