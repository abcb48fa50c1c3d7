/**
 * Settings › Now in use (everyone) and Change (the owner): the chat model and its server, the
 * voice, and whether push-to-talk works here, from GET /api/settings/live. The owner changes the
 * model server (address, model, API key) and the voice; the next answer and the next Read aloud
 * use them, without a restart. The server checks first (a server that does not answer, or has no
 * such model, is refused in plain words and the old setting kept). Server: src/web/api-live-settings.ts.
 */
import { call } from './api.js';
import { h, toast } from './dom.js';

interface LiveSettings {
  chat: { model: string; server: string; local: boolean; hasKey: boolean; embedded: boolean };
  voice: { engine: 'local' | 'edge' | 'none'; voice: string; localVoice: string };
  listening: { available: boolean; reason?: string; fix?: string };
  fromFile: string[];
}

const VOICE_WORDS = { local: 'this machine’s voice (no text leaves it)', edge: 'Microsoft’s online voice (the text is sent to Microsoft)', none: 'no voice is set up' };

function inUse(s: LiveSettings): HTMLElement {
  const row = (what: string, value: string) => h('tr', {}, h('th', { scope: 'row' }, what), h('td', {}, value));
  const listening = s.listening.available ? 'works' : `not available: ${[s.listening.reason, s.listening.fix].filter(Boolean).join(' — ')}`;
  return h(
    'table',
    { class: 'settings live-now' },
    h(
      'tbody',
      {},
      row('Answers come from', s.chat.embedded ? s.chat.model : `${s.chat.model}, ${s.chat.server} (${s.chat.local ? 'stays here' : 'online'})`),
      row('Reads aloud with', s.voice.engine === 'edge' ? `${VOICE_WORDS.edge}: ${s.voice.voice}` : s.voice.engine === 'local' ? `${VOICE_WORDS.local}: ${s.voice.localVoice}` : VOICE_WORDS.none),
      row('Push to talk', listening),
    ),
  );
}

/** A small form: its fields, a Save button and a status line; `send` answers what was said or throws the server's words. */
function changeForm(id: string, title: string, fields: HTMLElement[], send: () => Promise<{ said: string }>, after: () => void): HTMLElement {
  const result = h('p', { id: `${id}-result`, class: 'form-result', role: 'status' });
  const save = h('button', { type: 'submit', class: 'small' }, 'Save');
  const form = h('form', { class: 'live-change', id, 'aria-labelledby': `${id}-title` }, h('h3', { id: `${id}-title` }, title), ...fields, save, result);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    save.disabled = true;
    result.className = 'form-result';
    result.textContent = 'Checking…';
    send()
      .then(({ said }) => {
        result.textContent = said;
        toast(said);
        after();
      })
      .catch((err: unknown) => {
        result.classList.add('error');
        result.textContent = `Not changed: ${err instanceof Error ? err.message : String(err)}`;
      })
      .finally(() => {
        save.disabled = false;
      });
  });
  return form;
}

const field = (id: string, label: string, input: HTMLElement) => h('div', { class: 'live-field' }, h('label', { for: id }, label), input);

function modelForm(s: LiveSettings, after: () => void): HTMLElement {
  const baseUrl = h('input', { type: 'url', id: 'live-base-url', required: true, value: s.chat.embedded ? '' : s.chat.server, placeholder: 'http://localhost:1234/v1' });
  const model = h('input', { type: 'text', id: 'live-model', required: true, value: s.chat.embedded ? '' : s.chat.model, placeholder: 'the model’s name on that server' });
  const key = h('input', { type: 'password', id: 'live-key', autocomplete: 'off', placeholder: s.chat.hasKey ? 'unchanged (a key is kept)' : 'none' });
  const mine = h('input', { type: 'checkbox', id: 'live-mine' });
  return changeForm(
    'live-model-form',
    'Model server',
    [
      field('live-base-url', 'Address', baseUrl),
      field('live-model', 'Model', model),
      field('live-key', 'API key (kept in the vault, never shown again)', key),
      h('div', { class: 'live-field check' }, mine, h('label', { for: 'live-mine' }, 'This server is mine (on my machine or network), although its address is public')),
    ],
    () => call('PUT', '/api/settings/live/model', { baseUrl: baseUrl.value, model: model.value, ...(key.value ? { apiKey: key.value } : {}), ...(mine.checked ? { mine: true } : {}) }),
    after,
  );
}

function voiceForm(s: LiveSettings, after: () => void): HTMLElement {
  const engine = h(
    'select',
    { id: 'live-voice-engine' },
    h('option', { value: 'local', selected: s.voice.engine !== 'edge' }, 'This machine’s voice (private)'),
    h('option', { value: 'edge', selected: s.voice.engine === 'edge' }, 'Microsoft’s online voices'),
  );
  const local = h('input', { type: 'text', id: 'live-local-voice', value: s.voice.localVoice, placeholder: 'en-us' });
  const online = h('input', { type: 'text', id: 'live-online-voice', value: s.voice.voice, placeholder: 'en-US-AvaMultilingualNeural' });
  return changeForm(
    'live-voice-form',
    'Voice',
    [
      field('live-voice-engine', 'Read aloud with', engine),
      field('live-local-voice', 'This machine’s voice (a language, e.g. en-us, de)', local),
      field('live-online-voice', 'Online voice (sensitive text is still read by this machine)', online),
    ],
    () => call('PUT', '/api/settings/live/voice', { tts: engine.value, localVoice: local.value, voice: online.value }),
    after,
  );
}

/** The section; `redraw` draws the Settings page again after a change (the tables above follow it). */
export async function liveSection(owner: boolean, redraw: () => void): Promise<HTMLElement> {
  const s = await call<LiveSettings>('GET', '/api/settings/live').catch(() => null);
  if (!s) return h('section', { class: 'settings-live' }, h('h2', {}, 'Now in use'), h('p', { class: 'meta' }, 'Not available here.'));
  const kept = s.fromFile.length ? h('p', { class: 'meta' }, `Changed here and kept in data/settings.json, over .env: ${s.fromFile.join(', ')}.`) : null;
  return h(
    'section',
    { class: 'settings-live', 'aria-labelledby': 'live-title' },
    h('h2', { id: 'live-title' }, owner ? 'Change' : 'Now in use'),
    owner
      ? h('p', { class: 'meta' }, 'The next answer and the next Read aloud use what you save here — no restart. Each project’s answer style is under Projects below.')
      : h('p', { class: 'meta' }, 'What Charlie uses for you now. Only its owner can change it.'),
    inUse(s),
    owner ? modelForm(s, redraw) : null,
    owner ? voiceForm(s, redraw) : null,
    owner ? kept : null,
  );
}
