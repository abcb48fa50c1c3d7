/**
 * One llama.cpp model inside this process (node-llama-cpp): loaded once, on first use or when
 * `load()` is called, and shared by every caller. Requests run one at a time in arrival order
 * on the model's single context sequence; a caller whose signal aborts while waiting leaves the
 * queue without running. A failed load is reported to every waiting caller and retried by the
 * next request; a second load never starts while one is loaded or loading.
 *
 * node-llama-cpp is imported only when the model is actually loaded: the import alone takes
 * seconds, and startup without an embedded model must stay as quick as before.
 */
import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Llama, LlamaChat, LlamaContext, LlamaModel } from 'node-llama-cpp';
import { silentLogger, type Logger } from '../../core/ports/index.js';
import { abortReason } from '../retry.js';
import { embeddedLoadError } from './errors.js';

export type EmbeddedGpu = 'auto' | 'off' | 'cuda' | 'vulkan' | 'metal';

export interface EmbeddedRuntimeOptions {
  modelPath: string;
  /** Tokens of context (prompt + reply). Memory grows with it (the KV cache). */
  contextSize: number;
  /** `auto` picks Metal, CUDA or Vulkan when a prebuilt binary works here, else the CPU. */
  gpu: EmbeddedGpu;
  /** Layers offloaded to the GPU: `auto` fits what free VRAM allows, `max` all of them. */
  gpuLayers: 'auto' | 'max' | number;
  /** CPU threads for generation; 0 lets node-llama-cpp decide. */
  threads: number;
  logger?: Logger;
}

export interface LoadedModel {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  chat: LlamaChat;
  /** `cuda`, `vulkan`, `metal`, or false for the CPU. */
  gpu: string | false;
  loadMs: number;
}

export class EmbeddedRuntime {
  readonly name: string;
  private loading: Promise<LoadedModel> | null = null;
  private tail: Promise<void> = Promise.resolve();
  private readonly log: Logger;
  private closed = false;

  constructor(readonly options: EmbeddedRuntimeOptions) {
    this.name = basename(options.modelPath).replace(/\.gguf$/i, '');
    this.log = (options.logger ?? silentLogger).child({ component: 'embedded-model', model: this.name });
  }

  /** The loaded model; the first call starts the load, later calls share it. */
  load(): Promise<LoadedModel> {
    if (this.closed) return Promise.reject(embeddedLoadError(this.options.modelPath, new Error('the embedded model was closed')));
    if (!this.loading) {
      const attempt = this.doLoad();
      this.loading = attempt;
      // A failed load may be retried by a later request (e.g. after freeing memory).
      attempt.catch(() => {
        if (this.loading === attempt) this.loading = null;
      });
    }
    return this.loading;
  }

  /** Runs `fn` alone on the model, after every request queued before it. */
  async exclusive<T>(fn: (loaded: LoadedModel) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const before = this.tail;
    let release = () => {};
    this.tail = new Promise<void>((resolve) => (release = resolve));
    try {
      await untilAborted(before, signal);
      const loaded = await untilAborted(this.load(), signal);
      return await fn(loaded);
    } finally {
      // Leaving early is safe: the next caller still waits for `before` through this promise.
      void before.then(release);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const loading = this.loading;
    this.loading = null;
    if (!loading) return;
    const loaded = await loading.catch(() => null);
    await loaded?.llama.dispose();
  }

  private async doLoad(): Promise<LoadedModel> {
    const o = this.options;
    const started = performance.now();
    try {
      await access(o.modelPath);
      const lib = await import('node-llama-cpp');
      const llama = await lib.getLlama({
        gpu: o.gpu === 'off' ? false : o.gpu,
        build: 'never',
        logLevel: lib.LlamaLogLevel.error,
        logger: (level, message) => {
          if (level === lib.LlamaLogLevel.error || level === lib.LlamaLogLevel.fatal) this.log.warn({ llama: message.trim() }, 'llama.cpp');
        },
      });
      const model = await llama.loadModel({ modelPath: o.modelPath, gpuLayers: o.gpuLayers });
      const context = await model.createContext({
        contextSize: Math.min(o.contextSize, model.trainContextSize),
        sequences: 1,
        ...(o.threads > 0 ? { threads: o.threads } : {}),
      });
      const chat = new lib.LlamaChat({ contextSequence: context.getSequence() });
      const loadMs = Math.round(performance.now() - started);
      this.log.info({ gpu: llama.gpu, contextSize: context.contextSize, chatTemplate: chat.chatWrapper.wrapperName, loadMs }, 'embedded model loaded');
      return { llama, model, context, chat, gpu: llama.gpu, loadMs };
    } catch (err) {
      throw embeddedLoadError(o.modelPath, err);
    }
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
