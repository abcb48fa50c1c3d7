/**
 * Which model answers (LLM_PROVIDER): the OpenAI-compatible server, the embedded model, or —
 * when neither is there — one line saying what to do. Decided once at startup; only the
 * choice of the embedded model costs anything (its load starts in the background).
 */
import { existsSync } from 'node:fs';
import type { ChatModel, Logger } from '../core/ports/index.js';
import { chatModelOptions, type ChatModelSettings } from './chat-model-config.js';
import { publicUrl } from './locality.js';
import { EmbeddedChatModel } from './embedded/embedded-chat.js';
import { embeddedModelFile, type EmbeddedModelFile, type EmbeddedModelSettings } from './embedded/model-file.js';
import { EmbeddedRuntime, type EmbeddedGpu } from './embedded/runtime.js';
import { OpenAIChatModel } from './openai-chat.js';
import type { ProbeResult } from './probe.js';

export interface ProviderSettings extends ChatModelSettings, EmbeddedModelSettings {
  LLM_PROVIDER: 'auto' | 'server' | 'embedded';
  EMBEDDED_CONTEXT_SIZE: number;
  EMBEDDED_GPU: EmbeddedGpu;
  EMBEDDED_GPU_LAYERS: 'auto' | 'max' | number;
  EMBEDDED_THREADS: number;
  EMBEDDED_MAX_TOKENS: number;
}

export type ProviderChoice =
  | { provider: 'server'; status: string | null }
  | { provider: 'embedded'; file: EmbeddedModelFile }
  /** Nothing to answer with: `message` says what to do; `file` is what `models pull` would fetch. */
  | { provider: 'none'; message: string; file: EmbeddedModelFile };

export interface ChooseDeps {
  probe: () => Promise<ProbeResult>;
  exists?: (path: string) => boolean;
}

export async function chooseProvider(settings: ProviderSettings, deps: ChooseDeps): Promise<ProviderChoice> {
  const exists = deps.exists ?? existsSync;
  const file = embeddedModelFile(settings);
  const fetchHint = file.downloadable ? 'run `npm run models -- pull` to fetch the embedded model' : `put a GGUF file at EMBEDDED_MODEL_PATH (${file.path})`;
  if (settings.LLM_PROVIDER === 'embedded') {
    return exists(file.path) ? { provider: 'embedded', file } : { provider: 'none', message: `the embedded model is not here (${file.path}) — ${fetchHint}`, file };
  }
  const probe = await deps.probe();
  if (settings.LLM_PROVIDER === 'server' || probe.ok) return { provider: 'server', status: probe.ok ? null : probe.message };
  if (exists(file.path)) return { provider: 'embedded', file };
  return {
    provider: 'none',
    message: `no model server at ${publicUrl(settings.LLM_BASE_URL)} and no embedded model — start LM Studio / Ollama (or set LLM_BASE_URL), or ${fetchHint}`,
    file,
  };
}

export interface ChatModelBuild {
  model: ChatModel;
  /** One line for the startup screen: which model, and where it runs. */
  describe: string;
  /** Starts loading an embedded model now (no-op for a server). */
  warmUp(): void;
  close(): Promise<void>;
}

export function buildChatModel(settings: ProviderSettings, choice: ProviderChoice, logger: Logger): ChatModelBuild {
  if (choice.provider === 'embedded') {
    const runtime = new EmbeddedRuntime({
      modelPath: choice.file.path,
      contextSize: settings.EMBEDDED_CONTEXT_SIZE,
      gpu: settings.EMBEDDED_GPU,
      gpuLayers: settings.EMBEDDED_GPU_LAYERS,
      threads: settings.EMBEDDED_THREADS,
      logger,
    });
    const model = new EmbeddedChatModel(runtime, { temperature: settings.LLM_TEMPERATURE, maxTokens: settings.EMBEDDED_MAX_TOKENS });
    const gpu = settings.EMBEDDED_GPU === 'off' ? 'CPU only' : settings.EMBEDDED_GPU === 'auto' ? 'GPU if available, else CPU' : settings.EMBEDDED_GPU;
    return {
      model,
      describe: `${runtime.name} — embedded (llama.cpp in this process, ${gpu}, context ${settings.EMBEDDED_CONTEXT_SIZE} tokens)`,
      warmUp: () => {
        runtime.load().catch((err: unknown) => logger.warn({ err }, 'embedded model not loaded'));
      },
      close: () => runtime.close(),
    };
  }
  return serverChatModel(settings, logger);
}

/** The OpenAI-compatible server client (LLM_BASE_URL), as a ChatModelBuild. */
export function serverChatModel(settings: ChatModelSettings, logger: Logger): ChatModelBuild {
  const model = new OpenAIChatModel(chatModelOptions(settings, logger));
  return {
    model,
    describe: `${model.id} — model server (${settings.llmLocal ? 'local' : 'hosted'})`,
    warmUp: () => {},
    close: async () => {},
  };
}
