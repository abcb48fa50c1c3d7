/**
 * "Ask in the moment" through the web app's API, on the real composition with a hosted chat
 * model (the scripted fake server) and CONSENT_MODE=ask: Ann, signed in with her `/web` link,
 * asks in a project that holds her health record and Bob's. Her turn's stream carries a
 * `consent` question naming her item only (never its content, never Bob's); once sends it in that
 * turn only, always until she revokes it in Settings' API, no (or Stop) sends nothing and says
 * what was held back. Bob and the owner can neither answer her question nor revoke her grant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANN_CANARY, ANN_LABEL, BOB_CANARY, memberCookie, REPLY, startConsentWeb } from '../support/consent-web.js';
import { TOKEN, type WebFixture } from '../support/web-fixture.js';
import type { ConsentEventWire, ConsentLedgerWire } from '../../src/web/shared/consent.js';

interface Event {
  event: string;
  data: Record<string, unknown>;
}

interface Turn {
  events: Event[];
  turnId: string;
  asked: ConsentEventWire[];
  outcome: { reply: string; reason: string; notices: string[] };
}

describe('web consent API', { timeout: 90_000 }, () => {
  let f: WebFixture;
  let ann = '';
  let bob = '';
  const bearer = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    f = await startConsentWeb();
    ann = await memberCookie(f, 'ann-1', 'Ann');
    bob = await memberCookie(f, 'bob-2', 'Bob');
  }, 60_000);

  afterAll(async () => {
    await f.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${f.web.url}${path}`, { method: 'POST', headers: { ...headers, origin: f.web.url, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (turn: string, id: string, value: string, headers: Record<string, string>) => post(`/api/turns/${turn}/consent`, { id, answer: value }, headers);
  const ledger = async (cookie: string) => (await (await fetch(`${f.web.url}/api/privacy/consents`, { headers: { cookie } })).json()) as ConsentLedgerWire;
  const sentSince = (n: number) => JSON.stringify(f.model.requests.slice(n));

  /** A turn in `general`, read to its end; `onAsk` is called on each `consent` question while the turn waits. */
  async function turn(cookie: string, onAsk: (q: ConsentEventWire, turnId: string) => Promise<void>): Promise<Turn> {
    const res = await post('/api/projects/general/messages', { text: 'what do you remember about me and Bob?' }, { cookie });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const out: Turn = { events: [], turnId: '', asked: [], outcome: { reply: '', reason: '', notices: [] } };
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1] ?? '';
        const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
        out.events.push({ event, data });
        if (event === 'accepted') out.turnId = String(data.turnId);
        if (event === 'outcome') out.outcome = data as Turn['outcome'];
        if (event === 'consent') {
          out.asked.push(data as unknown as ConsentEventWire);
          await onAsk(data as unknown as ConsentEventWire, out.turnId);
        }
      }
    }
    return out;
  }

  const done = (t: Turn) => t.events.filter((e) => e.event === 'consent_done').map((e) => e.data);

  it('once: Ann is asked about her item only, by label; nobody else can answer; it goes in that turn only', async () => {
    const n = f.model.requests.length;
    const t = await turn(ann, async (q, turnId) => {
      // another signed-in member, and the owner, cannot answer Ann's question
      const bobs = await answer(turnId, q.id, 'always', { cookie: bob });
      expect(bobs.status).toBe(403);
      expect(await bobs.json()).toEqual({ error: 'only the person who asked may answer this question' });
      expect((await answer(turnId, q.id, 'always', bearer)).status).toBe(403);
      expect((await answer(turnId, q.id, 'maybe', { cookie: ann })).status).toBe(400);
      expect((await answer(turnId, q.id, 'once', { cookie: ann })).status).toBe(200);
      expect((await answer(turnId, q.id, 'once', { cookie: ann })).status).toBe(409);
    });
    expect(t.asked).toHaveLength(1);
    const q = t.asked[0]!;
    expect(q.items).toEqual([{ label: ANN_LABEL, kind: 'health' }]);
    expect(q.service).toMatchObject({ kind: 'chat', what: 'the chat model' });
    expect(q.service.id).toContain('fake-model');
    expect(q.timeoutMs).toBe(20_000);
    // when it was asked, so a page opened later counts down from there
    expect(q.askedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(q.askedAt).toBeLessThanOrEqual(Date.now());
    // the question names, never shows: neither record's words are in the page's stream of questions
    expect(JSON.stringify(t.events.filter((e) => e.event.startsWith('consent')))).not.toMatch(/sumatriptan|CANARY|hepatitis/);
    expect(done(t)).toEqual([{ id: q.id, answer: 'once' }]);
    expect(sentSince(n)).toContain(ANN_CANARY);
    expect(sentSince(n)).not.toContain(BOB_CANARY);
    expect(t.outcome.reply).toBe(REPLY);
    // a web project is shared: the turn's line counts the items the question named
    expect(t.outcome.notices.join('\n')).toContain('for this answer: 1 item Ann was asked about');
    expect(t.outcome.notices.join('\n')).not.toContain(ANN_LABEL);

    // the next turn asks again; a no sends nothing of hers
    const m = f.model.requests.length;
    const next = await turn(ann, async (a, turnId) => {
      expect((await answer(turnId, a.id, 'no', { cookie: ann })).status).toBe(200);
    });
    expect(next.asked).toHaveLength(1);
    expect(sentSince(m)).not.toContain(ANN_CANARY);
    const mine = await ledger(ann);
    expect(mine.mode).toBe('ask');
    expect(mine.modeLine).toMatch(/^consent: ask/);
    expect(mine.consents.map((g) => [g.item.label, g.answer, g.standing])).toEqual([[ANN_LABEL, 'once', false]]);
    expect((await ledger(bob)).consents).toEqual([]);
  });

  it('always: no question until Ann revokes it; Bob and the owner cannot revoke it', async () => {
    await turn(ann, async (q, turnId) => {
      expect((await answer(turnId, q.id, 'always', { cookie: ann })).status).toBe(200);
    });
    const n = f.model.requests.length;
    const quiet = await turn(ann, () => Promise.reject(new Error('asked although she said always')));
    expect(quiet.asked).toEqual([]);
    expect(sentSince(n)).toContain(ANN_CANARY);
    expect(sentSince(n)).not.toContain(BOB_CANARY);

    const grant = (await ledger(ann)).consents.find((g) => g.standing);
    expect(grant).toMatchObject({ answer: 'always', item: { label: ANN_LABEL }, service: { kind: 'chat', what: 'the chat model' } });
    const revoke = (id: string, headers: Record<string, string>) => post(`/api/privacy/consents/${encodeURIComponent(id)}/revoke`, {}, headers);
    expect((await revoke(grant!.id, { cookie: bob })).status).toBe(404);
    expect((await revoke(grant!.id, bearer)).status).toBe(404);
    expect((await revoke('no such id!', { cookie: ann })).status).toBe(400);
    expect((await ledger(ann)).consents.find((g) => g.id === grant!.id)?.standing).toBe(true);
    expect((await revoke(grant!.id, { cookie: ann })).status).toBe(200);
    expect((await revoke(grant!.id, { cookie: ann })).status).toBe(404);
    const after = (await ledger(ann)).consents.find((g) => g.id === grant!.id);
    expect(after?.standing).toBe(false);
    expect(after?.revoked).toMatch(/^\d{4}-/);

    const m = f.model.requests.length;
    const asked = await turn(ann, async (q, turnId) => {
      expect((await answer(turnId, q.id, 'no', { cookie: ann })).status).toBe(200);
    });
    expect(asked.asked).toHaveLength(1);
    expect(sentSince(m)).not.toContain(ANN_CANARY);
  });

  it('no: nothing of hers goes and the turn says what was held back', async () => {
    const n = f.model.requests.length;
    const t = await turn(ann, async (q, turnId) => {
      expect((await answer(turnId, q.id, 'no', { cookie: ann })).status).toBe(200);
    });
    expect(sentSince(n)).not.toContain(ANN_CANARY);
    expect(sentSince(n)).not.toContain(BOB_CANARY);
    expect(t.outcome.notices.join('\n')).toMatch(/held back from the chat model .*: 1 item Ann was asked about/);
    expect(t.events.some((e) => e.event === 'notice' && String(e.data.text).startsWith('held back'))).toBe(true);
  });

  it('Stop settles the open question as no', async () => {
    const n = f.model.requests.length;
    const before = (await ledger(ann)).consents.length;
    const t = await turn(ann, async (_q, turnId) => {
      expect((await post(`/api/turns/${turnId}/cancel`, {}, { cookie: ann })).status).toBe(200);
    });
    expect(done(t)).toEqual([{ id: t.asked[0]!.id, answer: 'no' }]);
    expect(sentSince(n)).not.toContain(ANN_CANARY);
    expect((await ledger(ann)).consents).toHaveLength(before);
  });
});
