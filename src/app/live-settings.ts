/**
 * The live settings the composition root owns: the chat lane and the voice sit behind their ports
 * (a LiveChatModel, the voice read through `tts()`), and a change from the web app's Settings swaps
 * the one adapter behind its port — nothing else is rebuilt and Charlie does not restart. Each change
 * is checked first (the model server must answer and know the model; the old setting is kept
 * otherwise), then kept in DATA_DIR/settings.json (0600, over .env at the next start) with an API
 * key only in the vault, never in that file or a log.
 *
 * What it also tells truthfully: which embedder is in use (the fallback named, with why), and
 * whether speech-to-text can work here (a Whisper model not on disk cannot).
 */
import type { Config } from '../config.js';
import type { ChatModel, Logger, SpeechToText, TextToSpeech, Vault } from '../core/ports/index.js';
import { LiveChatModel } from '../llm/live-chat-model.js';
import { OpenAIChatModel } from '../llm/openai-chat.js';
import { chatModelOptions } from '../llm/chat-model-config.js';
import { probeModelServer, type ProbeResult } from '../llm/probe.js';
import { publicUrl, urlIsLocal } from '../llm/locality.js';
import { TransformersWhisper } from '../speech/stt/transformers-whisper.js';
import type { TtsConfig } from '../speech/tts/create.js';
import { readSettingsFile, writeSettingsFile, type LiveKey, type SettingsFile } from '../settings-file.js';
import type { ChangeResult, ListeningStatus, LiveSettingsPort, LiveSettingsWire, ModelChange, VoiceChange } from '../web/api-live-settings.js';

/** The vault entry of the chat server's API key given in the web app (the vault is per person; this one is Charlie's own). */
const VAULT_OWNER = 'charlie-settings';
const KEY_NAME = 'settings/llm-api-key';

export interface LiveSettingsOptions {
  config: Config;
  /** The chat lane as built at start (a server client or the embedded model). */
  chat: ChatModel;
  vault: Vault;
  logger: Logger;
  /** Why the configured embedder was not used (null: it is in use). */
  embedderFallback: string | null;
  probe?: (baseUrl: string, apiKey: string | undefined) => Promise<ProbeResult>;
  now?: () => Date;
}

/** The speech adapters the front doors start with, and how to build a voice from settings. */
export interface LiveSpeech {
  stt?: SpeechToText | undefined;
  tts?: TextToSpeech | undefined;
  makeTts?: (config: TtsConfig) => TextToSpeech;
}

/** Whether speech-to-text can work here, and why not (a Whisper model not on disk cannot: the button would fail). */
export function listeningStatus(stt: SpeechToText | undefined): ListeningStatus {
  if (!stt) return { available: false, reason: 'Speech-to-text is not set up on this Charlie.', fix: 'See docs/voice.md.' };
  if (stt instanceof TransformersWhisper && !stt.locate().present) {
    return { available: false, reason: 'The speech-to-text model is not installed on this machine.', fix: 'Install it with: npm run models -- pull whisper' };
  }
  return { available: true };
}

export class LiveSettings implements LiveSettingsPort {
  /** The chat lane every turn reads through. */
  readonly chat: LiveChatModel;
  private config: Config;
  private apiKey: string | undefined;
  private embedded: boolean;
  private speech: LiveSpeech = {};

  constructor(private readonly o: LiveSettingsOptions) {
    this.chat = new LiveChatModel(o.chat);
    this.config = o.config;
    this.apiKey = o.config.LLM_API_KEY;
    this.embedded = !(o.chat instanceof OpenAIChatModel);
  }

  /** The configuration as it stands now (the start's, with the changes made since). */
  current(): Config {
    return this.config;
  }

  get embedderFallback(): string | null {
    return this.o.embedderFallback;
  }

  attachSpeech(speech: LiveSpeech): void {
    this.speech = { ...speech };
  }

  /** The voice Read aloud uses now (none: not set up). */
  tts(): TextToSpeech | undefined {
    return this.speech.tts;
  }

  listening(): ListeningStatus {
    return listeningStatus(this.speech.stt);
  }

  view(owner: boolean): LiveSettingsWire {
    const c = this.config;
    const listening = this.listening();
    return {
      chat: {
        model: this.embedded ? 'the embedded model' : c.LLM_MODEL,
        server: this.embedded ? 'this machine' : owner ? publicUrl(c.LLM_BASE_URL) : c.llmLocal ? 'a model server of the household' : 'an online service',
        local: this.embedded || c.llmLocal,
        hasKey: !!this.apiKey,
        embedded: this.embedded,
      },
      voice: { engine: this.speech.tts ? c.TTS : 'none', voice: c.TTS_VOICE, localVoice: c.TTS_LOCAL_VOICE },
      listening: owner ? listening : { available: listening.available, ...(listening.reason ? { reason: listening.reason } : {}) },
      fromFile: owner ? c.fromSettingsFile : [],
    };
  }

