/**
 * The conversation archive format (`log/YYYY-MM-DD.md`), pure functions only.
 *
 *     # 2026-11-29
 *
 *     ### 18:20:11 · Alice · [↗](https://discord.com/channels/1/2/3)
 *
 *     The message text, any Markdown, as many lines as it has.
 *
 *     ### 18:20:15 · Charlie (reply) · [↗](terminal:1764440415000)
 *
 *     The reply.
 *
 *     ### 18:21:02 · Alice · [↗](terminal:1764440462000)
 *
 *     I take sumatriptan for my migraines.
 *     [sensitivity:: sensitive/phi]
 *
 * An entry's label (src/core/sensitivity.ts `labelText`, set when it is written) is its last
 * line when it is sensitive: `[sensitivity:: sensitive/phi]`, read back into `sensitivity` and
 * `kind` and not into the text. An entry without one is personal (or what the rules say of it).
 *
 * Times are UTC. A line of message text that would read as an entry header is written
 * with one extra leading backslash and read back without it, so any text round-trips; a
 * speaker whose name ends in "(reply)" likewise gets a backslash before the "(", so only the
 * assistant's own entries end in " (reply)".
 */
import type { LogEntry } from '../core/ports/index.js';
import { formatSensitivity, isUnjudgedLabel, labelOf, parseSensitivity, UNJUDGED_LABEL } from '../core/privacy/sensitivity.js';
import { fieldValues, isFieldOnlyLine } from '../core/records/line-syntax.js';

const HEADER_START = /^### (\d\d:\d\d:\d\d) · /;
const LINK = ' · [↗](';
const ESCAPED_HEADER = /^(\\*)### \d\d:\d\d:\d\d · /;

/** The label of an entry whose last line is one (`[sensitivity:: …]` alone on it), else null. */
function labelLine(line: string): string | null {
  return isFieldOnlyLine(line, 'sensitivity') ? (fieldValues(line, 'sensitivity')[0] ?? '') : null;
}

export const LOG_FILE = /^(\d{4}-\d{2}-\d{2})\.md$/;

export function logFileName(time: Date): string {
  return `${time.toISOString().slice(0, 10)}.md`;
}

export function logFileHeading(file: string): string {
  return `# ${file.replace(/\.md$/, '')}\n`;
}

function escapeLine(line: string): string {
  return ESCAPED_HEADER.test(line) ? `\\${line}` : line;
}

function unescapeLine(line: string): string {
  const m = ESCAPED_HEADER.exec(line);
  return m && m[1]!.length > 0 ? line.slice(1) : line;
}

function cleanSpeaker(speaker: string): string {
  return (
    speaker
      .replace(/[\r\n]+/g, ' ')
      .replace(/ · /g, ' - ')
      .trim() || 'someone'
  );
}

const MARK = '(reply)';

/** A trailing "(reply)" after a space (or alone), with the run of backslashes before it. */
function trailingMark(speaker: string): { at: number; slashes: number } | null {
  if (!speaker.endsWith(MARK)) return null;
  let at = speaker.length - MARK.length;
  let slashes = 0;
  while (at > 0 && speaker[at - 1] === '\\') {
    at--;
    slashes++;
  }
  return at === 0 || speaker[at - 1] === ' ' ? { at, slashes } : null;
}

/**
 * " (reply)" after the speaker marks the assistant's entries, so a name that itself ends in
 * "(reply)" (a Discord nickname can) is written with one more backslash before the "(" and read
 * back without it: no display name can make a person's words read as the assistant's. Recall's
 * chunk headings write the speaker the same way (chunker.ts), so recall tells the two apart alike.
 */
export function escapeSpeaker(speaker: string): string {
  const m = trailingMark(speaker);
  return m ? `${speaker.slice(0, m.at)}\\${speaker.slice(m.at)}` : speaker;
}

function unescapeSpeaker(speaker: string): string {
  const m = trailingMark(speaker);
  return m && m.slashes > 0 ? speaker.slice(0, m.at) + speaker.slice(m.at + 1) : speaker;
}

