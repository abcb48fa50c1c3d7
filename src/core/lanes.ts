/**
 * Which model does which job, and whether it runs on the owner's machine. Shown on the
 * startup line, in /help and (with the voice engines) in /voice status.
 */
import type { ChatModel, LocalChatModel } from './ports/index.js';

export interface ModelLane {
  job: string;
  /** Model id without credentials, or a sentence saying nothing does this job. */
  model: string;
  local: boolean | null;
}

export function modelLanes(chat: ChatModel, memory: LocalChatModel | null): ModelLane[] {
  return [
    { job: 'chat', model: chat.id, local: chat.locality === 'local' },
    memory
      ? { job: 'memory (distillation, entities, remember)', model: memory.id, local: true }
      : { job: 'memory (distillation, entities, remember)', model: 'none — requests to remember are kept as candidates until a local model is set (MEMORY_LLM_BASE_URL)', local: null },
  ];
}

export function describeLane(lane: ModelLane): string {
  const where = lane.local === null ? '' : lane.local ? ' (local)' : ' (hosted: leaves this machine; sensitive memory is withheld)';
  return `${lane.job}: ${lane.model}${where}`;
}
