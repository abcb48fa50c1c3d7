/**
 * Files dropped on (or picked in) the chat, read into the project's memory through the same
 * ingestion as the inbox (the ingest service's `add`: the file goes into `inbox/` and the memory
 * lane reads it, as `/memory ingest` on Discord does):
 *
 *   POST /api/projects/:project/files?name=trip.ics   the file's bytes → 202 { id, name }
 *   GET  /api/projects/:project/files/:id              { state: 'reading' } or { state: 'done', said, ok }
 *
 * The read runs after the answer (a big CSV streams for minutes); the chat asks how it stands and
 * shows the inbox progress (GET …/ingest) meanwhile. Too big, an unsupported kind, or the private
 * conversation (it has no inbox) are refused in plain words.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { FileIntake, WebDeps, WebEnv } from './web-deps.js';
import { noSuchProject, requestPlace } from './places.js';
import { READABLE_FILES } from '../core/writing/ingest-status.js';

export const FILE_MAX_BYTES = 10_000_000;
/** What the inbox reads. */
const READABLE: readonly string[] = READABLE_FILES;
const KEPT_JOBS = 100;

type Job = { project: string; state: 'reading' } | { project: string; state: 'done'; ok: boolean; said: string };

const fileName = z
  .string()
  .trim()
  .min(1, 'the file has no name')
  .max(200, 'the file name is too long (200 characters at most)')
  .refine((n) => !/[\p{Cc}/\\]/u.test(n), 'the file name holds characters a file name cannot');

/** What the chat says when the read ends: what was learnt, and where it went. */
export function fileOutcome(name: string, projectName: string, r: Awaited<ReturnType<FileIntake['add']>>): { ok: boolean; said: string } {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  if (r.outcome === 'ingested' && r.facts === 0)
    return {
      ok: true,
      said: `Read ${name} (${n(r.items, 'new item', 'new items')}) for the memory of ${projectName}: nothing in it was lasting enough to write yet. What may matter waits under Memory › Candidates, and is kept when it comes up again.`,
    };
  if (r.outcome === 'ingested')
    return {
      ok: true,
      said: `Read ${name} into the memory of ${projectName}: ${n(r.items, 'new item', 'new items')}, ${n(r.facts, 'fact', 'facts')} written or refreshed on its pages (Memory › Pages). The file is kept in the project's inbox.`,
    };
  if (r.outcome === 'unchanged') return { ok: true, said: `${name} was read before and has not changed, so there is nothing new to learn.` };
  if (r.outcome === 'unparseable') return { ok: false, said: `${name} could not be read: it does not look like the kind of file its name says.` };
  if (/no local memory model/.test(r.message ?? ''))
    return { ok: false, said: `${name} waits in ${projectName}'s inbox: no model on your own machines is set up to write memory, so nothing was read yet.` };
  return { ok: false, said: `${name} could not be read into memory this time. It waits in the inbox and is tried again later.` };
}

function refusal(name: string, ext: string, size: number): string | null {
  if (!READABLE.includes(ext)) return `${name} is not a kind of file Charlie reads. It reads text (.txt), Markdown (.md), PDFs (.pdf), calendars (.ics), e-mails (.eml) and tables (.csv).`;
  if (size === 0) return `${name} is empty.`;
  if (size > FILE_MAX_BYTES)
    return `${name} is ${(size / 1_000_000).toFixed(1)} MB; Charlie reads files up to ${FILE_MAX_BYTES / 1_000_000} MB from the chat. Put bigger ones into the project's inbox folder.`;
  return null;
}

export function fileRoutes(app: Hono<WebEnv>, deps: WebDeps): void {
  const jobs = new Map<string, Job>();
  app.post('/api/projects/:project/files', async (c) => {
    const where = await requestPlace(c, deps.assistant.projects);
    if (!where) return noSuchProject(c);
    if (!where.slug) return c.json({ error: 'Your private conversation keeps no files. Drop the file in a project’s chat to read it into that project’s memory.' }, 400);
    if (!deps.files) return c.json({ error: 'Files cannot be read into memory here.' }, 501);
    const named = fileName.safeParse(c.req.query('name') ?? '');
    if (!named.success) return c.json({ error: named.error.issues.map((i) => i.message).join('; ') }, 400);
    const name = named.data;
    const ext = name.includes('.') ? name.slice(name.lastIndexOf('.')).toLowerCase() : '';
    const declared = Number(c.req.header('content-length') ?? 0);
    const early = refusal(name, ext, declared > FILE_MAX_BYTES ? declared : 1);
    if (early) return c.json({ error: early }, declared > FILE_MAX_BYTES ? 413 : 415);
    const bytes = Buffer.from(await c.req.arrayBuffer());
    const late = refusal(name, ext, bytes.length);
    if (late) return c.json({ error: late }, bytes.length ? 413 : 400);
    const slug = where.slug;
    const projectName = (await deps.assistant.projects.getProject(slug))?.config.name ?? slug;
    const id = randomUUID().slice(0, 12);
    jobs.set(id, { project: slug, state: 'reading' });
    for (const old of [...jobs.keys()].slice(0, Math.max(0, jobs.size - KEPT_JOBS))) jobs.delete(old);
    const intake = deps.files;
    void intake
      .add(slug, name, bytes)
      .then((r) => fileOutcome(name, projectName, r))
      .catch((err: unknown) => {
        deps.logger.warn({ err, project: slug }, 'file from the chat not read');
        return { ok: false, said: `${name} could not be read into memory this time. It waits in the inbox and is tried again later.` };
      })
      .then((done) => jobs.set(id, { project: slug, state: 'done', ...done }));
    return c.json({ id, name }, 202);
  });

  app.get('/api/projects/:project/files/:id', async (c) => {
    const where = await requestPlace(c, deps.assistant.projects);
    const job = jobs.get(c.req.param('id'));
    if (!where?.slug || job?.project !== where.slug) return c.json({ error: 'no such file' }, 404);
    return c.json(job.state === 'reading' ? { state: 'reading' } : { state: 'done', ok: job.ok, said: job.said });
  });
}
