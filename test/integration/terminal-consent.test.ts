/**
 * Asking in the moment in the terminal, on the real composition with a hosted chat model
 * (test/support/consent-project.ts): the question names the service and the item (never its
 * content) and reads one line — o once, a always, anything else no; `/privacy consents` lists
 * the answers and `/privacy revoke` ends an "always"; the input ending mid-question is no; a late
 * bare answer is not taken as a message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ANN, BOB, setup, type Cleanups } from '../support/consent-project.js';
import { pipeTerminal } from '../support/terminal.js';
import { consentAnswerOf, LineReader } from '../../src/terminal/consent.js';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ask = 'what do you remember about me and Bob?';
const sent = (server: { requests: unknown[] }, from = 0) => JSON.stringify(server.requests.slice(from));

describe('terminal: ask in the moment', () => {
  it('once, then no: the item goes in the first turn only; the question names it without content', async () => {
    const t = await setup(cleanups);
    const out = await pipeTerminal(t.app.assistant, `${ask}\no\n${ask}\nn\n/quit\n`, { userName: 'Ann' });
    expect(out).toMatch(/\? May I send this to the chat model \S+ \(hosted, leaves this machine\)\?\n\s+· People\/Ann › medication \(health\)/);
    expect(out.match(/· People\/Ann › medication/g)).toHaveLength(2);
    // the first reply drew on her record and is labelled: it is withheld from the history, never asked about each turn
    expect(out.match(/\? May I send/g)).toHaveLength(2);
    expect(out).not.toMatch(/› a reply at/);
    expect(out).toContain('sent, this once');
    expect(out).toContain('held back');
    expect(out).not.toContain('sumatriptan');
    const bodies = t.server.requests as { messages: { role: string; content: string }[] }[];
    const turns = bodies.filter((b) => b.messages.at(-1)?.role === 'tool');
    expect(turns).toHaveLength(2);
    expect(JSON.stringify(turns[0])).toContain(ANN);
    expect(JSON.stringify(turns[1])).not.toContain(ANN);
    expect(sent(t.server)).not.toContain(BOB);
  }, 60_000);

  it('always, /privacy consents, /privacy revoke: asked again after the revoke', async () => {
    const t = await setup(cleanups);
    const first = await pipeTerminal(t.app.assistant, `${ask}\na\n${ask}\n/privacy consents\n/quit\n`, { userName: 'Ann' });
    // asked once: the second turn reads her record under the standing "always"
    expect(first.match(/\? May I send/g)).toHaveLength(1);
    expect(first).toContain('consent: ask');
    const id = /(c-[0-9a-f]{8})\s+People\/Ann › medication \(health\) → the chat model \S+ · always/.exec(first)?.[1];
    expect(id).toBeDefined();
    const second = await pipeTerminal(t.app.assistant, `/privacy revoke ${id}\n${ask}\nn\n/quit\n`, { userName: 'Ann' });
    expect(second).toContain(`Revoked ${id}`);
    expect(second.match(/· People\/Ann › medication/g)).toHaveLength(1);
    // another person at the same terminal has nothing to revoke
    const other = await pipeTerminal(t.app.assistant, `/privacy revoke ${id}\n/quit\n`, { userName: 'Bob' });
    expect(other).toContain('You have no standing "always"');
  }, 60_000);

  it('the input ends during the question: no', async () => {
    const t = await setup(cleanups);
    const out = await pipeTerminal(t.app.assistant, `${ask}\n`, { userName: 'Ann' });
    expect(out).toContain('? May I send');
    expect(sent(t.server)).not.toContain(ANN);
  }, 60_000);

  it('answers read from a line, and a late bare answer is dropped once', async () => {
    expect(['o', 'once', 'Y', 'yes', 'a', 'ALWAYS', '', 'n', 'maybe'].map(consentAnswerOf)).toEqual(['once', 'once', 'once', 'once', 'always', 'always', 'no', 'no', 'no']);
    const lines = ['o', 'o', 'hello'][Symbol.iterator]();
    const reader = new LineReader({ next: () => Promise.resolve(lines.next()) });
    expect((await reader.read()).value).toBe('o');
    reader.abandon();
    expect(reader.lateAnswer('o')).toBe(true);
    expect(reader.lateAnswer('o')).toBe(false);
    reader.abandon();
    expect(reader.lateAnswer('hello')).toBe(false);
  });
});
