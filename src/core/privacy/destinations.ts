/**
 * Every service that can leave the machine is a destination with a locality, guarded by the
 * same boundary. This list is the one the doctor, /help, /voice status and the web settings
 * show, and the one the privacy test iterates: a kind added here without a guard and a test
 * driver fails that test. `row` names its row in docs/privacy.md's table of services (a test
 * checks every kind has one).
 */
import type { Locality } from '../ports/index.js';

export const DESTINATIONS = {
  chat: {
    what: 'the chat model',
    row: 'chat model',
    receives: 'the conversation, tool results and the memory it asks for',
    guard: 'sensitive records are withheld (the egress guard), unless their person says yes when asked (CONSENT_MODE=ask)',
  },
  memory: { what: 'the memory model', row: 'memory model', receives: 'everything it distils, reviews and reflects on', guard: 'accepts only a local model, by type' },
  embedder: { what: 'the embedder', row: 'embedder', receives: 'chunks of notes and the archive, and search questions', guard: 'sensitive chunks and questions are not sent (found by keywords only)' },
  'speech-to-text': { what: 'speech to text', row: 'speech to text', receives: "the speaker's own voice", guard: 'only audio of the person speaking; no memory is sent' },
  'text-to-speech': {
    what: 'the voice',
    row: 'voice',
    receives: 'reply sentences to speak',
    guard: 'a reply labelled sensitive (its turn drew on sensitive memory, even before a restart) is spoken by the local voice',
  },
  'mcp-tool-server': {
    what: 'a tool server (data/mcp.json)',
    row: 'MCP tool servers',
    receives: "the arguments of the tools the chat model calls, and the turn's tool results",
    guard: 'a turn that drew on anything labelled sensitive calls it with no arguments at all',
  },
  'mcp-client': {
    what: "a client of Charlie's MCP server (npm run mcp, /api/mcp)",
    row: 'Charlie as an MCP server',
    receives: 'search hits, pages, links, records and their provenance',
    guard: 'pages, records, links and archived messages labelled sensitive are left out',
  },
  calendar: {
    what: 'a calendar server',
    row: 'calendar servers',
    receives: 'the events a person confirms (CalDAV), and the requests that read the calendars subscribed here',
    guard: 'a sensitive event is never written to it, even after a yes; events read from it are labelled by the sensitivity rules',
  },
  sync: {
    what: 'the sync remote (SYNC_REMOTE)',
    row: 'sync remote',
    receives: "the Markdown memory: every project's pages, layers and archive (never DMs, the vault or the index)",
    guard: 'it holds only ciphertext: a hosted remote is refused unless it is encrypted to your GPG key (SYNC_ENCRYPT_TO, git-remote-gcrypt)',
  },
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
