/**
 * Loads LoCoMo conversations into Charlie's memory the way the benchmark and the tuning
 * script both need: one project per conversation, every turn appended to its archive
 * (`log/`) at its session's date with `locomo:<dia_id>` as source, then indexed.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { LogEntry } from '../src/core/ports/index.js';
import { LOG_FILE, parseLog } from '../src/memory/archive-format.js';
import type { FileProjectStore } from '../src/memory/store/project-store.js';
import { parseLocomoDate } from './locomo-util.js';

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
export interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; category: number; evidence?: unknown[] }[];
}

const listArg = (v: string | undefined) =>
  new Set(
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** The samples of a LoCoMo file, limited by `--only` / `--exclude` lists of sample ids (comma-separated). */
export function loadSamples(path: string, only?: string, exclude?: string): Sample[] {
  const keep = listArg(only);
  const drop = listArg(exclude);
  return (JSON.parse(readFileSync(resolve(path), 'utf8')) as Sample[]).filter((s) => (keep.size === 0 || keep.has(s.sample_id)) && !drop.has(s.sample_id));
}

function sessionsOf(conv: Record<string, unknown>): { num: number; date: string; turns: Turn[] }[] {
  return Object.keys(conv)
    .filter((key) => /^session_\d+$/.test(key))
    .map((key) => ({ num: Number(key.slice(8)), date: (conv[`${key}_date_time`] as string | undefined) ?? '', turns: conv[key] as Turn[] }))
    .sort((a, b) => a.num - b.num);
}

/** Every turn of a sample, session by session, in order (the units both engines rank). */
export function turnsOf(sample: Sample): Turn[] {
  return sessionsOf(sample.conversation).flatMap((s) => s.turns);
}

/** (page, header line) → dia_id, read back from the archive Charlie wrote. */
async function diaIdsByLine(projectDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const logDir = join(projectDir, 'log');
  for (const file of (await readdir(logDir)).filter((f) => LOG_FILE.test(f))) {
    const content = await readFile(join(logDir, file), 'utf8');
    for (const e of parseLog(content, file.slice(0, 10))) {
      const m = /^locomo:(.+)$/.exec(e.source);
      if (m) out.set(`log/${file}#${e.line}`, m[1]!);
    }
  }
  return out;
}

export interface LoadedConversation {
  project: string;
  /** Every dia_id of the conversation (evidence is checked against them). */
  validIds: Set<string>;
  /** `page#line` of an archive entry → its dia_id. */
  lines: Map<string, string>;
  turns: number;
  /** Time spent writing the archive and indexing it, ms. */
  ingestMs: number;
  indexMs: number;
}

/** Writes one conversation into a project's archive and indexes it with `sync`. */
export async function loadConversation(store: FileProjectStore, projectsDir: string, sync: (project: string) => Promise<unknown>, sample: Sample): Promise<LoadedConversation> {
  const { slug: project } = await store.ensureProject({ name: sample.sample_id, key: `locomo:${sample.sample_id}` });
  const validIds = new Set<string>();
  let turns = 0;
  let t0 = performance.now();
  let previous = 0;
  for (const session of sessionsOf(sample.conversation)) {
    // sessions without a readable date continue one hour after the previous one
    let start = parseLocomoDate(session.date)?.getTime() ?? previous + 3_600_000;
    if (start <= previous) start = previous + 60_000;
    for (const turn of session.turns) validIds.add(turn.dia_id);
    for (const [i, turn] of session.turns.entries()) {
      const image = turn.blip_caption ? ` [shared an image: ${turn.blip_caption}]` : '';
      // BEAM's chats (beam-to-locomo.mjs) name the assistant "Assistant": its turns are replies, as Charlie's own are in its archive; LoCoMo's speakers are two people
      const role = turn.speaker === 'Assistant' ? 'assistant' : 'user';
      const entry: LogEntry = { time: new Date(start + i * 10_000).toISOString(), speaker: turn.speaker, source: `locomo:${turn.dia_id}`, text: `${turn.text}${image}`, role };
      await store.appendLog(project, entry);
      turns++;
    }
    previous = start + session.turns.length * 10_000;
  }
  // a conversation of months ago was not written a moment ago: each archive day's page gets that day's
  // time, as it would have in use (a page written within the last two seconds is re-read by every search)
  const logDir = join(projectsDir, project, 'log');
  for (const file of (await readdir(logDir)).filter((f) => LOG_FILE.test(f))) {
    const day = Date.parse(`${file.slice(0, 10)}T23:59:59Z`);
    if (!Number.isNaN(day) && day < Date.now()) await utimes(join(logDir, file), new Date(day), new Date(day));
  }
  const ingestMs = performance.now() - t0;
  t0 = performance.now();
  await sync(project);
  const indexMs = performance.now() - t0;
  return { project, validIds, lines: await diaIdsByLine(join(projectsDir, project)), turns, ingestMs, indexMs };
}
