import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { describeLane, modelLanes } from '../../src/core/lanes.js';
import { isLocalHost, publicUrl, urlIsLocal } from '../../src/llm/locality.js';
import { ScriptedChatModel } from '../support/fakes.js';
import { tempDirs } from '../support/temp-dir.js';

const tmp = tempDirs('charlie-lanes-');

describe('locality auto: which hosts count as local', () => {
  const table: [string, boolean][] = [
    ['localhost', true],
    ['LOCALHOST.', true],
    ['ollama.localhost', true],
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['[::1]', true],
    ['10.0.0.5', true],
    ['172.16.0.1', true],
    ['172.31.255.254', true],
    ['172.32.0.1', false],
    ['172.15.0.1', false],
    ['192.168.1.20', true],
    ['192.169.0.1', false],
    ['169.254.10.10', true],
    ['[fe80::1]', true],
    ['[fd12:3456::1]', true],
    ['[fc00::1]', true],
    ['[::ffff:10.1.2.3]', true],
    ['[::ffff:8.8.8.8]', false],
    ['100.64.0.1', true],
    ['100.100.100.100', true],
    ['100.127.255.255', true],
    ['100.128.0.1', false],
    ['100.63.255.255', false],
    ['gpu-box.tail1234.ts.net', true],
    ['ts.net.example.com', false],
    ['box.local', true],
    ['nas.lan', true],
    ['8.8.8.8', false],
    ['[2606:4700::1111]', false],
    ['api.openai.com', false],
    ['localhost.evil.com', false],
    ['', false],
  ];
  it.each(table)('%s → local %s', (host, local) => {
    expect(isLocalHost(host)).toBe(local);
  });

  it('an explicit setting wins over the host', () => {
    expect(urlIsLocal('https://api.openai.com/v1', 'local')).toBe(true);
    expect(urlIsLocal('http://127.0.0.1:1234/v1', 'hosted')).toBe(false);
    expect(urlIsLocal('https://box.tail9.ts.net/v1', 'auto')).toBe(true);
  });

  it('public URLs lose their credentials', () => {
    expect(publicUrl('https://me:hunter2pass@api.example.com/v1/?key=abc')).toBe('https://api.example.com/v1');
    // a git remote through a transport helper (SYNC_REMOTE with git-remote-gcrypt)
    expect(publicUrl('gcrypt::https://ann:hunter2pass@git.example.com/charlie.git')).toBe('gcrypt::https://git.example.com/charlie.git');
  });
});

describe('the memory lane', () => {
  it('defaults to the chat settings when those are local', () => {
    const c = loadConfig({ LLM_BASE_URL: 'http://100.101.1.2:1234/v1', LLM_MODEL: 'qwen' }, tmp());
    expect(c.llmLocal).toBe(true);
    expect(c.memoryLane).toEqual({ baseUrl: 'http://100.101.1.2:1234/v1', model: 'qwen', from: 'chat' });
  });

  it('is absent when the chat model is hosted and no memory model is set', () => {
    const c = loadConfig({ LLM_BASE_URL: 'https://api.example.com/v1', LLM_API_KEY: 'k' }, tmp());
    expect(c.llmLocal).toBe(false);
    expect(c.memoryLane).toBeNull();
  });

  it('two lanes: hosted chat, local memory', () => {
    const c = loadConfig(
      { LLM_BASE_URL: 'https://api.example.com/v1', LLM_MODEL: 'big', LLM_API_KEY: 'chat-key', MEMORY_LLM_BASE_URL: 'http://localhost:11434/v1', MEMORY_LLM_MODEL: 'qwen2.5:7b' },
      tmp(),
    );
    expect(c.memoryLane).toEqual({ baseUrl: 'http://localhost:11434/v1', model: 'qwen2.5:7b', from: 'memory' });
  });

  it('a hosted memory address is refused at start, naming the variable, without its password', () => {
    let message = '';
    try {
      loadConfig({ MEMORY_LLM_BASE_URL: 'https://user:pw-Zq81x@api.example.com/v1' }, tmp());
    } catch (e) {
      message = String(e);
    }
    expect(message).toMatch(/MEMORY_LLM_BASE_URL: https:\/\/api\.example\.com\/v1 is a hosted address/);
    expect(message).not.toContain('pw-Zq81x');
    expect(loadConfig({ MEMORY_LLM_BASE_URL: 'https://gpu.example.com/v1', MEMORY_LLM_LOCALITY: 'local' }, tmp()).memoryLane?.baseUrl).toBe('https://gpu.example.com/v1');
  });

  it('says which model does which job and whether it is local', () => {
    const chat = new ScriptedChatModel<'hosted'>([], false, 'hosted');
    const lines = modelLanes(chat, null).map(describeLane);
    expect(lines[0]).toMatch(/^chat: .*\(hosted/);
    expect(lines[1]).toMatch(/^memory .*none .*MEMORY_LLM_BASE_URL/);
    const local = new ScriptedChatModel([], false, 'local');
    expect(modelLanes(chat, local).map(describeLane)[1]).toMatch(/^memory .*\(local\)$/);
  });
});
