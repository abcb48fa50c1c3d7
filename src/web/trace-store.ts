/**
 * What the web app showed of each turn, kept so a reload shows it again: the tool trace, the
 * suggested notes, and — for a reply cut by a model error or stopped by the person — the words
 * already streamed and the error's own words (the conversation log keeps only finished replies).
 * One JSON-lines file per person and place under DATA_DIR/web/turns/, named by a digest (no
 * names or ids in file names), trimmed to its newest entries. Kept apart from projects/: this is
 * the web app's view state, not memory, and private conversations must not reach Markdown.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const call = z.object({ name: z.string(), args: z.unknown().optional(), ok: z.boolean().optional(), summary: z.string().optional(), pages: z.array(z.string()).optional() });

const turnTrace = z.object({
  /** The `source` of the user message the turn answered (its key in the log). */
  source: z.string(),
  calls: z.array(call),
  related: z.array(z.string()),
  reason: z.string(),
  /** The error's own words, when the turn failed. */
  error: z.string().optional(),
  /** Why it failed, by kind (core/turn/events.ts TurnFailure), with the model's own message when it sent one. */
  failure: z.object({ kind: z.string().max(40), modelMessage: z.string().max(400).optional() }).optional(),
  /** The text streamed before the turn was cut (error or stop). */
  partial: z.string().optional(),
  /** The model stopped at its own length limit: the words the person was told (the reply itself is archived whole). */
  cut: z.string().max(400).optional(),
  /** A Retry or Regenerate of the message before it (same text). */
  retry: z.boolean().optional(),
  /** An edit: the source of the person's last message this one replaces (with its reply). */
  replaces: z.string().optional(),
});

export type TurnTrace = z.infer<typeof turnTrace>;
export type TraceCall = z.infer<typeof call>;

const KEEP = 400;

export class TraceStore {
  constructor(private readonly dir: string) {}

  private file(owner: string): string {
    return join(this.dir, `${createHash('sha256').update(owner).digest('hex').slice(0, 32)}.jsonl`);
  }

  add(owner: string, trace: TurnTrace): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(owner);
    appendFileSync(file, `${JSON.stringify(trace)}\n`, { mode: 0o600 });
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    if (lines.length > KEEP * 2) writeFileSync(file, `${lines.slice(-KEEP).join('\n')}\n`, { mode: 0o600 });
  }

  /** Forgets every kept turn of one person in one place (their private conversation, on `/private wipe`). */
  wipe(owner: string): void {
    rmSync(this.file(owner), { force: true });
  }

  /** The traces of one person in one place, by source (the newest wins). */
  read(owner: string): Map<string, TurnTrace> {
    const out = new Map<string, TurnTrace>();
    const file = this.file(owner);
    if (!existsSync(file)) return out;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const t = turnTrace.safeParse(JSON.parse(line));
        if (t.success) out.set(t.data.source, t.data);
      } catch {
        // a torn last line (crash mid-write) is skipped
      }
    }
    return out;
  }
}

/** The trace of a finished turn, from the events the web app streamed of it. */
export function traceOf(source: string, events: readonly { event: string; data: unknown }[], retry: boolean, replaces?: string): TurnTrace {
  const calls = new Map<string, TraceCall>();
  let streamed = '';
  let related: string[] = [];
  let reason = 'done';
  let error: string | undefined;
  let failure: TurnTrace['failure'];
  let finalText = '';
  let cutWords: string | undefined;
  for (const { event, data } of events) {
    const d = (data ?? {}) as Record<string, unknown>;
    const str = (k: string) => (typeof d[k] === 'string' ? d[k] : undefined);
    if (event === 'tool_call') calls.set(str('callId') ?? String(calls.size), { name: str('name') ?? 'tool', args: d.args });
    else if (event === 'tool_result') {
      const id = str('callId') ?? '';
      const c = calls.get(id) ?? { name: str('name') ?? 'tool' };
      calls.set(id, { ...c, ok: d.ok !== false, summary: str('summary') ?? '', pages: Array.isArray(d.pages) ? d.pages.filter((p): p is string => typeof p === 'string').slice(0, 12) : [] });
    } else if (event === 'text_delta') streamed += str('text') ?? '';
    else if (event === 'notice' && d.cut === true) cutWords = str('text');
    else if (event === 'turn_end') {
      reason = str('reason') ?? reason;
      error = str('error') ?? error;
      const f = turnTrace.shape.failure.safeParse(d.failure);
      if (f.success && f.data) failure = f.data;
      finalText = str('text') ?? '';
    } else if (event === 'outcome') {
      related = Array.isArray(d.related) ? d.related.filter((p): p is string => typeof p === 'string') : [];
      if (d.reason === 'error' && !error) error = typeof d.error === 'string' ? d.error : 'the turn failed';
      if (typeof d.reason === 'string') reason = d.reason;
    }
  }
  const cut = reason === 'error' || reason === 'cancelled';
  return {
    source,
    calls: [...calls.values()],
    related,
    reason,
    ...(error ? { error } : {}),
    ...(failure ? { failure } : {}),
    ...(cut && (streamed || finalText) ? { partial: reason === 'error' ? streamed : finalText || streamed } : {}),
    ...(cutWords ? { cut: cutWords } : {}),
    ...(retry ? { retry: true } : {}),
    ...(replaces ? { replaces } : {}),
  };
}
