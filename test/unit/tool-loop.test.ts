import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../support/fakes.js';
import { collect, general, makeAssistant, msg } from '../support/assistant-fixture.js';
import { parseToolArguments } from '../../src/core/turn/tool-args.js';
import { presuggest } from '../../src/core/turn/presuggest.js';
import { MODEL_CUT } from '../../src/core/turn/tool-loop.js';

describe('tool loop guards', () => {
  it('a model that calls tools forever stops at max steps and still gives a useful reply', async () => {
    const model = new ScriptedChatModel((req) => (req.tools ? { toolCalls: [{ name: 'current_time', arguments: '{}' }] } : { text: 'It is noon on Sunday.' }));
    const { assistant } = makeAssistant({ model, settings: { limits: { maxSteps: 3, maxToolCalls: 50, deadlineMs: 5000, maxReplyChars: 10_000 } } });
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg('what time is it?'), { onEvent });
    expect(out.reason).toBe('max_steps');
    expect(out.reply).toContain('It is noon on Sunday.');
    // 3 tool steps + 1 final answer without tools
    expect(model.requests).toHaveLength(4);
    expect(model.requests[3]!.tools).toBeUndefined();
    expect(events.filter((e) => e.type === 'tool_call')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'max_steps' });
  });

  it('stops at max tool calls; calls beyond the limit are not run', async () => {
    const model = new ScriptedChatModel((req) => (req.tools ? { toolCalls: Array.from({ length: 4 }, () => ({ name: 'current_time', arguments: '{}' })) } : { text: 'done' }));
    const { assistant } = makeAssistant({ model, settings: { limits: { maxSteps: 10, maxToolCalls: 6, deadlineMs: 5000, maxReplyChars: 10_000 } } });
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg('time please'), { onEvent });
    expect(out.reason).toBe('max_tool_calls');
    const results = events.flatMap((e) => (e.type === 'tool_result' ? [e] : []));
    expect(results.filter((e) => e.ok)).toHaveLength(6);
    expect(results.filter((e) => e.summary === 'skipped (limit)')).toHaveLength(2);
  });

  it('bad tool JSON, unknown tools and bad arguments come back as tool results, not crashes', async () => {
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'search_memory', arguments: '{"query": "jwt", ' },
          { name: 'launch_rockets', arguments: '{}' },
          { name: 'search_memory', arguments: '{"limit": "many"}' },
        ],
      },
      { text: 'Sorry, I found nothing about that.' },
    ]);
    const { assistant } = makeAssistant({ model });
    const out = await assistant.conversation.handle(msg('what did we decide about jwt?'));
    expect(out.reason).toBe('done');
    expect(out.reply).toBe('Sorry, I found nothing about that.');
    const toolMessages = model.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(3);
    expect(toolMessages[0]!.content).toMatch(/not a JSON object/);
    expect(toolMessages[1]!.content).toMatch(/no tool named "launch_rockets"/);
    expect(toolMessages[2]!.content).toMatch(/invalid arguments for search_memory/);
  });

  it('a failing tool becomes an error result the model reads', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'search_notes', arguments: '{"text":"tea"}' }] }, { text: 'I could not search just now.' }]);
    const { assistant, store } = makeAssistant({ model });
    store.grepNotes = async () => {
      throw new Error('disk on fire');
    };
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg('find my note about tea'), { onEvent });
    expect(out.reason).toBe('done');
    expect(out.reply).toBe('I could not search just now.');
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ ok: false, summary: expect.stringMatching(/disk on fire/) });
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/search_notes failed: disk on fire/) });
  });

  it('a hanging model hits the deadline and the turn ends with a reason', async () => {
    const model = new ScriptedChatModel([{ hang: true }]);
    const { assistant } = makeAssistant({ model, settings: { limits: { maxSteps: 3, maxToolCalls: 3, deadlineMs: 300, maxReplyChars: 10_000 } } });
    const started = Date.now();
    const out = await assistant.conversation.handle(msg('hello?'));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(out.reason).toBe('deadline');
    expect(out.reply).toMatch(/ran out of time/);
  });

  it('cancelling through the signal ends the turn as cancelled', async () => {
    const model = new ScriptedChatModel([{ hang: true }]);
    const { assistant } = makeAssistant({ model });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 50);
    const out = await assistant.conversation.handle(msg('long question'), { signal: ctrl.signal });
    expect(out.reason).toBe('cancelled');
  });

  it('the model can request another tool category', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'request_tools', arguments: '{"categories":["time"]}' }] },
      { toolCalls: [{ name: 'current_time', arguments: '{}' }] },
      { text: 'It is 12:00.' },
    ]);
    const { assistant } = makeAssistant({ model });
    const out = await assistant.conversation.handle(msg('hmm, tell me something'));
    expect(out.reply).toBe('It is 12:00.');
    const first = model.requests[0]!.tools!.map((t) => t.name);
    expect(first).not.toContain('current_time');
    expect(first).toContain('request_tools');
    expect(model.requests[1]!.tools!.map((t) => t.name)).toContain('current_time');
  });

  it('emits events in order: start, tool call with args, tool result, text, end', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'current_time', arguments: '{"timeZone":"Europe/Berlin"}' }] }, { text: 'Noon.' }]);
    const { assistant } = makeAssistant({ model });
    const { events, onEvent } = collect();
    await assistant.conversation.handle(msg('what time is it now'), { onEvent });
    expect(events.map((e) => e.type)).toEqual(['turn_start', 'tool_call', 'tool_result', 'text_delta', 'turn_end']);
    expect(events[1]).toMatchObject({ name: 'current_time', args: { timeZone: 'Europe/Berlin' } });
  });
});