  async changeModel(change: ModelChange): Promise<ChangeResult> {
    const where = publicUrl(change.baseUrl);
    const sameServer = change.baseUrl === this.config.LLM_BASE_URL;
    // a key typed now; '' removes it; none keeps the key only for the same server (never sent to another one)
    const key = change.apiKey !== undefined ? change.apiKey.trim() || undefined : sameServer ? this.apiKey : undefined;
    const probe = await (this.o.probe ?? ((u, k) => probeModelServer(u, k, 5000)))(change.baseUrl, key);
    if (!probe.ok) {
      const refused = /refused the key/.test(probe.message);
      return {
        ok: false,
        error: refused
          ? `The model server at ${where} refused the API key. The old setting is kept.`
          : `No model server answered at ${where}. Is it running, and is the address right? The old setting is kept.`,
      };
    }
    if (probe.models.length && !probe.models.includes(change.model)) {
      const some = probe.models.slice(0, 8).join(', ');
      return { ok: false, error: `The server at ${where} has no model called “${change.model}” (it has: ${some}${probe.models.length > 8 ? ', …' : ''}). The old setting is kept.` };
    }
    // the same server keeps what .env declared of it; another one is judged by its address unless the owner says it is theirs
    const localitySetting = change.mine ? 'local' : sameServer ? this.config.LLM_LOCALITY : this.config.LLM_LOCALITY === 'hosted' ? 'hosted' : 'auto';
    const llmLocal = urlIsLocal(change.baseUrl, localitySetting);
    const next: Config = { ...this.config, LLM_BASE_URL: change.baseUrl, LLM_MODEL: change.model, LLM_LOCALITY: localitySetting, llmLocal };
    const model = new OpenAIChatModel(chatModelOptions({ ...next, LLM_API_KEY: key }, this.o.logger.child({ component: 'llm' })));
    let handle: string | undefined;
    if (key) handle = await this.o.vault.put(VAULT_OWNER, KEY_NAME, { password: key });
    else await this.o.vault.remove(VAULT_OWNER, `vault:${KEY_NAME}`);
    this.persist({ LLM_BASE_URL: change.baseUrl, LLM_MODEL: change.model, LLM_LOCALITY: localitySetting }, handle ?? null);
    this.chat.swap(model);
    this.apiKey = key;
    this.embedded = false;
    this.config = { ...next, fromSettingsFile: this.marked(['LLM_BASE_URL', 'LLM_MODEL', 'LLM_LOCALITY']) };
    this.o.logger.info({ model: model.id, locality: model.locality }, 'chat model changed in the web app');
    const hosted = llmLocal ? '' : ' It is an online service: what is marked sensitive is not sent to it without its person’s yes.';
    return { ok: true, said: `The next answer comes from ${change.model} at ${where}.${hosted}` };
  }

  async changeVoice(change: VoiceChange): Promise<ChangeResult> {
    const make = this.speech.makeTts;
    if (!make) return { ok: false, error: 'Charlie has no voice here, so there is nothing to change.' };
    const next = { ...this.config, TTS: change.tts, TTS_VOICE: change.voice ?? this.config.TTS_VOICE, TTS_LOCAL_VOICE: change.localVoice ?? this.config.TTS_LOCAL_VOICE };
    let tts: TextToSpeech;
    try {
      tts = make(next);
    } catch {
      return { ok: false, error: 'That voice could not be set up. The old voice is kept.' };
    }
    this.persist({ TTS: next.TTS, TTS_VOICE: next.TTS_VOICE, TTS_LOCAL_VOICE: next.TTS_LOCAL_VOICE }, undefined);
    this.speech.tts = tts;
    this.config = { ...next, fromSettingsFile: this.marked(['TTS', 'TTS_VOICE', 'TTS_LOCAL_VOICE']) };
    this.o.logger.info({ tts: tts.id }, 'voice changed in the web app');
    return {
      ok: true,
      said:
        change.tts === 'local'
          ? `Replies are read aloud by this machine’s voice (${next.TTS_LOCAL_VOICE}); no text leaves it.`
          : `Replies are read aloud by Microsoft’s online voice ${next.TTS_VOICE}: their text is sent to Microsoft, except what is sensitive, which this machine’s voice reads.`,
    };
  }

  private marked(keys: LiveKey[]): LiveKey[] {
    return [...new Set([...this.config.fromSettingsFile, ...keys])];
  }

  /** Writes the changed settings over the file's others; `apiKey` undefined keeps its handle, null drops it. */
  private persist(settings: SettingsFile['settings'], apiKey: string | null | undefined): void {
    const dataDir = this.config.dataDir;
    const old = readSettingsFile(dataDir);
    const keyHandle = apiKey === undefined ? old?.apiKey : (apiKey ?? undefined);
    writeSettingsFile(dataDir, { schema: 1, settings: { ...old?.settings, ...settings }, ...(keyHandle ? { apiKey: keyHandle } : {}), updated: (this.o.now?.() ?? new Date()).toISOString() });
  }
}

/**
 * The configuration with the chat server's API key from the vault, when the web app set one
 * (DATA_DIR/settings.json names only its handle; src/settings-file.ts drops a key of .env, which
 * was for another server).
 */
export async function withSettingsKey(config: Config, vault: Vault): Promise<Config> {
  if (!config.fromSettingsFile.includes('LLM_BASE_URL')) return config;
  const handle = readSettingsFile(config.dataDir)?.apiKey;
  const key = handle ? (await vault.resolve(VAULT_OWNER, handle))?.password : undefined;
  return key ? { ...config, LLM_API_KEY: key } : config;
}
