/**
 * Checks of a model lane's server: does it answer, does it have the model, is it local — and
 * what context length it declares, which the conformance run reports.
 */
import { fail, ok, warn, type Check, type Verdict } from './check.js';
import { headers, networkReason, parseJson, request, trimSlash } from './http.js';
import type { Lane } from './lane.js';

export interface LaneState {
  reachable: boolean;
  /** Model ids the server lists; empty when it lists none. */
  models: string[];
  /** The model is listed (or the server lists none, so it cannot be told). */
  modelUsable: boolean;
  /** Context length the server declares for the model, when it says. */
  declaredContext: number | undefined;
}

export function newLaneState(): LaneState {
  return { reachable: false, models: [], modelUsable: false, declaredContext: undefined };
}

const START_FIX =
  'start the server (LM Studio: Developer tab → Start server, port 1234; Ollama: `ollama serve`, port 11434; llama.cpp: `llama-server --jinja --port 8080`) or set LLM_BASE_URL to where it runs';

function contextOf(entry: unknown): number | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  const meta = typeof e.meta === 'object' && e.meta !== null ? (e.meta as Record<string, unknown>) : {};
  for (const v of [e.loaded_context_length, e.max_model_len, e.context_length, e.context_window, e.max_context_length, meta.n_ctx, meta.n_ctx_train]) {
    if (typeof v === 'number' && v > 0) return v;
  }
  return undefined;
}

/**
 * The context the server has the model loaded with, from the servers' own APIs beside /v1:
 * LM Studio's `/api/v0/models/{id}` (loaded_context_length) and llama.cpp's `/props` (n_ctx).
 * Ollama and vLLM say nothing more than /v1/models does; the long-prompt probe covers them.
 */
async function loadedContext(lane: Lane, signal: AbortSignal): Promise<number | undefined> {
  const root = trimSlash(lane.baseUrl).replace(/\/v1$/, '');
  const ask = async (url: string, pick: (body: unknown) => unknown): Promise<number | undefined> => {
    try {
      const answer = await request(url, { headers: headers(lane.apiKey), timeoutMs: 2000, signal });
      const v = answer.status === 200 ? pick(parseJson(answer.text)) : undefined;
      return typeof v === 'number' && v > 0 ? v : undefined;
    } catch {
      return undefined;
    }
  };
  const field = (o: unknown, k: string): unknown => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[k] : undefined);
  const [lmStudio, llamaCpp] = await Promise.all([
    ask(`${root}/api/v0/models/${encodeURIComponent(lane.model)}`, (b) => field(b, 'loaded_context_length') ?? field(b, 'max_context_length')),
    ask(`${root}/props`, (b) => field(field(b, 'default_generation_settings'), 'n_ctx')),
  ]);
  return lmStudio ?? llamaCpp;
}

export function serverCheck(lane: Lane, state: LaneState): Check {
  return {
    name: `${lane.name}: server`,
    timeoutMs: 6000,
    async run(signal): Promise<Verdict> {
      const url = `${trimSlash(lane.baseUrl)}/models`;
      let answer;
      try {
        answer = await request(url, { headers: headers(lane.apiKey), timeoutMs: 5000, signal });
      } catch (err) {
        if (lane.fallback !== undefined) return warn(`no model server at ${lane.shownUrl} (${networkReason(err)}): ${lane.fallback}`, START_FIX.replace('LLM_BASE_URL', `${lane.env}_BASE_URL`));
        const fix = START_FIX.replace('LLM_BASE_URL', `${lane.env}_BASE_URL`);
        return fail(`no model server at ${lane.shownUrl}: ${networkReason(err)}`, lane.otherWay === undefined ? fix : `${fix}; ${lane.otherWay}`);
      }
      if (answer.status === 401 || answer.status === 403) {
        return fail(`the server at ${lane.shownUrl} refused the key (${String(answer.status)})`, `set ${lane.env}_API_KEY to a valid key for this server`);
      }
      state.reachable = true;
      if (answer.status >= 400) {
        state.modelUsable = true;
        return warn(`a server answers at ${lane.shownUrl}, but GET /models gave ${String(answer.status)}`, `check that ${lane.env}_BASE_URL ends in /v1 (e.g. http://localhost:1234/v1)`);
      }
      const body = parseJson(answer.text) as { data?: unknown } | undefined;
      const entries = Array.isArray(body?.data) ? (body.data as unknown[]) : [];
      state.models = entries.map((m) => (typeof m === 'object' && m !== null && 'id' in m ? String(m.id) : '')).filter((id) => id !== '');
      const mine = entries.find((m) => typeof m === 'object' && m !== null && 'id' in m && String(m.id) === lane.model);
      state.declaredContext = (await loadedContext(lane, signal)) ?? contextOf(mine);
      return ok(`${lane.shownUrl} answers (${String(state.models.length)} model${state.models.length === 1 ? '' : 's'} listed)`);
    },
  };
}

export function modelCheck(lane: Lane, state: LaneState): Check {
  return {
    name: `${lane.name}: model`,
    async run(): Promise<Verdict> {
      if (!state.reachable) return { status: 'skip', detail: 'no server to ask' };
      if (state.models.length === 0) {
        state.modelUsable = true;
        return warn(`the server lists no models, so "${lane.model}" cannot be confirmed`, 'the conformance run below tries it');
      }
      if (state.models.includes(lane.model)) {
        state.modelUsable = true;
        return ok(`"${lane.model}" is on the server`);
      }
      const some = state.models.slice(0, 5).join(', ');
      return fail(
        `"${lane.model}" is not on the server (it has: ${some}${state.models.length > 5 ? ', …' : ''})`,
        `set ${lane.env}_MODEL to one of those ids, or load/pull the model (LM Studio: load it; Ollama: \`ollama pull ${lane.model}\`)`,
      );
    },
  };
}

export function localityCheck(lane: Lane): Check {
  return {
    name: `${lane.name}: local or hosted`,
    async run(): Promise<Verdict> {
      if (lane.local) return ok(`local: ${lane.localWhy}`);
      if (lane.name === 'memory lane') {
        return warn(
          `hosted: ${lane.localWhy} — memory is never written by a hosted model, so nothing is distilled`,
          `run a local model and point the memory lane at it, or set ${lane.env}_LOCALITY=local if the server is yours`,
        );
      }
      return ok(`hosted: ${lane.localWhy} — it answers, never receives notes marked sensitive, and never writes memory`);
    },
  };
}
