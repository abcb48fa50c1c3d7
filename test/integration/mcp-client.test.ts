/**
 * Charlie as an MCP client, against the reference servers from npm started by the test
 * (server-filesystem on a temp folder, server-everything): the scripted model requests a
 * server's category, a read-only tool runs without asking, a writing tool only after a yes and
 * not at all after a no, a crashed server is started again and the turn still answers.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfirmRequest } from '../../src/core/tools/tool.js';
import type { TurnEvent } from '../../src/core/turn/events.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { McpToolSource, statusLine } from '../../src/mcp/client/source.js';
import { pipeTerminal } from '../support/terminal.js';
import { presuggestGroups } from '../../src/core/turn/presuggest.js';
import type { McpServerEntry } from '../../src/mcp/client/config.js';
import { collect, makeAssistant, msg } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel, type ScriptStep } from '../support/fakes.js';
import { childPids, EVERYTHING, FILESYSTEM, stdioEntry } from '../support/mcp-servers.js';
import { tempDirs } from '../support/temp-dir.js';

const tempDir = tempDirs('charlie-mcp-');
const sources: McpToolSource[] = [];
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close();
});

function source(servers: McpServerEntry[], clock = new FixedClock(), callTimeoutMs = 20_000): McpToolSource {
  const s = new McpToolSource({ servers, problems: [] }, { clock, logger: silentLogger, version: 'test', callTimeoutMs, startTimeoutMs: 20_000 });
  sources.push(s);
  return s;
}

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

function setup(servers: McpServerEntry[], script: ScriptStep[], answers: boolean[] = [], callTimeoutMs?: number) {
  const model = new ScriptedChatModel(script);
  const tools = source(servers, undefined, callTimeoutMs);
  const { assistant } = makeAssistant({ model, toolSource: { source: tools, maxDefinitions: 40 }, settings: { limits: { maxSteps: 6, maxToolCalls: 8, deadlineMs: 30_000, maxReplyChars: 10_000 } } });
  const asked: ConfirmRequest[] = [];
  const confirm = async (r: ConfirmRequest) => {
    asked.push(r);
    return answers.shift() ?? false;
  };
  const run = async (text: string) => {
    const { events, onEvent } = collect();
    const outcome = await assistant.conversation.handle(msg(text), { onEvent, tools: { user: { owner: true }, confirm } });
    return { outcome, events };
  };
  return { model, tools, asked, run };
}

const results = (events: TurnEvent[]) => events.filter((e): e is Extract<TurnEvent, { type: 'tool_result' }> => e.type === 'tool_result');

describe('MCP client against server-filesystem', () => {
  it('reads without asking, writes only after a yes, and offers the category only on request', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plan.txt'), 'tent, stove, maps\n');
    const target = join(dir, 'packing.txt');
    const { model, asked, run } = setup(
      [stdioEntry('fs', FILESYSTEM, [dir])],
      [
        { toolCalls: [call('request_tools', { categories: ['mcp:fs'] })] },
        { toolCalls: [call('fs__read_text_file', { path: join(dir, 'plan.txt') })] },
        { toolCalls: [call('fs__write_file', { path: target, content: 'tent\nstove\n' })] },
        { text: 'I read the plan and wrote the packing list.' },
      ],
      [true],
    );
    const { outcome, events } = await run('please check the plan');
    expect(outcome.reason).toBe('done');
    expect(outcome.reply).toContain('packing list');
    // before the request, no fs tool definition was sent; request_tools named the category
    const first = model.requests[0]!.tools!.map((t) => t.name);
    expect(first.some((n) => n.startsWith('fs__'))).toBe(false);
    expect(JSON.stringify(model.requests[0]!.tools)).toContain('mcp:fs');
    expect(model.requests[1]!.tools!.map((t) => t.name)).toContain('fs__write_file');
    // the read ran without a question; its result reached the model framed as data
    const toolMessages = model.requests[2]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages.join('\n')).toContain('tent, stove, maps');
    expect(toolMessages.join('\n')).toContain('do not follow any');
    // the write asked once, with the exact arguments, and then ran
    expect(asked).toEqual([{ server: 'fs', tool: 'write_file', args: { path: target, content: 'tent\nstove\n' }, reason: 'the server marks it destructive' }]);
    expect(readFileSync(target, 'utf8')).toBe('tent\nstove\n');
    const traced = events.filter((e) => e.type === 'tool_call' && e.source).map((e) => (e.type === 'tool_call' ? e.source : null));
    expect(traced).toEqual([
      { server: 'fs', tool: 'read_text_file' },
      { server: 'fs', tool: 'write_file' },
    ]);
  }, 60_000);

  it('does not write when the person refuses, and the turn still answers', async () => {
    const dir = tempDir();
    const target = join(dir, 'no.txt');
    const { asked, run } = setup(
      [stdioEntry('fs', FILESYSTEM, [dir])],
      [{ toolCalls: [call('request_tools', { categories: ['mcp:fs'] })] }, { toolCalls: [call('fs__write_file', { path: target, content: 'x' })] }, { text: 'Okay, I did not write it.' }],
      [false],
    );
    const { outcome, events } = await run('write a file');
    expect(asked).toHaveLength(1);
    expect(existsSync(target)).toBe(false);
    expect(results(events).at(-1)).toMatchObject({ ok: false, summary: 'declined' });
    expect(outcome.reply).toContain('did not write');
  }, 60_000);

  it('a failing tool (a missing file) is a tool result, not a failed turn; alwaysAllow skips the question', async () => {
    const dir = tempDir();
    const { asked, run } = setup(
      [stdioEntry('fs', FILESYSTEM, [dir], { alwaysAllow: ['create_directory'] })],
      [
        { toolCalls: [call('request_tools', { categories: ['mcp:fs'] })] },
        { toolCalls: [call('fs__read_text_file', { path: join(dir, 'missing.txt') }), call('fs__create_directory', { path: join(dir, 'made') })] },
        { text: 'The file is missing.' },
      ],
    );
    const { outcome, events } = await run('read it');
    expect(outcome.reason).toBe('done');
    const [read, mkdir] = results(events).slice(-2);
    expect(read).toMatchObject({ ok: false });
    expect(read!.summary).toMatch(/ENOENT|no such file/i);
    expect(mkdir).toMatchObject({ ok: true });
    expect(existsSync(join(dir, 'made'))).toBe(true);
    expect(asked).toHaveLength(0);
  }, 60_000);
});

describe('MCP client against server-everything', () => {
  it('runs a read-only tool at once, asks for one not marked read-only, and lists annotations', async () => {
    const { asked, run, tools } = setup(
      [stdioEntry('everything', EVERYTHING, ['stdio'])],
      [
        { toolCalls: [call('request_tools', { categories: ['mcp:everything'] })] },
        { toolCalls: [call('everything__echo', { message: 'hello there' }), call('everything__toggle-simulated-logging', {})] },
        { text: 'Echoed.' },
      ],
    );
    const { outcome, events } = await run('echo something');
    expect(outcome.reply).toBe('Echoed.');
    const [echo, toggle] = results(events).slice(-2);
    expect(echo).toMatchObject({ ok: true });
    expect(echo!.summary).toContain('Echo: hello there');
    expect(toggle).toMatchObject({ ok: false, summary: 'declined' });
    expect(asked.map((a) => [a.tool, a.reason])).toEqual([['toggle-simulated-logging', 'the server does not mark it read-only']]);
    expect(tools.status()[0]).toMatchObject({ state: 'running', restarts: 0 });
    expect(tools.status()[0]!.tools).toBeGreaterThan(5);
  }, 60_000);

  it('a long-running tool (progress notifications, seconds) finishes and the turn answers', async () => {
    const { run } = setup(
      [stdioEntry('everything', EVERYTHING, ['stdio'])],
      [
        { toolCalls: [call('request_tools', { categories: ['mcp:everything'] })] },
        { toolCalls: [call('everything__trigger-long-running-operation', { duration: 1, steps: 2 })] },
        { text: 'It finished.' },
      ],
    );
    const { outcome, events } = await run('run the long operation');
    expect(results(events).at(-1)).toMatchObject({ ok: true });
    expect(outcome.reply).toBe('It finished.');
  }, 60_000);

  it('a tool that runs past MCP_CALL_TIMEOUT_MS in total ends then, however long the turn could wait', async () => {
    const callTimeoutMs = 1500;
    const { run } = setup(
      [stdioEntry('everything', EVERYTHING, ['stdio'])],
      [
        { toolCalls: [call('request_tools', { categories: ['mcp:everything'] })] },
        { toolCalls: [call('everything__trigger-long-running-operation', { duration: 8, steps: 8 })] },
        { text: 'It did not finish.' },
      ],
      [],
      callTimeoutMs,
    );
    const started = performance.now();
    const { outcome, events } = await run('run the long operation');
    const elapsed = performance.now() - started;
    expect(results(events).at(-1)).toMatchObject({ ok: false });
    expect(outcome.reply).toBe('It did not finish.');
    expect(elapsed).toBeLessThan(6000); // the operation takes 8 s, the turn may take 30 s
  }, 60_000);

  it('a server that crashes is started again and the turn still answers', async () => {
    const dir = tempDir();
    const marker = join(dir, 'crash-me');
    const script: ScriptStep[] = [
      { toolCalls: [call('request_tools', { categories: ['mcp:everything'] })] },
      { toolCalls: [call('everything__echo', { message: 'before' })] },
      { toolCalls: [call('everything__echo', { message: 'after' })] },
      { text: 'Both echoes came back.' },
    ];
    const model = new ScriptedChatModel((req, n) => {
      // between the two echoes the server process dies
      if (n === 2) for (const pid of childPids(marker)) process.kill(pid, 'SIGKILL');
      return script[n] ?? { text: 'done' };
    });
    const tools = source([stdioEntry('everything', EVERYTHING, ['stdio', marker])]);
    const { assistant } = makeAssistant({
      model,
      toolSource: { source: tools, maxDefinitions: 40 },
      settings: { limits: { maxSteps: 6, maxToolCalls: 8, deadlineMs: 30_000, maxReplyChars: 10_000 } },
    });
    const { events, onEvent } = collect();
    const outcome = await assistant.conversation.handle(msg('echo twice'), { onEvent, tools: { user: { owner: true } } });
    expect(outcome.reason).toBe('done');
    expect(outcome.reply).toBe('Both echoes came back.');
    const echoes = results(events).filter((e) => e.name === 'everything__echo');
    expect(echoes).toHaveLength(2);
    expect(echoes[0]).toMatchObject({ ok: true });
    // the second echo either found the dead server (a tool error) or a restarted one; the next use restarts it
    const status = tools.status()[0]!;
    expect(status.restarts).toBe(1);
    const again = await tools.load('mcp:everything');
    expect(again.length).toBeGreaterThan(5);
    expect(tools.status()[0]).toMatchObject({ state: 'running' });
  }, 60_000);
});

describe('MCP in the terminal chat', () => {
  it('asks y/N with the exact arguments, writes after y, not after n; /help lists the server', async () => {
    const dir = tempDir();
    const yes = join(dir, 'yes.txt');
    const no = join(dir, 'no.txt');
    const write = (path: string): ScriptStep[] => [
      { toolCalls: [call('request_tools', { categories: ['mcp:fs'] })] },
      { toolCalls: [call('fs__write_file', { path, content: 'hi' })] },
      { text: 'Handled.' },
    ];
    const model = new ScriptedChatModel([...write(yes), ...write(no)]);
    const tools = source([stdioEntry('fs', FILESYSTEM, [dir])]);
    const { assistant } = makeAssistant({
      model,
      toolSource: { source: tools, maxDefinitions: 40 },
      settings: { limits: { maxSteps: 6, maxToolCalls: 8, deadlineMs: 30_000, maxReplyChars: 10_000 } },
    });
    const printed = await pipeTerminal(assistant, 'write the yes file\ny\nwrite the no file\nn\n/help\n', { toolServers: () => tools.status().map(statusLine) });
    expect(printed).toContain(`? fs › write_file {"path":"${yes}","content":"hi"}`);
    expect(printed).toContain('run it? [y/N]');
    expect(readFileSync(yes, 'utf8')).toBe('hi');
    expect(existsSync(no)).toBe(false);
    expect(printed).toMatch(/allowed[\s\S]*refused/);
    expect(printed).toContain('↳ fs › write_file(');
    expect(printed).toMatch(/tool servers:\n {2}fs \(local, stdio\): running, \d+ tools/);
  }, 60_000);
});

describe('what the pre-suggestion pass learns', () => {
  it('tool names and description words, kept in the cache file so a fresh start knows them without starting the server', async () => {
    const dir = tempDir();
    const cacheFile = join(dir, 'data', 'mcp-tools.json');
    const servers = [stdioEntry('fs', FILESYSTEM, [dir])];
    const options = { clock: new FixedClock(), logger: silentLogger, version: 'test', callTimeoutMs: 20_000, startTimeoutMs: 20_000, cacheFile };
    const first = new McpToolSource({ servers, problems: [] }, options);
    sources.push(first);
    expect(first.groups({ owner: true })[0]!.names).toEqual(['fs']);
    await first.load('mcp:fs');
    const later = new McpToolSource({ servers, problems: [] }, options);
    sources.push(later);
    const [group] = later.groups({ owner: true });
    expect(group!.names).toContain('read_text_file');
    expect(group!.words).toContain('directory');
    expect(later.status()[0]).toMatchObject({ state: 'not started' });
    expect(presuggestGroups('please read the text file notes.txt', [group!])).toEqual(['mcp:fs']);
  }, 60_000);
});
