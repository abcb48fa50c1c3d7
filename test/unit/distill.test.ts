import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/core/ports/index.js';
import { ModelHttpError } from '../../src/core/errors.js';
import { ScriptedChatModel, type ScriptStep } from '../support/fakes.js';
import { general, makeAssistant, msg } from '../support/assistant-fixture.js';
import { RecordingSink } from '../support/recording-sink.js';
import { createLogger } from '../../src/logging.js';

const isDistill = (req: ChatRequest) => req.json === true;

function distillReply(n: number): string {
  return JSON.stringify({
    summary: `We planned the launch (${n} messages).`,
    decisions: [{ text: 'Launch on Friday', message: 1 }],
    quotes: [
      { text: 'ship it on Friday', message: 1 },
      { text: 'a sentence nobody said', message: 2 },
    ],
  });
}

function model(onDistill: (req: ChatRequest) => ScriptStep) {
  return new ScriptedChatModel((req) => (isDistill(req) ? onDistill(req) : { text: 'ok' }));
}

describe('distillation', () => {
  it('runs after exactly distill_every messages, from the new messages only', async () => {
    const m = model((req) => ({ text: distillReply(req.messages.length) }));
    const { assistant, store } = makeAssistant({ model: m });
    for (let i = 1; i <= 4; i++) await assistant.conversation.handle(msg(i === 1 ? "let's ship it on Friday" : `message ${i}`));
    await assistant.idle();
    expect(m.requests.filter(isDistill)).toHaveLength(0);
    await assistant.conversation.handle(msg('message 5'));
    await assistant.idle();
    expect(m.requests.filter(isDistill)).toHaveLength(1);

    const { layers } = await store.readLayers('general');
    expect(layers.summary).toMatch(/We planned the launch/);
    expect(layers.decisions).toEqual([{ date: '2026-11-29', text: 'Launch on Friday', source: expect.stringMatching(/^test:/) }]);
    // the invented quote is dropped; the real one keeps speaker, date and source
    expect(layers.quotes).toEqual([{ date: '2026-11-29', speaker: 'Alice', text: 'ship it on Friday', source: expect.stringMatching(/^test:/) }]);

    // the next distillation sees only messages after the cursor
    for (let i = 6; i <= 10; i++) await assistant.conversation.handle(msg(`message ${i}`));
    await assistant.idle();
    const second = m.requests.filter(isDistill)[1]!;
    const prompt = second.messages[1]!.content as string;
    expect(prompt).toContain('message 6');
    expect(prompt).not.toContain('message 5:');
    // a decision already recorded is not duplicated
    expect((await store.readLayers('general')).layers.decisions).toHaveLength(1);
  });

  it('a model failure or garbage leaves the files as they were, and the messages are distilled next time', async () => {
    let mode: 'garbage' | 'error' | 'good' = 'garbage';
    const m = model(() => (mode === 'garbage' ? { text: 'I think the summary is nice!' } : mode === 'error' ? { error: new Error('500') } : { text: distillReply(0) }));
    const { assistant, store } = makeAssistant({ model: m });
    for (let i = 1; i <= 5; i++) await assistant.conversation.handle(msg(i === 1 ? 'we ship it on Friday' : `m${i}`));
    await assistant.idle();
    expect((await store.readLayers('general')).layers).toEqual({ summary: '', decisions: [], quotes: [] });
    expect((await store.getDistillCursor('general')).offset).toBe(0);

    mode = 'error';
    expect((await assistant.memory.distillNow(general)).error).toBeDefined();
    expect((await store.readLayers('general')).layers.summary).toBe('');

    mode = 'good';
    const out = await assistant.memory.distillNow(general);
    expect(out).toMatchObject({ ran: true, messages: 10 }); // 5 messages + 5 replies, none lost
    const prompt = m.requests.filter(isDistill).at(-1)!.messages[1]!.content as string;
    expect(prompt).toContain('we ship it on Friday');
    expect((await store.readLayers('general')).layers.decisions).toHaveLength(1);
  });

  it('after a failure the automatic runs wait (DISTILL_EVERY asks, doubling), a success ends the wait, and nothing is lost', async () => {
    let good = false;
    const m = model(() => (good ? { text: distillReply(0) } : { text: 'I think the summary is nice!' }));
    const { assistant, store } = makeAssistant({ model: m });
    const turns = async (from: number, to: number) => {
      for (let i = from; i <= to; i++) {
        await assistant.conversation.handle(msg(i === 1 ? 'we ship it on Friday' : `m${i}`));
        await assistant.idle();
      }
    };
    // distill_every is 5 here: the 5th message tries and fails
    await turns(1, 5);
    expect(m.requests.filter(isDistill)).toHaveLength(1);
    // it waits 5 more asks, then tries (and fails) again, then waits 10
    await turns(6, 10);
    expect(m.requests.filter(isDistill)).toHaveLength(1);
    await turns(11, 11);
    expect(m.requests.filter(isDistill)).toHaveLength(2);
    await turns(12, 21);
    expect(m.requests.filter(isDistill)).toHaveLength(2);
    // a person's run never waits, and its success ends the wait: every message is there
    good = true;
    expect(await assistant.memory.distillNow(general)).toMatchObject({ ran: true, messages: 42 });
    expect((await store.readLayers('general')).layers.decisions).toHaveLength(1);
    await turns(22, 26);
    expect(m.requests.filter(isDistill)).toHaveLength(4);
  });

  it('a hand edit made while distilling survives', async () => {
    const { assistant, store } = makeAssistant({
      model: model(() => {
        store.handEdit('general', (l) => {
          l.summary = 'Written by a human.';
          l.decisions.push({ date: '2026-11-28', text: 'Use Postgres', source: 'manual' });
        });
        return { text: distillReply(0) };
      }),
    });
    for (let i = 1; i <= 5; i++) await assistant.conversation.handle(msg(i === 1 ? 'ship it on Friday' : `m${i}`));
    await assistant.idle();
    const { layers } = await store.readLayers('general');
    expect(layers.summary).toBe('Written by a human.');
    expect(layers.decisions.map((d) => d.text)).toEqual(['Use Postgres', 'Launch on Friday']);
  });

  it('a hosted model never distils', async () => {
    const m = model(() => ({ text: distillReply(0) }));
    const { assistant } = makeAssistant({ model: m, memoryModel: null });
    for (let i = 1; i <= 6; i++) await assistant.conversation.handle(msg(`m${i}`));
    await assistant.idle();
    expect(m.requests.filter(isDistill)).toHaveLength(0);
    expect((await assistant.memory.distillNow(general)).error).toMatch(/local model/);
  });

  it('in a DM, search_memory finds an old message beyond the history window, and only from that DM', async () => {
    const m = new ScriptedChatModel((req) =>
      req.messages.at(-1)!.role === 'user' && /passport/.test(String(req.messages.at(-1)!.content))
        ? { toolCalls: [{ name: 'search_memory', arguments: '{"query":"when does my passport expire"}' }] }
        : { text: 'ok' },
    );
    const { assistant } = makeAssistant({ model: m, memoryModel: null, settings: { historyMessages: 2 } });
    const ann = { kind: 'private', userId: '1', userName: 'Ann' } as const;
    const bob = { kind: 'private', userId: '2', userName: 'Bob' } as const;
    await assistant.conversation.handle(msg('my passport expires on 3 March', ann));
    await assistant.conversation.handle(msg('bob passport expires in June', bob));
    for (let i = 0; i < 4; i++) await assistant.conversation.handle(msg(`filler ${i}`, ann));
    await assistant.conversation.handle(msg('when does my passport expire?', ann));
    const toolResult = m.requests.at(-1)!.messages.at(-1)!;
    expect(toolResult.role).toBe('tool');
    expect(toolResult.content).toContain('my passport expires on 3 March');
    expect(toolResult.content).not.toContain('June');
    expect((await assistant.memory.searchMemory(ann, 'passport')).map((h) => h.text)).toContain('Alice: my passport expires on 3 March');
  });

  it('private conversations distil into the private store and never touch projects', async () => {
    const m = model(() => ({ text: distillReply(0) }));
    const { assistant, store, privateStore } = makeAssistant({ model: m });
    const dm = { kind: 'private', userId: '42', userName: 'Alice' } as const;
    for (let i = 1; i <= 5; i++) await assistant.conversation.handle(msg(i === 1 ? 'ship it on Friday' : `secret ${i}`, dm));
    await assistant.idle();
    expect((store as unknown as { projects: Map<string, unknown> }).projects.size).toBe(0);
    const layers = privateStore.readLayers('42');
    expect(layers.summary).toMatch(/We planned/);
    expect(layers.distilledThrough).toBe(10);
    // notes tools are not offered in a DM
    const chat = m.requests.find((r) => !isDistill(r))!;
    expect(chat.tools?.map((t) => t.name) ?? []).not.toContain('remember');
  });

  it('keeps the valid items of a reply with one bad quote, and logs nothing fatal', async () => {
    const reply = JSON.stringify({
      summary: 'We planned the launch.',
      decisions: [{ text: 'Launch on Friday', message: 1 }, { text: 'x', message: 1 }, { nonsense: true }],
      quotes: [
        { text: 'ok', message: 1 },
        { text: 'ship it on Friday', message: 1 },
      ],
      entities: 'not a list',
    });
    const m = model(() => ({ text: reply }));
    const { assistant, store } = makeAssistant({ model: m });
    for (let i = 1; i <= 5; i++) await assistant.conversation.handle(msg(i === 1 ? "ok, let's ship it on Friday" : `m${i}`));
    await assistant.idle();
    const { layers } = await store.readLayers('general');
    expect(layers.summary).toBe('We planned the launch.');
    expect(layers.decisions.map((d) => d.text)).toEqual(['Launch on Friday']);
    expect(layers.quotes.map((q) => q.text)).toEqual(['ship it on Friday']);
    expect((await store.getDistillCursor('general')).offset).toBe(10); // the batch counts as distilled
  });

  it('logs each item it leaves out for not being said, by position and never by its text', async () => {
    const sink = new RecordingSink();
    const m = model(() => ({ text: distillReply(5) }));
    const { assistant, store } = makeAssistant({ model: m, logger: createLogger('info', sink) });
    for (let i = 1; i <= 5; i++) await assistant.conversation.handle(msg(i === 1 ? "let's ship it on Friday" : `message ${i}`));
    await assistant.idle();
    expect((await store.readLayers('general')).layers.quotes.map((q) => q.text)).toEqual(['ship it on Friday']);
    const line = sink.lines.find((l) => l.msg === 'dropped distillation items not grounded in the messages');
    expect(line).toMatchObject({ count: 1, dropped: ['quotes[1]: not the words of a person in message 2'] });
    expect(JSON.stringify(sink.lines)).not.toContain('a sentence nobody said');
  });

  it('a reply without a summary keeps the old summary but still records its valid decisions', async () => {
    const m = model(() => ({ text: JSON.stringify({ summary: '', decisions: [{ text: 'Use tea, not coffee', message: 1 }] }) }));
    const { assistant, store } = makeAssistant({ model: m });
    store.projects.clear();
    for (let i = 1; i <= 5; i++) await assistant.conversation.handle(msg(`m${i}`));
    await assistant.idle();
    const { layers } = await store.readLayers('general');
    expect(layers.summary).toBe('');
    expect(layers.decisions.map((d) => d.text)).toEqual(['Use tea, not coffee']);
  });

  it('distils a backlog larger than a batch in several requests, moving the cursor after each', async () => {
    const m = model((req) => ({ text: JSON.stringify({ summary: `batch with ${(String(req.messages[1]!.content).match(/^\[\d+\]/gm) ?? []).length} messages` }) }));
    const { assistant: filler, store } = makeAssistant({ model: m, memoryModel: null });
    for (let i = 1; i <= 30; i++) await filler.conversation.handle(msg(`message number ${i} ${'words '.repeat(20)}`));
    m.requests.length = 0;
    const { assistant } = makeAssistant({ model: m, store, settings: { distillBatchChars: 2000 } });
    const out = await assistant.memory.distillNow(general);
    expect(out).toMatchObject({ ran: true, messages: 60 });
    const prompts = m.requests.filter(isDistill).map((r) => String(r.messages[1]!.content));
    expect(prompts.length).toBeGreaterThan(3);
    for (const p of prompts) expect(p.length).toBeLessThan(2000 + 1500);
    expect(prompts.join('\n')).toContain('message number 1 ');
    expect(prompts.at(-1)).toContain('message number 30 ');
    expect((await store.getDistillCursor('general')).offset).toBe(60);
  });

  it('halves a batch the model finds too long for its context, and one failure keeps the batches already done', async () => {
    const m = model((req) => {
      const count = (String(req.messages[1]!.content).match(/^\[\d+\]/gm) ?? []).length;
      if (count > 4) return { error: new ModelHttpError(400, 'u', "This model's maximum context length is 2048 tokens") };
      return { text: JSON.stringify({ summary: `${count} messages` }) };
    });
    const { assistant: filler, store } = makeAssistant({ model: m, memoryModel: null });
    for (let i = 1; i <= 8; i++) await filler.conversation.handle(msg(`m${i}`));
    const { assistant } = makeAssistant({ model: m, store, settings: { distillBatchChars: 100_000 } });
    expect(await assistant.memory.distillNow(general)).toMatchObject({ ran: true, messages: 16 });
    expect((await store.getDistillCursor('general')).offset).toBe(16);

    for (let i = 9; i <= 12; i++) await filler.conversation.handle(msg(`m${i}`));
    let n = 0;
    const failing = m as unknown as { script: (req: ChatRequest, k: number) => ScriptStep };
    const original = failing.script;
    failing.script = (req, k) => (isDistill(req) && ++n === 3 ? { error: new Error('server crashed') } : original(req, k));
    const second = await assistant.memory.distillNow(general);
    expect(second.error).toMatch(/server crashed/);
    expect((await store.getDistillCursor('general')).offset).toBeGreaterThan(16);
    expect((await store.getDistillCursor('general')).offset).toBeLessThan(24);
  });

  it('a DM backlog is distilled in batches too, the private cursor moving with each batch', async () => {
    const m = model(() => ({ text: distillReply(0) }));
    const { assistant: filler, privateStore } = makeAssistant({ model: m, memoryModel: null });
    const dm = { kind: 'private', userId: '7', userName: 'Ann' } as const;
    for (let i = 1; i <= 20; i++) await filler.conversation.handle(msg(`private ${i} ${'words '.repeat(20)}`, dm));
    m.requests.length = 0;
    const { assistant } = makeAssistant({ model: m, privateStore, settings: { distillBatchChars: 2000 } });
    expect(await assistant.memory.distillNow(dm)).toMatchObject({ ran: true, messages: 40 });
    expect(m.requests.filter(isDistill).length).toBeGreaterThan(2);
    expect(privateStore.readLayers('7').distilledThrough).toBe(40);
  });
});
