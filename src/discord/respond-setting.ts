/**
 * Optional capability for `/project respond`: an AssistantApi that can also change whether a
 * project answers every message or only when addressed. Not part of AssistantApi (whose
 * signature is fixed); the command checks for it and otherwise explains how to edit project.md.
 */
import type { AssistantApi, Place } from '../core/assistant-api.js';

export interface RespondSetting {
  setRespond(place: Place, respond: 'always' | 'mention'): Promise<void>;
}

export function canSetRespond(assistant: AssistantApi): assistant is AssistantApi & RespondSetting {
  return typeof (assistant as Partial<RespondSetting>).setRespond === 'function';
}
