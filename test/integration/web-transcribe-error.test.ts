/**
 * The microphone's error in plain words (issue 43): a recording speech-to-text cannot read gives
 * every person the same plain sentence and a next step; only the owner sees the cause, and never
 * a path of this machine. The routes run on Hono with a speech port that fails as a real one does.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { voiceRoutes } from '../../src/web/api-voice.js';
import type { WebEnv } from '../../src/web/web-deps.js';
import type { WebUser } from '../../src/web/auth.js';

function app(user: WebUser): Hono<WebEnv> {
  const web = new Hono<WebEnv>();
  web.use(async (c, next) => {
    c.set('user', user);
    await next();
  });
  voiceRoutes(
    web,
    { transcribe: () => Promise.reject(new Error('could not load the speech model from /root/charlie/data/models/whisper-base.en: fetch failed')) },
    {
      getProject: () => Promise.resolve(null),
    },
  );
  return web;
}

const transcribe = async (user: WebUser) => {
  const res = await app(user).request('/api/transcribe', { method: 'POST', headers: { 'content-type': 'audio/wav' }, body: new Uint8Array([1, 2, 3, 4]) });
  return { status: res.status, error: ((await res.json()) as { error?: string }).error ?? '' };
};

describe('a recording that cannot be transcribed', () => {
  it('says so in plain words; the owner also sees the cause, without paths', async () => {
    const member = await transcribe({ kind: 'member', id: 'm-1', name: 'Mia', role: 'member' });
    expect(member.status).toBe(422);
    expect(member.error).toBe('The recording could not be turned into text. Try again, or type your message.');
    const owner = await transcribe({ kind: 'owner', id: 'owner', name: 'root', role: 'owner' });
    expect(owner.status).toBe(422);
    expect(owner.error.startsWith(member.error)).toBe(true);
    expect(owner.error).toContain('fetch failed');
    expect(owner.error).not.toContain('/root/charlie');
  });
});
