/**
 * A web Charlie for "Ask in the moment" (issue 40): CONSENT_MODE=ask, the chat model hosted
 * (the scripted fake server says it is), a project `general` holding Ann's own health record and
 * Bob's, and a model that reads both pages once per turn, then answers. For the web consent
 * tests and the dialog's screenshot.
 */
import type { ChatBody } from './fake-model-server.js';
import { projectFile, startWebFixture, type WebFixture } from './web-fixture.js';

export const ANN_CANARY = 'CANARY-ANN-5d21 takes sumatriptan for migraines';
export const BOB_CANARY = 'CANARY-BOB-8e40 has a hepatitis diagnosis';
export const ANN_LABEL = 'People/Ann › medication (health)';
export const REPLY = 'Here is what I found.';

/** Reads People/Ann.md and People/Bob.md in every turn, then answers. */
function searcher() {
  let call = 0;
  return (body: ChatBody) => {
    if (body.messages.at(-1)?.role === 'tool') return { text: REPLY };
    call++;
    return {
      toolCalls: [
        { id: `a${call}`, name: 'read_note', arguments: JSON.stringify({ path: 'People/Ann.md' }) },
        { id: `b${call}`, name: 'read_note', arguments: JSON.stringify({ path: 'People/Bob.md' }) },
      ],
    };
  };
}

export function startConsentWeb(timeoutMs = 20_000, env: Record<string, string> = {}): Promise<WebFixture> {
  return startWebFixture({
    script: searcher(),
    env: { LLM_LOCALITY: 'hosted', LLM_API_KEY: 'test-key', LLM_MAX_RETRIES: '0', CONSENT_MODE: 'ask', CONSENT_TIMEOUT_MS: String(timeoutMs), ...env },
    files: {
      'general/project.md': projectFile('general', 'terminal:general'),
      'general/notes/People/Ann.md': `---\nschema: 1\ntitle: Ann\n---\n\n- Ann ${ANN_CANARY}. [about:: medication] [sensitivity:: sensitive/phi] ^r-a11a11\n`,
      'general/notes/People/Bob.md': `---\nschema: 1\ntitle: Bob\n---\n\n- Bob ${BOB_CANARY}. [about:: diagnosis] [sensitivity:: sensitive/phi] ^r-b22b22\n`,
    },
  });
}

/** A member's session cookie (`name=value`), signed in with their `/web` link. */
export async function memberCookie(f: WebFixture, id: string, name: string): Promise<string> {
  const res = await fetch(f.web.loginLinkFor(id, name), { redirect: 'manual' });
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
