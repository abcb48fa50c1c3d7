/** Every service the configuration sends anything to is listed, with where it runs, for doctor and /help. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DESTINATIONS, describeDestinations } from '../../src/core/privacy/destinations.js';
import { configuredDestinations, precheckCheck, precheckLine } from '../../src/doctor/destinations.js';

describe('destinations', () => {
  it('lists every kind, and says which leave the machine', () => {
    const config = loadConfig(
      {
        LLM_BASE_URL: 'https://api.example.com/v1',
        MEMORY_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
        EMBEDDER: 'openai',
        EMBEDDING_BASE_URL: 'https://embed.example.com/v1',
        STT_BASE_URL: 'http://127.0.0.1:8080/v1',
        TTS: 'edge',
      },
      '/tmp',
    );
    // calendar servers are not in the config: they are the subscriptions (from schedule.db); tool servers are data/mcp.json's
    const list = configuredDestinations(config, {
      calendars: [{ name: 'Family', kind: 'caldav', address: 'https://cloud.example.com/…', locality: 'hosted' }],
      toolServers: [{ name: 'web', locality: 'hosted' }],
    });
    expect(list.map((d) => d.kind).sort()).toEqual(Object.keys(DESTINATIONS).sort());
    const where = Object.fromEntries(list.map((d) => [d.kind, d.locality]));
    expect(where).toEqual({
      chat: 'hosted',
      memory: 'local',
      embedder: 'hosted',
      'speech-to-text': 'local',
      'text-to-speech': 'hosted',
      calendar: 'hosted',
      'mcp-tool-server': 'hosted',
      'mcp-client': 'hosted',
    });
    expect(describeDestinations(list).find((l) => l.startsWith('a calendar server'))).toMatch(/Family \(CalDAV, https:\/\/cloud\.example\.com\/…\), hosted .*sensitive event is never written/);
    const lines = describeDestinations(list);
    expect(lines.find((l) => l.startsWith('the embedder'))).toMatch(/hosted .*sensitive chunks and questions are not sent/);
    expect(lines.join('\n')).not.toContain('example.com/v1?');
  });

  it('a private setup leaves nothing', () => {
    const config = loadConfig({ EMBEDDER: 'builtin', TTS: 'local', MCP_SERVER_LOCALITY: 'local' }, '/tmp');
    expect(configuredDestinations(config).filter((d) => d.locality === 'hosted')).toEqual([]);
  });
});

describe("doctor's line on the memory lane's precheck", () => {
  const line = (env: Record<string, string>) => {
    const config = loadConfig({ EMBEDDER: 'builtin', ...env }, '/tmp');
    return precheckLine(config, configuredDestinations(config));
  };
  it('on with a hosted chat model and a local lane, not needed all local, by meaning without a lane, off when switched off', () => {
    expect(line({ LLM_BASE_URL: 'https://api.example.com/v1', MEMORY_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toMatch(/^precheck: on .*within 4000 ms/);
    expect(line({ LLM_BASE_URL: 'http://127.0.0.1:1234/v1' })).toMatch(/^precheck: not needed/);
    expect(line({ LLM_BASE_URL: 'https://api.example.com/v1' })).toMatch(/^precheck: by meaning .*within 4000 ms/);
    expect(line({ LLM_BASE_URL: 'https://api.example.com/v1', PRIVACY_PRECHECK: 'off' })).toMatch(/^precheck: none/);
    expect(line({ LLM_BASE_URL: 'https://api.example.com/v1', MEMORY_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', PRIVACY_PRECHECK: 'off' })).toMatch(/^precheck: off/);
  });

  it('warns when a hosted chat model or embedder gets words nothing local judged, and only then', () => {
    const status = (env: Record<string, string>) => {
      const config = loadConfig({ EMBEDDER: 'builtin', ...env }, '/tmp');
      return precheckCheck(config, configuredDestinations(config)).status;
    };
    const lane = { MEMORY_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' };
    // the judge by meaning is a net, not a local model: still a warning, with what to do
    expect(status({ LLM_BASE_URL: 'https://api.example.com/v1' })).toBe('warn');
    expect(status({ LLM_BASE_URL: 'https://api.example.com/v1', ...lane, PRIVACY_PRECHECK: 'off' })).toBe('warn');
    // a local chat model is the lane: it judges before the hosted embedder gets anything
    expect(status({ LLM_BASE_URL: 'http://127.0.0.1:1234/v1', EMBEDDER: 'openai', EMBEDDING_BASE_URL: 'https://api.example.com/v1' })).toBe('ok');
    expect(status({ LLM_BASE_URL: 'https://api.example.com/v1', ...lane })).toBe('ok');
    expect(status({ LLM_BASE_URL: 'http://127.0.0.1:1234/v1' })).toBe('ok');
  });
});
