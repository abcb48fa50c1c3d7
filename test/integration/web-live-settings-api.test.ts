/**
 * Settings that tell the truth and change things, over HTTP against a whole Charlie: the owner
 * moves the chat to another model server (with an API key kept in the vault, not in the settings
 * file) and the next turn answers from it, without a restart; an unreachable server or an unknown
 * model is refused in plain words and the old one kept; the voice changes and the next Read aloud
 * uses it; the change survives a restart (DATA_DIR/settings.json, 0600, over .env); a member sees
 * the settings without server addresses and cannot change them; push-to-talk is off, with the
 * reason, when the speech model is not installed.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { withSettingsKey } from '../../src/app/live-settings.js';
import { configPart } from '../../src/doctor/config-check.js';
import { localWhisper } from '../../src/speech/stt/create.js';
import { AgeVault } from '../../src/machines/age-vault.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fake-model-server.js';
import { makeNamedVoice, namedServer, NamedVoice } from '../support/live-settings-fixture.js';
import { offlineAppEnv, projectFile, startWebFixture, TOKEN, type WebFixture } from '../support/web-fixture.js';

describe('live settings API', { timeout: 120_000 }, () => {
  let f: WebFixture;
  let other: FakeModelServer;
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const json = { ...bearer, 'content-type': 'application/json' };
  let member = '';
  const put = (what: string, body: unknown, headers: Record<string, string> = json) => fetch(`${f.web.url}/api/settings/live/${what}`, { method: 'PUT', headers, body: JSON.stringify(body) });
  const ask = async (text: string) => {
    const res = await fetch(`${f.web.url}/api/projects/home/messages`, { method: 'POST', headers: json, body: JSON.stringify({ text }) });
    return res.text();
  };

  beforeAll(async () => {
    other = await startFakeModelServer(namedServer('B'), { models: [{ id: 'model-b' }] });
    f = await startWebFixture({
      files: { 'home/project.md': projectFile('home', 'web:home') },
      script: namedServer('A'),
      speech: { tts: new NamedVoice('first voice'), makeTts: makeNamedVoice },
    });
    const link = await fetch(f.web.loginLinkFor('555', 'Kim'), { redirect: 'manual' });
    member = (link.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  }, 60_000);

  afterAll(async () => {
    await f.close();
    await other.close();
  });

  it('moves the chat to another server: the next turn answers from it, the key is in the vault only', async () => {
    expect(await ask('hello')).toContain('answer from A');
    const before = (await (await fetch(`${f.web.url}/api/settings/live`, { headers: bearer })).json()) as { chat: { model: string; server: string } };
    expect(before.chat).toMatchObject({ model: 'fake-model', server: f.model.url });

    // an unreachable server: plain words, and the old setting is kept
    const down = await put('model', { baseUrl: 'http://127.0.0.1:9/v1', model: 'x' });
    expect(down.status).toBe(422);
    expect(((await down.json()) as { error: string }).error).toBe('No model server answered at http://127.0.0.1:9/v1. Is it running, and is the address right? The old setting is kept.');
    // a server without that model
    const unknown = await put('model', { baseUrl: other.url, model: 'no-such-model' });
    expect(((await unknown.json()) as { error: string }).error).toContain('has no model called “no-such-model” (it has: model-b)');
    expect(await ask('still there?')).toContain('answer from A');

    const moved = await put('model', { baseUrl: other.url, model: 'model-b', apiKey: 'sk-test-secret-0123456789' });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { said: string }).said).toBe(`The next answer comes from model-b at ${other.url}.`);
    expect(await ask('and now?')).toContain('answer from B');
    expect(other.requests.at(-1)?.model).toBe('model-b');
    expect(other.requestHeaders.at(-1)?.authorization).toBe('Bearer sk-test-secret-0123456789');

    const file = join(f.dataDir, 'settings.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = readFileSync(file, 'utf8');
    expect(kept).not.toContain('sk-test-secret');
    expect(JSON.parse(kept)).toMatchObject({ settings: { LLM_BASE_URL: other.url, LLM_MODEL: 'model-b', LLM_LOCALITY: 'auto' }, apiKey: 'vault:settings/llm-api-key' });
    // Settings names where it came from
    const view = (await (await fetch(`${f.web.url}/api/settings`, { headers: bearer })).json()) as { items: { job: string; what: string; why?: string }[] };
    expect(view.items[0]).toMatchObject({ job: 'Answers in chat', what: 'model-b' });
    expect(view.items[0]?.why).toContain('set in the web app');

    // after a restart: the file overrides .env, and the key comes back from the vault
    const env = { ...offlineAppEnv(f.model.url, f.projectsDir, f.dataDir), LLM_API_KEY: 'env-key-for-the-old-server' };
    const restarted = loadConfig(env, f.root);
    expect(restarted).toMatchObject({ LLM_BASE_URL: other.url, LLM_MODEL: 'model-b', fromSettingsFile: ['LLM_BASE_URL', 'LLM_MODEL', 'LLM_LOCALITY'] });
    expect(restarted.LLM_API_KEY).toBeUndefined();
    expect((await withSettingsKey(restarted, new AgeVault(join(f.dataDir, 'vault')))).LLM_API_KEY).toBe('sk-test-secret-0123456789');
    // and the doctor says which settings come from the web app
    const verdict = await configPart({ ok: true, config: restarted }, f.root).checks[0]?.run(AbortSignal.timeout(5000));
    expect(verdict?.detail).toContain('set in the web app (data/settings.json, over .env): LLM_BASE_URL, LLM_MODEL, LLM_LOCALITY');
  });

  it('keeps the key for the same server only: it is never sent to another one', async () => {
    expect((await put('model', { baseUrl: other.url, model: 'model-b' })).status).toBe(200);
    await ask('same server, no key typed');
    expect(other.requestHeaders.at(-1)?.authorization).toBe('Bearer sk-test-secret-0123456789');
    expect((await put('model', { baseUrl: f.model.url, model: 'fake-model' })).status).toBe(200);
    expect(await ask('back to the first')).toContain('answer from A');
    expect(f.model.requestHeaders.at(-1)?.authorization).toBeUndefined();
    expect(JSON.parse(readFileSync(join(f.dataDir, 'settings.json'), 'utf8'))).not.toHaveProperty('apiKey');
    expect(await new AgeVault(join(f.dataDir, 'vault')).list('charlie-settings')).toEqual([]);
  });

  it('checks the input with a schema and says what is wrong', async () => {
    const bad = async (body: unknown) => ((await (await put('model', body)).json()) as { error: string }).error;
    expect(await bad({ baseUrl: 'ftp://example.org', model: 'm' })).toContain('starts with http:// or https://');
    expect(await bad({ baseUrl: 'http://user:pw@example.org/v1', model: 'm' })).toContain('not in the address');
    expect(await bad({ baseUrl: other.url, model: '' })).toContain('give the model’s name');
    expect(await bad({ baseUrl: other.url, model: 'm', extra: 1 })).toBeTruthy();
    const voice = await put('voice', { tts: 'loud' });
    expect(voice.status).toBe(400);
    expect(((await voice.json()) as { error: string }).error).toContain('"local" (this machine) or "edge"');
  });

  it('changes the voice: the next Read aloud uses it, and it is kept', async () => {
    const speak = async () => (await fetch(`${f.web.url}/api/speech`, { method: 'POST', headers: json, body: JSON.stringify({ text: 'hello' }) })).text();
    expect(await speak()).toBe('first voice: hello');
    const res = await put('voice', { tts: 'local', localVoice: 'de' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { said: string }).said).toContain('this machine’s voice (de)');
    expect(await speak()).toBe('local de: hello');
    expect(loadConfig(offlineAppEnv(f.model.url, f.projectsDir, f.dataDir), f.root)).toMatchObject({ TTS: 'local', TTS_LOCAL_VOICE: 'de' });
  });

  it('a member sees what is in use without server addresses, and cannot change it', async () => {
    const seen = (await (await fetch(`${f.web.url}/api/settings/live`, { headers: { cookie: member } })).json()) as { chat: { server: string }; fromFile: string[] };
    expect(seen.chat.server).toBe('a model server of the household');
    expect(JSON.stringify(seen)).not.toContain('127.0.0.1');
    expect(seen.fromFile).toEqual([]);
    expect((await put('model', { baseUrl: f.model.url, model: 'fake-model' }, { cookie: member, 'content-type': 'application/json' })).status).toBe(403);
    expect((await put('voice', { tts: 'local' }, { cookie: member, 'content-type': 'application/json' })).status).toBe(403);
    expect((await fetch(`${f.web.url}/api/settings`, { headers: { cookie: member } })).status).toBe(403);
  });
});

describe('push-to-talk tells the truth', { timeout: 60_000 }, () => {
  it('is off, with the reason, when the speech model is not installed', async () => {
    const models = mkdtempSync(join(tmpdir(), 'charlie-no-whisper-'));
    const stt = localWhisper({ STT_MODEL: 'Xenova/whisper-base.en', STT_DTYPE: 'q8', dataDir: models }, { allowDownload: false });
    const f = await startWebFixture({ script: () => ({ text: 'ok' }), speech: { stt } });
    const me = async (headers: Record<string, string>) => ((await (await fetch(`${f.web.url}/api/me`, { headers })).json()) as { speech: { stt: boolean; sttReason?: string } }).speech;
    try {
      expect(await me({ authorization: `Bearer ${TOKEN}` })).toMatchObject({
        stt: false,
        sttReason: 'The speech-to-text model is not installed on this machine. Install it with: npm run models -- pull whisper',
      });
      const cookie = ((await fetch(f.web.loginLinkFor('556', 'Ola'), { redirect: 'manual' })).headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      // a member gets the reason without the command
      expect(await me({ cookie })).toMatchObject({ stt: false, sttReason: 'The speech-to-text model is not installed on this machine.' });
      const view = (await (await fetch(`${f.web.url}/api/settings`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { items: { job: string; what: string }[] };
      expect(view.items.find((i) => i.job === 'Understands speech')?.what).toBe('not available');
    } finally {
      await f.close();
      rmSync(models, { recursive: true, force: true });
    }
  });
});
