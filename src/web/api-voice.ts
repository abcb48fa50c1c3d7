/**
 * Push-to-talk and read-aloud for the web chat, over the same speech ports as Discord voice.
 *
 *   POST /api/transcribe   audio body (WAV, Ogg Opus or MP3) → { text }
 *   POST /api/speech       { text, project? } → audio (the configured TTS engine; `project`: the chat the
 *                          text is from, whose stored label decides whether an online voice may speak it)
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { WebEnv, SpeechServices } from './web-deps.js';
import type { ProjectsApi } from '../core/assistant-api.js';
import { placeFor } from './places.js';
import { errorMessage } from '../util/error-text.js';
import { withoutHostPaths } from '../core/privacy/public-text.js';

const MAX_AUDIO = 25 * 1024 * 1024;

export function voiceRoutes(app: Hono<WebEnv>, speech: SpeechServices | undefined, projects: Pick<ProjectsApi, 'getProject'>): void {
  app.post('/api/transcribe', async (c) => {
    if (!speech?.transcribe) return c.json({ error: 'speech-to-text is not set up (see docs/voice.md)' }, 501);
    const data = new Uint8Array(await c.req.arrayBuffer());
    if (!data.length) return c.json({ error: 'no audio in the request body' }, 400);
    if (data.length > MAX_AUDIO) return c.json({ error: 'recording too long' }, 413);
    try {
      const text = await speech.transcribe(data, c.req.header('content-type') ?? '', c.req.raw.signal);
      return c.json({ text });
    } catch (err) {
      // plain words for everyone; the cause (without this machine's paths) for the owner, who can fix it
      const plain = 'The recording could not be turned into text. Try again, or type your message.';
      return c.json({ error: c.get('user').kind === 'owner' ? `${plain} (${withoutHostPaths(errorMessage(err))})` : plain }, 422);
    }
  });

  app.post('/api/speech', async (c) => {
    if (!speech?.speak) return c.json({ error: 'text-to-speech is not set up' }, 501);
    const body = z.object({ text: z.string().trim().min(1).max(5000), project: z.string().max(120).optional() }).safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'send { "text": "…", "project": "…" }' }, 400);
    const where = body.data.project === undefined ? null : await placeFor(body.data.project, c.get('user'), projects);
    if (body.data.project !== undefined && !where) return c.json({ error: 'no such project' }, 404);
    const audio = await speech.speak(body.data.text, c.req.raw.signal, where?.place ?? null).catch((err: unknown) => err as Error);
    if (audio instanceof Error) return c.json({ error: audio.message }, audio.name === 'SpeechWithheldError' ? 409 : 502);
    // Read aloud tells the listener when an online voice (text sent to its service) spoke
    return c.body(audio.data.slice().buffer, 200, { 'content-type': audio.mime, 'cache-control': 'no-store', 'x-voice': audio.spokenBy === 'hosted' ? 'online' : 'local' });
  });
}
