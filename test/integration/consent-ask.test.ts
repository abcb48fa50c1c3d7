/**
 * Asking in the moment, on the real composition (buildApp) with a hosted chat model behind the
 * scripted fake server: a project holds Ann's own health record and Bob's; the model searches
 * memory for both. With CONSENT_MODE=ask, Ann is asked about her item only (never Bob's), and:
 * once → her record goes out in that turn only and the next turn asks again; always → it goes
 * without asking until revoked, across a restart; no, no answer in time, or Stop → nothing goes
 * and the turn says what was held back. The question never reaches the model.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentAnswer, ConsentRequest } from '../../src/core/privacy/consent.js';
import type { Role } from '../../src/core/roles.js';
import type { buildApp } from '../../src/main.js';
import { ANN, BOB, project, setup as setupProject, start } from '../support/consent-project.js';
import { startRecordingMcpServer } from '../support/recording-mcp-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const setup = () => setupProject(cleanups);

interface Asked {
  requests: ConsentRequest[];
}

function turn(app: Awaited<ReturnType<typeof buildApp>>, answer: ConsentAnswer | 'never', asked: Asked, options: { speaker?: string; id?: string; role?: Role; signal?: AbortSignal } = {}) {
  const speaker = options.speaker ?? 'Ann';
  return app.assistant.conversation.handle(
    { place: project, speaker, text: 'what do you remember about me and Bob?', source: `terminal:${Date.now()}` },
    {
      ...(options.signal ? { signal: options.signal } : {}),
      consent: {
        person: { id: options.id ?? 'ann-1', name: speaker, role: options.role ?? 'member' },
        shared: true,
        ask: (request: ConsentRequest, signal: AbortSignal): Promise<ConsentAnswer> => {
          asked.requests.push(request);
          if (answer === 'never') return new Promise((resolve) => signal.addEventListener('abort', () => resolve('no'), { once: true }));
          return Promise.resolve(answer);
        },
      },
    },
  );
}

const sent = (server: { requests: unknown[] }, from = 0) => JSON.stringify(server.requests.slice(from));

describe('ask in the moment: the chat model', () => {
  it('once: exactly her item goes out in that turn, never Bob’s; the next turn asks again; the question never reaches the model', async () => {
    const t = await setup();
    const asked: Asked = { requests: [] };
    const out = await turn(t.app, 'once', asked);
    expect(out.reason).toBe('done');
    expect(asked.requests).toHaveLength(1);
    const q = asked.requests[0]!;
    // named without content: where, the record's attribute, the kind; only Ann's own item
    expect(q.items.map((i) => [i.where, i.name, i.kind])).toEqual([['People/Ann', 'medication', 'phi']]);
    expect(JSON.stringify(q)).not.toContain('sumatriptan');
    expect(q.service.kind).toBe('chat');
    expect(sent(t.server)).toContain(ANN);
    expect(sent(t.server)).not.toContain(BOB);
    // the turn's line is everyone's in a shared place: it counts, the question named
    expect(out.notices.join('\n')).toMatch(/sent to the chat model .* for this answer: 1 item Ann was asked about/);
    expect(out.notices.join('\n')).not.toContain('medication');
    // the question and the notice are the person's, never the model's
    expect(sent(t.server)).not.toMatch(/sent to the chat model|for this answer|held back/);

    const before = t.server.requests.length;
    await turn(t.app, 'no', asked);
    expect(asked.requests).toHaveLength(2);
    expect(sent(t.server, before)).not.toContain(ANN);
    // "once" is in the ledger, as a used answer, not a standing one
    const ledger = await t.app.assistant.privacy.consents('ann-1');
    expect(ledger.map((g) => g.answer)).toEqual(['once']);
  }, 60_000);

  it('always: goes without asking until revoked, across a restart; revoke asks again', async () => {
    const t = await setup();
    const asked: Asked = { requests: [] };
    await turn(t.app, 'always', asked);
    expect(asked.requests).toHaveLength(1);
    await t.close();

    const again = await start(t.dir, cleanups, t.server);
    const n = again.server.requests.length;
    await turn(again.app, 'no', asked);
    expect(asked.requests).toHaveLength(1); // not asked: the standing "always" survived the restart
    expect(sent(again.server, n)).toContain(ANN);
    expect(sent(again.server, n)).not.toContain(BOB);

    const [grant] = await again.app.assistant.privacy.consents('ann-1');
    expect(grant?.answer).toBe('always');
    // nobody else can revoke it
    expect(await again.app.assistant.privacy.revokeConsent('bob-2', grant!.id)).toBe(false);
    expect(await again.app.assistant.privacy.revokeConsent('ann-1', grant!.id)).toBe(true);
    const m = again.server.requests.length;
    await turn(again.app, 'no', asked);
    expect(asked.requests).toHaveLength(2);
    expect(sent(again.server, m)).not.toContain(ANN);
  }, 60_000);

  it('no, no answer in time, and Stop: nothing goes and the turn says what was held back', async () => {
    const t = await setup();
    const asked: Asked = { requests: [] };
    const no = await turn(t.app, 'no', asked);
    expect(sent(t.server)).not.toContain(ANN);
    expect(no.notices.join('\n')).toMatch(/held back from the chat model .*: 1 item Ann was asked about/);

    const n = t.server.requests.length;
    const late = await turn(t.app, 'never', asked);
    expect(late.reason).toBe('done');
    expect(sent(t.server, n)).not.toContain(ANN);
    expect(late.notices.join('\n')).toMatch(/held back/);

    const stop = new AbortController();
    const m = t.server.requests.length;
    const stopped = turn(t.app, 'never', asked, { signal: stop.signal });
    setTimeout(() => stop.abort(), 300);
    const out = await stopped;
    expect(['cancelled', 'done']).toContain(out.reason);
    expect(sent(t.server, m)).not.toContain(ANN);
    expect(await t.app.assistant.privacy.consents('ann-1')).toEqual([]);
  }, 60_000);

  it('whose data it is: Bob’s record is never Ann’s to release, even as an editor; a member cannot release a shared item; local lanes never ask', async () => {
    const t = await setup();
    const asked: Asked = { requests: [] };
    await turn(t.app, 'always', asked, { speaker: 'Cara', id: 'cara-3', role: 'owner' });
    // Charlie's owner may release shared items, but Ann's and Bob's records are theirs
    expect(asked.requests).toHaveLength(0);
    expect(sent(t.server)).not.toContain(ANN);
    expect(sent(t.server)).not.toContain(BOB);
    await turn(t.app, 'always', asked, { speaker: 'Bob', id: 'bob-2', role: 'member' });
    expect(asked.requests.at(-1)?.items.map((i) => i.where)).toEqual(['People/Bob']);
    expect(sent(t.server)).toContain(BOB);
    expect(sent(t.server)).not.toContain(ANN);
  }, 60_000);
});

describe('ask in the moment: the message itself and the history', () => {
  it('a labelled message is its speaker’s item: once → the model reads it; no → a placeholder; the history asks again', async () => {
    const t = await setup();
    const asked: ConsentRequest[] = [];
    const say = (text: string, answer: ConsentAnswer, speaker = 'Ann', id = 'ann-1') =>
      t.app.assistant.conversation.handle(
        { place: project, speaker, text, source: `terminal:${Date.now()}` },
        { consent: { person: { id, name: speaker, role: 'member' }, shared: true, ask: (r) => (asked.push(r), Promise.resolve(answer)) } },
      );
    const MESSAGE = 'I take CANARY-MSG-77c1 sumatriptan for my migraines';
    await say(MESSAGE, 'once');
    expect(asked[0]?.items.map((i) => i.name)).toEqual([expect.stringMatching(/^Ann's message at \d\d:\d\d$/)]);
    // named as a person reads it, not by the archive's file
    expect(asked[0]?.items[0]?.where).toMatch(/^the conversation of \d{4}-\d\d-\d\d$/);
    expect(asked[0]?.items[0]?.kind).toBe('phi');
    const first = t.server.requests.length;
    expect(sent(t.server)).toContain('CANARY-MSG-77c1');
    // the next turn: the message is in the history, asked about again; no → withheld
    await say('and what else?', 'no');
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(sent(t.server, first)).not.toContain('CANARY-MSG-77c1');
    expect(sent(t.server, first)).toContain('[withheld: a message marked sensitive]');
    // Bob cannot release Ann's message
    const n = asked.length;
    const m = t.server.requests.length;
    await say('what did Ann say?', 'always', 'Bob', 'bob-2');
    expect(asked.slice(n).flatMap((r) => r.items.map((i) => i.name ?? ''))).not.toContainEqual(expect.stringMatching(/^Ann's message/));
    expect(sent(t.server, m)).not.toContain('CANARY-MSG-77c1');
  }, 60_000);
});

describe('ask in the moment: what is let go taints the reply', () => {
  it('a labelled message of the history released once: the hosted model read it, so its reply is labelled; withheld, it is not', async () => {
    // a model that only answers (it reads no page): the history is all it is shown
    const t = await setupProject(cleanups, { script: () => ({ text: 'Sure.' }) });
    const say = (text: string, answer: ConsentAnswer) =>
      t.app.assistant.conversation.handle(
        { place: project, speaker: 'Ann', text, source: `terminal:${Date.now()}` },
        { consent: { person: { id: 'ann-1', name: 'Ann', role: 'member' }, shared: true, ask: () => Promise.resolve(answer) } },
      );
    await say('I take CANARY-MSG-88d2 sumatriptan for my migraines', 'no');
    const withheld = await say('what is the weather like?', 'no');
    expect(withheld.tainted).toBe(false);
    const released = await say('and what did I tell you before?', 'once');
    expect(sent(t.server)).toContain('CANARY-MSG-88d2');
    expect(released.tainted).toBe(true);
  }, 60_000);
});

describe('ask in the moment: a hosted tool server', () => {
  /** The hosted model: reads Ann's page, asks for the remote server's tools, sends it what it read, then answers. */
  function forwarder() {
    let forwarded = false;
    return (request: { tools?: { function: { name: string } }[]; messages: { role: string; content: string | null }[] }) => {
      const names = (request.tools ?? []).map((t) => t.function.name);
      const toolTexts = request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
      if (toolTexts.length === 0) return { toolCalls: [{ id: 'r1', name: 'read_note', arguments: JSON.stringify({ path: 'People/Ann.md' }) }] };
      if (!names.includes('remote__lookup')) return { toolCalls: [{ id: 'r2', name: 'request_tools', arguments: JSON.stringify({ categories: ['mcp:remote'] }) }] };
      if (forwarded) return { text: 'Done.' };
      forwarded = true;
      return { toolCalls: [{ id: 'r3', name: 'remote__lookup', arguments: JSON.stringify({ q: toolTexts[0]!.slice(0, 2000) }) }] };
    };
  }

  // chat no: the model never saw her record, so its call is an ordinary one (no question, no record)
  it.each([
    ['once', 'once', true, 1],
    ['once', 'no', false, 0],
    ['no', 'once', false, 1],
  ] as const)(
    'chat %s, tool server %s: the server gets her record only with both yeses',
    async (toChat, toTool, reaches, calls) => {
      const remote = await startRecordingMcpServer();
      cleanups.push(() => remote.close());
      const t = await setupProject(cleanups, { mcpServers: { remote: { url: remote.url, locality: 'hosted' } }, script: forwarder() });
      const asked: ConsentRequest[] = [];
      await t.app.assistant.conversation.handle(
        { place: project, speaker: 'Ann', text: 'look me up', source: 'terminal:1' },
        {
          tools: { user: { owner: true } },
          consent: {
            person: { id: 'ann-1', name: 'Ann', role: 'member' },
            shared: false,
            ask: (r) => (asked.push(r), Promise.resolve(r.service.kind === 'chat' ? toChat : toTool)),
          },
        },
      );
      const kinds = asked.map((r) => r.service.kind);
      // the tool server is asked about only what the chat model was given
      expect(kinds).toEqual(toChat === 'no' ? ['chat'] : ['chat', 'mcp-tool-server']);
      if (toChat !== 'no') expect(asked[1]?.items.map((i) => i.where)).toEqual(['People/Ann']);
      expect(remote.calls.length).toBe(calls);
      expect(remote.bodies.join('\n').includes('CANARY-ANN-5d21')).toBe(reaches);
      expect(remote.bodies.join('\n')).not.toContain('CANARY-BOB');
    },
    60_000,
  );
});