describe('tolerant tool arguments', () => {
  it('accepts fenced, trailing-comma, double-encoded and empty arguments', () => {
    expect(parseToolArguments('```json\n{"a": 1,}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseToolArguments('"{\\"q\\": \\"x\\"}"')).toEqual({ ok: true, value: { q: 'x' } });
    expect(parseToolArguments('')).toEqual({ ok: true, value: {} });
    expect(parseToolArguments('sure! {"q": "y"} there')).toEqual({ ok: true, value: { q: 'y' } });
    expect(parseToolArguments('{"q": ').ok).toBe(false);
    expect(parseToolArguments('[1,2]').ok).toBe(false);
  });
});

describe('pre-suggestion', () => {
  const all = ['memory', 'notes', 'time'] as const;
  it('picks categories from cues and defaults to memory', () => {
    expect(presuggest('what time is it', all)).toEqual(['time']);
    expect(presuggest('remember that Sarah likes tea', all)).toEqual(['memory', 'notes']);
    expect(presuggest('hello there', all)).toEqual(['memory']);
    expect(presuggest('what day is today', ['time'])).toEqual(['time']);
  });
});

describe('the turn', () => {
  it('shapes every reply with the project style and keeps the user message in the archive when the model is down', async () => {
    const down = new ScriptedChatModel([{ error: new (await import('../../src/core/errors.js')).ModelUnavailableError('http://127.0.0.1:9/v1') }]);
    const { assistant, store } = makeAssistant({ model: down });
    await assistant.settings.setStyle(general, 'answer like a pirate');
    const out = await assistant.conversation.handle(msg('are you there?'));
    expect(out.reason).toBe('error');
    expect(out.reply).toMatch(/can't reach my model server/);
    expect((await store.recentLog('general', 10)).map((e) => e.text)).toEqual(['are you there?']);

    const up = new ScriptedChatModel([{ text: 'Arr.' }]);
    const { assistant: a2 } = makeAssistant({ model: up, store });
    await a2.conversation.handle(msg('hello'));
    expect(up.requests[0]!.messages[0]!.content).toContain('answer like a pirate');
  });

  it('a 100 kB message is archived whole and cut for the model with a notice', async () => {
    const model = new ScriptedChatModel([{ text: 'That is long.' }]);
    const { assistant, store } = makeAssistant({ model });
    const big = 'x'.repeat(100_000);
    const out = await assistant.conversation.handle(msg(big));
    expect(out.notices.join(' ')).toMatch(/first 20000 characters/);
    const log = await store.recentLog('general', 5);
    expect(log[0]!.text).toHaveLength(100_000);
    const sent = model.requests[0]!.messages.at(-1)!.content as string;
    expect(sent.length).toBeLessThan(21_000);
  });

  it('images are skipped with a visible notice when the model does not accept them', async () => {
    const model = new ScriptedChatModel([{ text: 'ok' }, { text: 'I see a cat.' }]);
    const { assistant } = makeAssistant({ model });
    const out = await assistant.conversation.handle(msg('look', general, { images: ['data:image/png;base64,AAAA'] }));
    expect(out.notices.join(' ')).toMatch(/image\(s\) skipped/);
    const vision = new ScriptedChatModel([{ text: 'I see a cat.' }], true);
    const { assistant: a2 } = makeAssistant({ model: vision });
    await a2.conversation.handle(msg('look', general, { images: ['data:image/png;base64,AAAA'] }));
    const content = vision.requests[0]!.messages.at(-1)!.content;
    expect(Array.isArray(content) && content.some((p) => p.type === 'image_url')).toBe(true);
  });

  it('a sensitive note is never sent to a hosted model, but is to a local one', async () => {
    const script = () => [{ toolCalls: [{ name: 'read_note', arguments: '{"path":"People/Bank.md"}' }] }, { text: 'ok' }];
    for (const locality of ['hosted', 'local'] as const) {
      const model = new ScriptedChatModel(script(), false, locality);
      const { assistant, store } = makeAssistant({ model, memoryModel: null });
      await store.ensureProject(general.kind === 'project' ? general.origin : (undefined as never));
      await store.putPage('general', { title: 'Bank', category: 'People', body: 'PIN is 1234', source: 'manual' });
      store.projects.get('general')!.notes.get('People/Bank.md')!.sensitivity = 'sensitive';
      await assistant.conversation.handle(msg('open my bank note'));
      const toolResult = model.requests[1]!.messages.at(-1)!.content as string;
      if (locality === 'hosted') {
        expect(toolResult).toMatch(/marked sensitive/);
        expect(JSON.stringify(model.requests)).not.toContain('PIN is 1234');
      } else expect(toolResult).toContain('PIN is 1234');
    }
  });

  it('search_memory tells the model to say when records disagree, and to ask about a commitment past due', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'search_memory', arguments: '{"query":"Sarah work"}' }] }, { text: 'ok' }]);
    const hit = (text: string, why: string[], confidence: number) => ({
      page: 'notes/People/Sarah.md',
      heading: 'Sarah › Facts',
      lineStart: 3,
      lineEnd: 3,
      text,
      updated: '',
      staleness: 0,
      score: 0.5,
      confidence,
      parts: { vector: 0.5, keyword: 0, usage: 0, recency: 1 },
      why,
    });
    const recall = {
      recall: () =>
        Promise.resolve([
          hit('- Works at Globex. [status:: review]', ['vector', 'review'], 0.8),
          hit('- Will send mock-ups. [due:: 2026-11-01]', ['vector', 'expired'], 0.1),
          hit('- Likes tea.', ['vector'], 0.9),
        ]),
    };
    const { assistant, store } = makeAssistant({ model, memoryModel: null, recall });
    await store.ensureProject(general.kind === 'project' ? general.origin : (undefined as never));
    await assistant.conversation.handle(msg('where does Sarah work'));
    const toolResult = model.requests[1]!.messages.at(-1)!.content as string;
    const [review, expired, plain] = toolResult.split('\n\n');
    expect(review).toMatch(/confidence 0\.80; vector\+review\)\nNOTE: records marked \[status:: review\] disagree/);
    expect(expired).toMatch(/NOTE: a commitment here is past its due date: ask once whether it happened/);
    expect(plain).not.toContain('NOTE');
  });

  it('records marked sensitive never reach a hosted model, in read_note or search_memory', async () => {
    for (const locality of ['hosted', 'local'] as const) {
      const script = () => [
        {
          toolCalls: [
            { name: 'read_note', arguments: '{"path":"People/Sam.md"}' },
            { name: 'search_memory', arguments: '{"query":"Sam"}' },
          ],
        },
        { text: 'ok' },
      ];
      const model = new ScriptedChatModel(script(), false, locality);
      const line = '- Takes insulin daily. [type:: identity] [sensitivity:: sensitive/phi] [source:: manual]';
      const recall = {
        recall: () =>
          Promise.resolve([
            {
              page: 'notes/People/Sam.md',
              heading: '',
              lineStart: 1,
              lineEnd: 2,
              text: `${line}\n- Likes chess. [source:: manual]`,
              updated: '',
              staleness: 0,
              score: 1,
              parts: { vector: 1, keyword: 0, usage: 0, recency: 1 },
              why: ['vector'],
            },
          ]),
      };
      const { assistant, store } = makeAssistant({ model, memoryModel: null, recall });
      await store.ensureProject(general.kind === 'project' ? general.origin : (undefined as never));
      await store.putPage('general', { title: 'Sam', category: 'People', body: `## Facts\n${line}\n- Likes chess. [source:: manual]`, source: 'manual' });
      await assistant.conversation.handle(msg('tell me about Sam'));
      const sent = JSON.stringify(model.requests[1]!.messages);
      expect(sent).toContain('Likes chess.');
      if (locality === 'hosted') expect(sent).not.toContain('insulin');
      else expect(sent).toContain('insulin');
    }
  });

  it('held and superseded records of a note never reach the model', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'read_note', arguments: '{"path":"People/Sarah.md"}' }] }, { text: 'ok' }]);
    const { assistant, store } = makeAssistant({ model, memoryModel: null });
    await store.ensureProject(general.kind === 'project' ? general.origin : (undefined as never));
    const body = [
      '## Facts',
      '- Works at Globex. [type:: identity] [status:: review] [said:: 2026-11-01] [source:: manual]',
      '- Works at Acme. [type:: identity] [status:: superseded] [said:: 2026-01-01] [source:: manual]',
      '- Lives in Lisbon. [status::held] [source:: manual]',
    ].join('\n');
    await store.putPage('general', { title: 'Sarah', category: 'People', body, source: 'manual' });
    await assistant.conversation.handle(msg('where does Sarah work'));
    const toolResult = model.requests[1]!.messages.at(-1)!.content as string;
    expect(toolResult).toContain('Works at Globex.');
    expect(JSON.stringify(model.requests)).not.toContain('Acme');
    expect(JSON.stringify(model.requests)).not.toContain('Lisbon');
  });

  it('voice mode asks for short spoken replies', async () => {
    const model = new ScriptedChatModel([{ text: 'Sure.' }]);
    const { assistant } = makeAssistant({ model });
    await assistant.conversation.handle(msg('hey', general, { mode: 'voice' }));
    expect(model.requests[0]!.messages[0]!.content).toMatch(/speaking aloud/);
  });
});

describe('a model that stops at its own length limit', () => {
  it('keeps what it wrote and says in plain words that the answer may be incomplete', async () => {
    const model = new ScriptedChatModel([{ text: 'The first three steps are: pack, book the', finishReason: 'length' }]);
    const { assistant } = makeAssistant({ model });
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg('plan the trip'), { onEvent });
    expect(out.reason).toBe('done');
    expect(out.reply).toBe('The first three steps are: pack, book the');
    expect(out.notices).toContain(MODEL_CUT);
    expect(events.some((e) => e.type === 'notice' && e.text === MODEL_CUT)).toBe(true);
  });

  it('says nothing when the model finished', async () => {
    const model = new ScriptedChatModel([{ text: 'Pack, book, go.' }]);
    const { assistant } = makeAssistant({ model });
    const out = await assistant.conversation.handle(msg('plan the trip'));
    expect(out.notices).not.toContain(MODEL_CUT);
  });
});
