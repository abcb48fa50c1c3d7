/**
 * Scripted model behaviours for the doctor's conformance run, over the fake model server:
 * a good model, one that never calls tools, one whose JSON is broken, one that ignores
 * `stream`. Each answers the conformance probes by what the request asks.
 */
import type { ScriptedReply } from './fake-model-server.js';

export type Behaviour = 'good' | 'never-calls-tools' | 'broken-json' | 'ignores-stream';

export interface ProbeRequest {
  tools?: unknown[];
  response_format?: unknown;
  messages: { role: string; content: unknown }[];
}

function answer(body: ProbeRequest, behaviour: Behaviour): ScriptedReply {
  const messages = body.messages;
  const last = messages[messages.length - 1];
  const lastText = typeof last?.content === 'string' ? last.content : '';
  if (messages.some((m) => m.role === 'tool')) return { text: 'The secret word is pelican-47.' };
  if (body.tools?.length) {
    return behaviour === 'never-calls-tools' ? { text: 'I do not know the secret word.' } : { toolCalls: [{ name: 'get_secret_word', arguments: '{"day":"today"}' }] };
  }
  if (Array.isArray(last?.content)) return { text: 'Red.' };
  if (body.response_format !== undefined || messages.some((m) => typeof m.content === 'string' && m.content.includes('JSON'))) {
    return behaviour === 'broken-json' ? { text: 'Sure! {"city": "Paris", "colors": ["blue", "white"' } : { text: '{"city": "Paris", "colors": ["blue", "white", "red"]}' };
  }
  if (lastText.includes('passphrase')) return { text: 'ORCHID-93' };
  return { text: '1 2 3 4 5 6 7 8 9 10' };
}

export function behaviourScript(behaviour: Behaviour): (body: ProbeRequest) => ScriptedReply {
  return (body: ProbeRequest) => ({ ...answer(body, behaviour), ...(behaviour === 'ignores-stream' ? { ignoreStream: true } : {}) });
}
