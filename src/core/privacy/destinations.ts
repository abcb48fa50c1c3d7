/**
 * Every service that can leave the machine is a destination with a locality, guarded by the
 * same boundary. This list is the one the doctor, /help, /voice status and the web settings
 * show, and the one the privacy test iterates: a kind added here without a guard and a test
 * driver fails that test.
 */
import type { Locality } from '../ports/index.js';

export const DESTINATIONS = {
  chat: { what: 'the chat model', receives: 'the conversation, tool results and the memory it asks for', guard: 'sensitive records are withheld (the egress guard)' },
  memory: { what: 'the memory model', receives: 'everything it distils, reviews and reflects on', guard: 'accepts only a local model, by type' },
  embedder: { what: 'the embedder', receives: 'chunks of notes and the archive, and search questions', guard: 'sensitive chunks and questions are not sent (found by keywords only)' },
  'speech-to-text': { what: 'speech to text', receives: "the speaker's own voice", guard: 'only audio of the person speaking; no memory is sent' },
  'text-to-speech': { what: 'the voice', receives: 'reply sentences to speak', guard: 'a reply that drew on sensitive memory is spoken by the local voice' },
} as const;

export type DestinationKind = keyof typeof DESTINATIONS;

export interface Destination {
  kind: DestinationKind;
  /** e.g. `qwen3@http://localhost:1234/v1`, `edge-tts|espeak-ng`. */
  id: string;
  locality: Locality;
}

/** One line per destination: what runs where and what it may receive. */
export function describeDestinations(list: readonly Destination[]): string[] {
  return list.map((d) => {
    const info = DESTINATIONS[d.kind];
    const where = d.locality === 'local' ? 'on this machine' : 'hosted (leaves this machine)';
    return `${info.what}: ${d.id}, ${where} — receives ${info.receives}${d.locality === 'hosted' ? `; ${info.guard}` : ''}`;
  });
}
