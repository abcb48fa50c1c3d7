/** The checks of one model lane: server, model, locality, then the conformance run, whose result is kept under data/. */
import type { Config } from '../config.js';
import { silentLogger } from '../core/ports/index.js';
import { chatModelOptions } from '../llm/chat-model-config.js';
import { OpenAIChatModel } from '../llm/openai-chat.js';
import { ok, warn, type Check, type Part } from './check.js';
import { contextCheck, imageCheck, jsonCheck, streamingCheck, toolCallCheck, type ConformanceDeps } from './conformance.js';
import { saveConformance, type ConformanceRecord } from './conformance-store.js';
import type { Lane } from './lane.js';
import { localityCheck, modelCheck, newLaneState, serverCheck } from './model-server.js';

function keepResults(deps: ConformanceDeps, dataDir: string): Check {
  return {
    name: `${deps.lane.name}: results kept`,
    async run() {
      if (!deps.state.reachable || !deps.state.modelUsable) return { status: 'skip', detail: 'nothing measured' };
      try {
        saveConformance(dataDir, deps.record);
        return ok(`saved to ${dataDir}/conformance.json (shown when Charlie starts)`);
      } catch (err) {
        return warn(`could not save the results: ${String(err)}`, 'check that DATA_DIR is writable');
      }
    },
  };
}

export function modelLanePart(lane: Lane, config: Config): Part {
  const state = newLaneState();
  const model = new OpenAIChatModel({
    ...chatModelOptions({
      ...config,
      LLM_BASE_URL: lane.baseUrl,
      LLM_MODEL: lane.model,
      LLM_API_KEY: lane.apiKey,
      LLM_MAX_RETRIES: 0,
      LLM_CONNECT_TIMEOUT_MS: 5000,
      LLM_TIMEOUT_MS: 30_000,
      llmLocal: lane.local,
    }),
    logger: silentLogger,
  });
  const record: ConformanceRecord = { model: lane.model, baseUrl: lane.shownUrl, checkedAt: new Date().toISOString() };
  const deps: ConformanceDeps = { lane, state, model, record };
  return {
    name: lane.name,
    checks: [
      serverCheck(lane, state),
      modelCheck(lane, state),
      localityCheck(lane),
      streamingCheck(deps),
      toolCallCheck(deps),
      jsonCheck(deps),
      contextCheck(deps),
      // only the chat lane is ever sent images
      ...(lane.name === 'chat lane' ? [imageCheck(deps)] : []),
      keepResults(deps, config.dataDir),
    ],
  };
}

/**
 * The memory lane: its own conformance run when it is another model or server than the chat
 * lane, one line when it is the chat model itself, a warning when nothing may write memory.
 */
export function memoryLanePart(chat: Lane, memory: Lane | null, config: Config, embeddedChat = false): Part {
  const own = memory !== null && (config.memoryLane?.from === 'memory' || (!embeddedChat && (memory.baseUrl !== chat.baseUrl || memory.model !== chat.model)));
  if (own) return modelLanePart(memory, config);
  const verdict = embeddedChat
    ? ok('the embedded model also writes memory (it runs in this process): its checks are above')
    : memory === null
      ? warn(
          `the chat model is hosted (${chat.localWhy}) and no local memory model is set: nothing is distilled into memory`,
          'set MEMORY_LLM_BASE_URL (and MEMORY_LLM_MODEL) to a local server such as LM Studio or Ollama, or LLM_LOCALITY=local if the chat server is yours',
        )
      : ok(`the chat model (${chat.model}, local) also writes memory: the conformance run above covers it`);
  return { name: 'memory lane', checks: [{ name: 'memory lane', run: () => Promise.resolve(verdict) }] };
}