/** One entry as Markdown, starting with a blank line so entries can simply be appended. */
export function formatLogEntry(entry: LogEntry): string {
  const time = new Date(entry.time);
  const hhmmss = time.toISOString().slice(11, 19);
  const reply = entry.role === 'assistant' ? ' (reply)' : '';
  const source = entry.source.replace(/[\s<>]/g, '');
  const body = entry.text.replace(/\r\n?/g, '\n').split('\n').map(escapeLine).join('\n').trimEnd();
  // labelled as written: what the writer said, and the rules (so no writer can store a sensitive message unlabelled)
  const l = labelOf(entry);
  // provisional (the lane could not judge it in time): spelled so that every reader but the one that settles it reads sensitive
  const spelled = entry.unjudged && !l.kind ? UNJUDGED_LABEL : formatSensitivity(l);
  const label = l.sensitivity === 'sensitive' ? `\n[sensitivity:: ${spelled}]` : '';
  return `\n### ${hhmmss} · ${escapeSpeaker(cleanSpeaker(entry.speaker))}${reply} · [↗](<${source}>)\n\n${body}${label}\n`;
}

interface Header {
  time: string;
  speaker: string;
  role: LogEntry['role'];
  source: string;
}

/**
 * Reads an entry header without a backtracking regular expression (a hand-made header line of
 * spaces made the former one quadratic). A speaker never contains " · " (see cleanSpeaker).
 */
function parseHeader(line: string): Header | null {
  const start = HEADER_START.exec(line);
  if (!start) return null;
  const rest = line.slice(start[0].length).trimEnd();
  const link = rest.indexOf(LINK);
  if (link < 0 || !rest.endsWith(')')) return null;
  let source = rest.slice(link + LINK.length, -1);
  if (source.startsWith('<')) source = source.slice(1);
  if (source.endsWith('>')) source = source.slice(0, -1);
  let speaker = rest.slice(0, link);
  const reply = speaker.endsWith(' (reply)');
  if (reply) speaker = speaker.slice(0, -' (reply)'.length);
  return { time: start[1] ?? '00:00:00', speaker: unescapeSpeaker(speaker), role: reply ? 'assistant' : 'user', source };
}

/** The time (HH:MM:SS) of an entry header line, or null when the line is not one (sync's day-file merge). */
export function entryHeaderTime(line: string): string | null {
  return parseHeader(line)?.time ?? null;
}

export interface ParsedLogEntry extends LogEntry {
  /** 1-based line of the entry header. */
  line: number;
  /** Last line of the entry's text. */
  endLine: number;
  /** Byte offsets of the entry within the file: [start, end). */
  start: number;
  end: number;
}

/**
 * Parses a log file (or its tail starting at byte `baseOffset`, at an entry boundary).
 * `date` is the file's date (YYYY-MM-DD); `firstLine` the line number of the first line given.
 */
export function parseLog(content: string, date: string, baseOffset = 0, firstLine = 1): ParsedLogEntry[] {
  const entries: ParsedLogEntry[] = [];
  const lines = content.split('\n');
  let offset = baseOffset;
  let current: (ParsedLogEntry & { lines: string[] }) | null = null;
  const close = () => {
    if (!current) return;
    const { lines: body, ...rest } = current;
    let first = 0;
    let last = body.length;
    while (last > first && body[last - 1]?.trim() === '') last--;
    while (first < last && body[first]?.trim() === '') first++;
    const label = last > first ? labelLine(body[last - 1] ?? '') : null;
    const value = label !== null ? (parseSensitivity(label) ?? { sensitivity: 'sensitive' as const }) : null;
    if (label !== null) last--;
    while (last > first && body[last - 1]?.trim() === '') last--;
    entries.push({
      ...rest,
      text: body.slice(first, last).map(unescapeLine).join('\n'),
      ...(value ? { sensitivity: value.sensitivity, ...(value.kind ? { kind: value.kind } : {}) } : {}),
      ...(label !== null && isUnjudgedLabel(label) ? { unjudged: true as const } : {}),
    });
    current = null;
  };
  lines.forEach((line, i) => {
    const lineBytes = Buffer.byteLength(line, 'utf8') + (i < lines.length - 1 ? 1 : 0);
    const h = parseHeader(line);
    if (h) {
      close();
      current = {
        time: `${date}T${h.time}.000Z`,
        speaker: h.speaker,
        role: h.role,
        source: h.source,
        text: '',
        line: firstLine + i,
        endLine: firstLine + i,
        start: offset,
        end: offset + lineBytes,
        lines: [],
      };
    } else if (current) {
      current.lines.push(line);
      if (line.trim() !== '') current.endLine = firstLine + i;
      current.end = offset + lineBytes;
    }
    offset += lineBytes;
  });
  close();
  return entries;
}
