/**
 * What the live-settings tests share: a model server script that answers a chat with its own name
 * and an inbox extraction with one fact per item (so a file read from the chat lands on a page),
 * and a scripted voice that says which voice spoke.
 */
import type { SynthesizedAudio, TextToSpeech } from '../../src/core/ports/index.js';
import type { TtsConfig } from '../../src/speech/tts/create.js';
import type { ChatBody, ScriptedReply } from './fake-model-server.js';

/** Chat turns answer `answer from <label>`; the memory lane's inbox reading files each item under `Porto trip` (PORTO_PAGE). */
export function namedServer(label: string): (request: ChatBody) => ScriptedReply {
  return (request) => {
    const system = String(request.messages[0]?.content ?? '');
    if (system.includes('The source is inbox/')) {
      const items = String(request.messages[1]?.content ?? '')
        .split('\n')
        .filter((l) => /^\[\d+\]/.test(l));
      return {
        text: JSON.stringify({
          entities: [{ name: 'Porto trip', category: 'Travel', new: false, staleness: 6 }],
          facts: items.map((l, i) => ({ entity: 'Porto trip', text: l.replace(/^\[\d+\]\s*/, '').slice(0, 120), message: i + 1 })),
          links: [],
        }),
      };
    }
    return { text: `answer from ${label}` };
  };
}

/** "Speaks" `<voice>: <text>` as text/plain, so a test can tell which voice read a reply. */
export class NamedVoice implements TextToSpeech {
  readonly locality = 'local' as const;
  constructor(readonly id: string) {}
  synthesize(text: string): Promise<SynthesizedAudio> {
    return Promise.resolve({ mime: 'text/plain', data: new TextEncoder().encode(`${this.id}: ${text}`) });
  }
}

/** The voice Settings builds: named by the voice it was asked for. */
export const makeNamedVoice = (c: TtsConfig) => new NamedVoice(c.TTS === 'local' ? `local ${c.TTS_LOCAL_VOICE}` : `online ${c.TTS_VOICE}`);

/** The project's page the inbox reading adds to (`notes/Travel/Porto-trip.md`). */
export const PORTO_PAGE = `---
schema: 2
title: Porto trip
category: Travel
created: 2026-11-01
updated: 2026-11-01
staleness: 6
---

The household's trip to Porto in May.
`;
