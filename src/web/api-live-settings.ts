/**
 * Settings that change things while Charlie runs (the owner's), and what is in use (everyone's):
 *
 *   GET /api/settings/live         the chat model and its server, the voice, whether speech-to-text
 *                                  works here (and why not), and which settings the web app set
 *                                  over .env; a member gets it without server addresses
 *   PUT /api/settings/live/model   { baseUrl, model, apiKey?, mine? } → the next turn uses it; an
 *                                  unreachable server or an unknown model is refused in plain words
 *                                  and the old setting kept (422)
 *   PUT /api/settings/live/voice   { tts: 'local' | 'edge', voice?, localVoice? } → the next Read aloud uses it
 *
 * The composition root's live-settings holder (src/app/live-settings.ts) does the change; this
 * file checks the input with a schema. Owner-only through the role table (src/web/roles.ts).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { WebEnv } from './web-env.js';

/** Whether the push-to-talk button can work, and why not. */
export interface ListeningStatus {
  available: boolean;
  /** Why not, in plain words (for everyone). */
  reason?: string;
  /** What the owner can do about it (may name a command). */
  fix?: string;
}

export interface LiveSettingsWire {
  chat: { model: string; server: string; local: boolean; hasKey: boolean; embedded: boolean };
  voice: { engine: 'local' | 'edge' | 'none'; voice: string; localVoice: string };
  listening: ListeningStatus;
  /** Settings the web app set over .env (DATA_DIR/settings.json). */
  fromFile: string[];
}

export type ChangeResult = { ok: true; said: string } | { ok: false; error: string };

export const modelChange = z
  .object({
    baseUrl: z
      .string({ error: 'give the model server’s address' })
      .trim()
      .regex(/^https?:\/\/[^\s/]+/, 'the address starts with http:// or https://, e.g. http://localhost:1234/v1')
      .pipe(z.url('that is not a web address, e.g. http://localhost:1234/v1'))
      .refine((u) => !/\/\/[^/]*@/.test(u), 'put the API key in its own field, not in the address'),
    model: z.string({ error: 'give the model’s name' }).trim().min(1, 'give the model’s name').max(200, 'a model name is at most 200 characters'),
    /** A new key; '' removes the key; absent keeps the one for the same server (never sent to another). */
    apiKey: z.string().max(500, 'an API key is at most 500 characters').optional(),
    /** The owner declares a server on a public name theirs (as LLM_LOCALITY=local). */
    mine: z.boolean().optional(),
  })
  .strict();
export type ModelChange = z.infer<typeof modelChange>;

export const voiceChange = z
  .object({
    tts: z.enum(['local', 'edge'], { error: 'the voice is "local" (this machine) or "edge" (Microsoft’s online voices)' }),
    voice: z
      .string()
      .trim()
      .regex(/^[a-z]{2,3}-[A-Z]{2,3}-[A-Za-z]+Neural$/, 'an online voice is named like en-US-AvaMultilingualNeural')
      .optional(),
    localVoice: z
      .string()
      .trim()
      .regex(/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/, 'a local voice is a language code such as en-us or de')
      .optional(),
  })
  .strict();
export type VoiceChange = z.infer<typeof voiceChange>;

/** What the web app needs of the live-settings holder. */
export interface LiveSettingsPort {
  view(owner: boolean): LiveSettingsWire;
  changeModel(change: ModelChange): Promise<ChangeResult>;
  changeVoice(change: VoiceChange): Promise<ChangeResult>;
}

/** What /api/me says of push-to-talk: whether it works, and (for the owner) why not and what to do. */
export function listening(speech: { transcribe?: unknown; listening?: () => ListeningStatus } | undefined, owner: boolean): { stt: boolean; sttReason?: string } {
  const s: ListeningStatus =
    typeof speech?.transcribe !== 'function' ? { available: false, reason: 'Speech-to-text is not set up on this Charlie.', fix: 'See docs/voice.md.' } : (speech.listening?.() ?? { available: true });
  if (s.available) return { stt: true };
  const reason = s.reason ?? 'Speech-to-text is not available.';
  return { stt: false, sttReason: owner && s.fix ? `${reason} ${s.fix}` : reason };
}

const issues = (e: z.ZodError) => e.issues.map((i) => i.message).join('; ');

export function liveSettingsRoutes(app: Hono<WebEnv>, live: LiveSettingsPort | undefined): void {
  app.get('/api/settings/live', (c) => {
    if (!live) return c.json({ error: 'settings are not available here' }, 501);
    return c.json(live.view(c.get('user').kind === 'owner'));
  });
  const change = <T>(what: 'model' | 'voice', schema: z.ZodType<T>, apply: (p: LiveSettingsPort, v: T) => Promise<ChangeResult>) =>
    app.put(`/api/settings/live/${what}`, async (c) => {
      if (!live) return c.json({ error: 'settings cannot be changed here' }, 501);
      const body = schema.safeParse(await c.req.json().catch(() => null));
      if (!body.success) return c.json({ error: issues(body.error) }, 400);
      const result = await apply(live, body.data);
      return result.ok ? c.json({ said: result.said, settings: live.view(true) }) : c.json({ error: result.error }, 422);
    });
  change('model', modelChange, (p, v) => p.changeModel(v));
  change('voice', voiceChange, (p, v) => p.changeVoice(v));
}
