/**
 * The owner's Settings page, beyond the read-only view (GET /api/settings):
 *
 *   GET  /api/settings/checks              the doctor's last results here (null before any run)
 *   POST /api/settings/checks              runs the doctor's checks on the server, then answers them;
 *                                          a run already going is joined, and one finished less than
 *                                          a minute ago is answered again (coalesced, rate-limited)
 *   GET  /api/settings/projects            each project's response style and response mode
 *   PUT  /api/settings/projects/:project   { style?, respond? } → saved as `/project style` and
 *                                          `/project respond` save them (the assistant's setStyle/setRespond)
 *
 * Who may: the role table (src/core/roles.ts), put in front of these routes by src/web/roles.ts —
 * the checks are the owner's (`settings`), a project's style and mode an editor's too
 * (`project-settings`, as `/project style` on Discord); anyone else is answered 403.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { WebDeps, WebEnv, CheckLine } from './web-deps.js';
import { placeFor } from './places.js';

export interface ChecksRun {
  /** When the run finished (ISO). */
  at: string;
  ms: number;
  checks: CheckLine[];
}

/** Longest a style may be (the same limit as `/project style` in Discord). */
export const STYLE_MAX = 1000;

/**
 * Runs the doctor at most once at a time and at most once a minute: a click while a run goes
 * joins it, a click soon after one answers its results again. Owned by one web app (no globals).
 */
export class CheckRunner {
  private running: Promise<ChecksRun> | null = null;
  private last: ChecksRun | null = null;
  private lastEnded = -Infinity;

  constructor(
    private readonly run: () => Promise<CheckLine[]>,
    private readonly now: () => number = () => Date.now(),
    private readonly minIntervalMs = 60_000,
  ) {}

  latest(): ChecksRun | null {
    return this.last;
  }

  /** The results, and whether they are of a run this call started (false: joined or repeated). */
  async start(): Promise<{ run: ChecksRun; fresh: boolean }> {
    if (this.running) return { run: await this.running, fresh: false };
    if (this.last && this.now() - this.lastEnded < this.minIntervalMs) return { run: this.last, fresh: false };
    const started = this.now();
    this.running = this.run()
      .then((checks) => {
        const ended = this.now();
        this.last = { at: new Date(ended).toISOString(), ms: ended - started, checks };
        this.lastEnded = ended;
        return this.last;
      })
      .finally(() => {
        this.running = null;
      });
    return { run: await this.running, fresh: true };
  }
}

const ProjectEdit = z
  .object({
    style: z
      .string()
      .max(STYLE_MAX, `a style is at most ${STYLE_MAX} characters`)
      // one line of instructions, as in Discord's field: no control characters (tabs and new lines become spaces)
      .transform((s) => s.replace(/[\t\r\n]+/g, ' ').trim())
      .refine((s) => !/\p{Cc}/u.test(s), 'a style cannot hold control characters')
      .optional(),
    respond: z.enum(['always', 'mention'], { error: 'respond is "always" or "mention"' }).optional(),
  })
  .strict()
  .refine((v) => v.style !== undefined || v.respond !== undefined, 'send a style, a respond mode, or both');

export function settingsRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const runner = deps.runChecks ? new CheckRunner(deps.runChecks, deps.now) : null;

  app.get('/api/settings/checks', (c) => {
    return c.json({ available: runner !== null, run: runner?.latest() ?? null });
  });

  app.post('/api/settings/checks', async (c) => {
    if (!runner) return c.json({ error: 'checks cannot be run from this Charlie (run npm run doctor)' }, 501);
    const { run, fresh } = await runner.start();
    return c.json({ run, fresh });
  });

  app.get('/api/settings/projects', async (c) => {
    const projects = await deps.assistant.projects.listProjects();
    return c.json({
      projects: projects.map((p) => ({ project: p.slug, name: p.name, style: p.style, respond: p.respond })),
      styleMax: STYLE_MAX,
    });
  });

  app.put('/api/settings/projects/:project', async (c) => {
    const user = c.get('user');
    const where = await placeFor(c.req.param('project'), user, deps.assistant.projects);
    if (!where?.slug) return c.json({ error: 'no such project' }, 404);
    const body = ProjectEdit.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: body.error.issues.map((i) => i.message).join('; ') }, 400);
    // the same calls as /project style and /project respond
    if (body.data.style !== undefined) await deps.assistant.settings.setStyle(where.place, body.data.style);
    if (body.data.respond !== undefined) await deps.assistant.settings.setRespond(where.place, body.data.respond);
    const config = await deps.assistant.settings.projectConfig(where.place);
    return c.json({ project: where.slug, style: config?.style ?? '', respond: config?.respond ?? 'always' });
  });
}
