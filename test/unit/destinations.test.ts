/** Every service the configuration sends anything to is listed, with where it runs, for doctor and /help. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../src/config.js';
import { DESTINATIONS, describeDestinations } from '../../src/core/privacy/destinations.js';
import { configuredDestinations, localHint, precheckCheck, precheckLine } from '../../src/doctor/destinations.js';
import { remoteIsLocal } from '../../src/sync/remote-locality.js';

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
        SYNC_REMOTE: 'ssh://git@git.example.com/household/charlie.git',
        SYNC_ENCRYPT_TO: 'household@example.com',
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
      sync: 'hosted',
    });
    expect(describeDestinations(list).find((l) => l.startsWith('a calendar server'))).toMatch(/Family \(CalDAV, https:\/\/cloud\.example\.com\/…\), hosted .*sensitive event is never written/);
    const lines = describeDestinations(list);
    expect(lines.find((l) => l.startsWith('the embedder'))).toMatch(/hosted .*sensitive chunks and questions are not sent/);
    expect(lines.join('\n')).not.toContain('example.com/v1?');
    expect(lines.find((l) => l.startsWith('the sync remote'))).toMatch(/git\.example\.com\/household\/charlie\.git, encrypted \(git-remote-gcrypt\), hosted .*holds only ciphertext/);
  });

  it('a private setup leaves nothing', () => {
    const config = loadConfig({ EMBEDDER: 'builtin', TTS: 'local', MCP_SERVER_LOCALITY: 'local' }, '/tmp');
    expect(configuredDestinations(config).filter((d) => d.locality === 'hosted')).toEqual([]);
  });
});

describe("docs/privacy.md's table of services lists every destination", () => {
  // the table under "Every service, what it receives, how the boundary guards it": its rows' first cells
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'privacy.md'), 'utf8');
  const table = doc.split('## Every service')[1]!.split('\n## ')[0]!;
  const rows = table
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| service') && !l.startsWith('|---'))
    .map((l) => l.slice(2).split(' | ')[0]!);
  it.each(Object.entries(DESTINATIONS).map(([kind, d]) => [kind, d.row] as const))('%s: a row "%s …"', (_kind, row) => {
    expect(rows.filter((cell) => cell.startsWith(`${row} `) || cell === row)).toHaveLength(1);
  });
  it('and no row names a destination the code does not have', () => {
    const known = Object.values(DESTINATIONS).map((d) => d.row);
    expect(rows.filter((cell) => !known.some((row) => cell.startsWith(`${row} `) || cell === row))).toEqual([]);
  });
});

describe("doctor's hint for a hosted destination names a real setting", () => {
  // sweep 7: doctor told people to set TTS_LOCALITY, which does not exist
  it.each(Object.keys(DESTINATIONS) as (keyof typeof DESTINATIONS)[])('%s', (kind) => {
    const settings = [...localHint(kind).matchAll(/\b([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!);
    if (kind === 'mcp-tool-server') expect(localHint(kind)).toContain('data/mcp.json');
    else expect(settings.length).toBeGreaterThan(0);
    expect(settings.filter((s) => !(s in configSchema.shape))).toEqual([]);
  });
});

describe('the sync remote has a locality, and a hosted one must be encrypted', () => {
  const WHERE: [remote: string, local: boolean][] = [
    ['/srv/charlie.git', true],
    ['./memory.git', true],
    ['file:///mnt/usb/charlie.git', true],
    ['C:\\Users\\ann\\charlie.git', true],
    ['ssh://nas.lan/srv/charlie.git', true],
    ['ssh://root@127.0.0.1:2222/srv/charlie.git', true],
    ['git@192.168.1.20:charlie.git', true],
    ['[fd00::2]:charlie.git', true],
    ['gcrypt::ssh://nas.home.arpa/srv/charlie.git', true],
    ['ssh://git@github.com/ann/charlie.git', false],
    ['git@gitlab.com:ann/charlie.git', false],
    ['https://ann:token@git.example.com/charlie.git', false],
    ['gcrypt::rsync://backup.example.net/charlie', false],
    ['nas:/srv/charlie.git', false],
  ];
  it.each(WHERE)('%s is local: %s', (remote, local) => {
    expect(remoteIsLocal(remote, 'auto')).toBe(local);
    expect(remoteIsLocal(remote, 'hosted')).toBe(false);
    expect(remoteIsLocal(remote, 'local')).toBe(true);
  });

  it('a hosted remote without SYNC_ENCRYPT_TO is refused at start, saying how to fix it, with no password in the message', () => {
    const load = (env: Record<string, string>) => () => loadConfig({ EMBEDDER: 'builtin', ...env }, '/tmp');
    expect(load({ SYNC_REMOTE: 'https://ann:hunter2@git.example.com/charlie.git' })).toThrow(
      /SYNC_REMOTE: https:\/\/git\.example\.com\/charlie\.git is on a machine .*SYNC_ENCRYPT_TO.*SYNC_LOCALITY=local/,
    );
    expect(load({ SYNC_REMOTE: 'https://ann:hunter2@git.example.com/charlie.git' })).not.toThrow(/hunter2/);
    // a folder here, the same remote encrypted, or declared the household's own
    expect(load({ SYNC_REMOTE: '/srv/charlie.git' })).not.toThrow();
    expect(load({ SYNC_REMOTE: 'git@gitlab.com:ann/charlie.git', SYNC_ENCRYPT_TO: 'ann@example.com' })).not.toThrow();
    expect(load({ SYNC_REMOTE: 'nas:/srv/charlie.git', SYNC_LOCALITY: 'local' })).not.toThrow();
    // a folder declared hosted (a cloud drive's) is refused too
    expect(load({ SYNC_REMOTE: '/home/ann/Dropbox/charlie.git', SYNC_LOCALITY: 'hosted' })).toThrow(/SYNC_ENCRYPT_TO/);
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
