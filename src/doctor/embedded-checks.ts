/**
 * The embedded model (llama.cpp in this process), when the configuration uses it: the GGUF file
 * is there, it loads (and on what), how many tokens per second it writes here, and the same
 * tool-call and JSON conformance as a server model.
 */
import { statSync } from 'node:fs';
import type { Config } from '../config.js';
import { EmbeddedChatModel } from '../llm/embedded/embedded-chat.js';
import { embeddedModelFile } from '../llm/embedded/model-file.js';
import { EmbeddedRuntime } from '../llm/embedded/runtime.js';
import { fail, ok, skip, type Check, type Part, type Verdict } from './check.js';
import { jsonCheck, toolCallCheck, type ConformanceDeps } from './conformance.js';
import type { Lane } from './lane.js';
import { newLaneState } from './model-server.js';
import { errorWithCause } from '../util/error-text.js';

/** Whether `npm start` would answer with the embedded model: chosen explicitly, or `auto` with the file present. */
function embeddedInUse(config: Config, present: boolean): boolean {
  return config.LLM_PROVIDER === 'embedded' || (config.LLM_PROVIDER === 'auto' && present);
}

export function embeddedPart(config: Config): Part | null {
  const file = embeddedModelFile(config);
  const size = statSync(file.path, { throwIfNoEntry: false })?.size;
  if (!embeddedInUse(config, size !== undefined)) return null;
  const runtime = new EmbeddedRuntime({
    modelPath: file.path,
    contextSize: config.EMBEDDED_CONTEXT_SIZE,
    gpu: config.EMBEDDED_GPU,
    gpuLayers: config.EMBEDDED_GPU_LAYERS,
    threads: config.EMBEDDED_THREADS,
  });
  const model = new EmbeddedChatModel(runtime, { temperature: 0, maxTokens: 200 });
  const state = newLaneState();
  const lane: Lane = {
    name: 'embedded model',
    env: 'EMBEDDED',
    baseUrl: 'embedded',
    shownUrl: 'embedded',
    model: runtime.name,
    apiKey: undefined,
    local: true,
    localWhy: 'in this process',
    acceptsImages: false,
    timeoutMs: 120_000,
  };
  const deps: ConformanceDeps = { lane, state, model, record: { model: runtime.name, baseUrl: 'embedded', checkedAt: new Date().toISOString() } };
  const fetchHint = file.downloadable ? 'run `npm run models -- pull` to fetch it' : 'put a GGUF file at EMBEDDED_MODEL_PATH';

  const fileCheck: Check = {
    name: 'embedded model: file',
    run: (): Promise<Verdict> => Promise.resolve(size === undefined ? fail(`the model file is not at ${file.path}`, fetchHint) : ok(`${file.path} (${(size / 1024 ** 2).toFixed(0)} MB)`)),
  };
  const loadCheck: Check = {
    name: 'embedded model: loads',
    timeoutMs: 120_000,
    async run(): Promise<Verdict> {
      if (size === undefined) return skip('no file');
      try {
        const loaded = await runtime.load();
        state.reachable = true;
        state.modelUsable = true;
        return ok(`loaded in ${(loaded.loadMs / 1000).toFixed(1)} s on ${loaded.gpu === false ? 'the CPU' : loaded.gpu}, context ${String(loaded.context.contextSize)} tokens`);
      } catch (err) {
        return fail(errorWithCause(err).slice(0, 240), 'a smaller model or quantisation, a smaller EMBEDDED_CONTEXT_SIZE, or EMBEDDED_GPU=off; or use a model server (LLM_PROVIDER=server)');
      }
    },
  };
  const speedCheck: Check = {
    name: 'embedded model: speed',
    timeoutMs: 120_000,
    async run(signal): Promise<Verdict> {
      if (!state.reachable) return skip('not loaded');
      const started = performance.now();
      let text = '';
      for await (const chunk of model.stream({ messages: [{ role: 'user', content: 'Write two sentences about the sea.' }], maxTokens: 48, temperature: 0, signal })) {
        if (chunk.type === 'text') text += chunk.text;
      }
      const seconds = (performance.now() - started) / 1000;
      const tokens = (await runtime.load()).model.tokenize(text).length;
      const rate = tokens / seconds;
      const line = `${String(tokens)} tokens in ${seconds.toFixed(1)} s: ${rate.toFixed(1)} tokens/s`;
      return rate >= 3 ? ok(line) : { status: 'warn', detail: `${line} — replies will be slow`, fix: 'a smaller model or quantisation, EMBEDDED_GPU with a GPU, or a model server' };
    },
  };
  return { name: 'embedded model', checks: [fileCheck, loadCheck, speedCheck, toolCallCheck(deps), jsonCheck(deps)], dispose: () => runtime.close() };
}
