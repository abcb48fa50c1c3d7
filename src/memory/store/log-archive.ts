/**
 * The conversation archive of one project: `log/YYYY-MM-DD.md`, append-only, in the format of
 * archive-format.ts. Reads touch only what they need: `readSince` reads the cursor's file from
 * its byte offset, `recent` reads file tails from the newest file backwards.
 */
import { mkdir, open, readdir, readFile, stat } from 'node:fs/promises';
import { openFile, sha256, writeAll, writeFailure, writeFileAtomic, type OpenFile } from '../../files/atomic-write.js';
import type { LogEntry, RaisedEntryLabel } from '../../core/ports/index.js';
import { isSensitive, labelOf } from '../../core/privacy/sensitivity.js';
import { relabelledEntry } from '../../core/writing/sensitivity-verdict.js';
import { LOG_FILE, formatLogEntry, logFileHeading, logFileName, parseLog, type ParsedLogEntry } from '../archive-format.js';
import type { StoredLogCursor } from './log-cursor.js';
import { resolveInside } from '../../files/safe-path.js';

/** An entry as the store gives it (without its position in the file). */
export function plainEntry(e: LogEntry): LogEntry {
  return {
    time: e.time,
    speaker: e.speaker,
    source: e.source,
    text: e.text,
    role: e.role,
    ...(e.sensitivity ? { sensitivity: e.sensitivity } : {}),
    ...(e.kind ? { kind: e.kind } : {}),
    ...(e.unjudged ? { unjudged: true as const } : {}),
  };
}

/** Bytes added to a log file (or taken away, a settled label line) at the entry whose text ends at `from`. */
interface LogShift {
  file: string;
  from: number;
  delta: number;
}

/** `cursor` moved past the bytes added before it (a cursor is a byte offset into its file); null when none were. */
function shiftCursor(cursor: StoredLogCursor, shifts: readonly LogShift[]): StoredLogCursor | null {
  const by = (c: { file: string; offset: number }) => shifts.filter((s) => s.file === c.file && s.from < c.offset).reduce((n, s) => n + s.delta, 0);
  const main = by(cursor);
  const previous = cursor.previous ? by(cursor.previous) : 0;
  if (main === 0 && previous === 0) return null;
  return { ...cursor, offset: cursor.offset + main, ...(cursor.previous ? { previous: { ...cursor.previous, offset: cursor.previous.offset + previous } } : {}) };
}

/** `content` of log file `file` with the raised labels written into their entries (and the reply of a raised message's turn); null when none changes. */
function relabelled(content: string, file: string, raised: readonly RaisedEntryLabel[]): { text: string; shifts: LogShift[] } | null {
  const buf = Buffer.from(content, 'utf8');
  const entries = parseLog(content, file.slice(0, 10));
  const labels = new Map<number, RaisedEntryLabel['label']>();
  entries.forEach((e, i) => {
    const r = raised.find(({ entry: x }) => x.time === e.time && x.role === e.role && x.speaker === e.speaker && x.source === e.source && x.text === e.text);
    if (!r) return;
    labels.set(i, r.label);
    // the reply of that message's turn drew on it (it may have been archived after the lane read the batch); a settled label is the message's alone
    const reply = e.role === 'user' && isSensitive(r.label) ? entries.findIndex((x, j) => j > i && x.role === 'assistant' && x.source === e.source) : -1;
    if (reply > i && !labels.has(reply)) labels.set(reply, r.label);
  });
  const parts: Buffer[] = [];
  const shifts: LogShift[] = [];
  let at = 0;
  for (const [i, e] of entries.entries()) {
    const label = labels.get(i);
    // raised where it is not sensitive yet; a provisional label (unjudged) is settled either way
    if (!label || (!e.unjudged && isSensitive(labelOf(e)))) continue;
    const old = buf.subarray(e.start, e.end).toString('utf8');
    const block = Buffer.from(formatLogEntry(relabelledEntry(e, label)).slice(1).trimEnd() + old.slice(old.trimEnd().length), 'utf8');
    parts.push(buf.subarray(at, e.start), block);
    // where the entry's text ends: a cursor after it (however many blank lines follow) moves
    shifts.push({ file, from: e.start + Buffer.byteLength(old.trimEnd(), 'utf8'), delta: block.length - (e.end - e.start) });
    at = e.end;
  }
  if (shifts.length === 0) return null;
  parts.push(buf.subarray(at));
  return { text: Buffer.concat(parts).toString('utf8'), shifts };
}

/** Observes bytes read from log files (diagnostics; tests use it to prove tails are read). */
export type ReadObserver = (path: string, position: number, bytes: number) => void;

const TAIL_CHUNK = 64 * 1024;

export class LogArchive {
  constructor(
    private readonly logDir: string,
    private readonly onRead: ReadObserver = () => {},
    private readonly openFn: OpenFile = openFile,
  ) {}

  private path(file: string): string {
    return resolveInside(this.logDir, file);
  }

  /**
   * Appends one entry to the file of its UTC date, creating the file with its heading. A write
   * that fails or stops short (a full disk) is cut back off and thrown: an entry is in the
   * archive whole, or not at all, and the caller knows which.
   */
  async append(entry: LogEntry): Promise<string> {
    const file = logFileName(new Date(entry.time));
    const path = this.path(file);
    try {
      await mkdir(this.logDir, { recursive: true });
      const fh = await this.openFn(path, 'a');
      try {
        const { size } = await fh.stat();
        const text = (size === 0 ? logFileHeading(file) : '') + formatLogEntry(entry);
        try {
          await writeAll(fh, Buffer.from(text, 'utf8'), null);
          await fh.datasync();
        } catch (err) {
          await fh.truncate(size).catch(() => {});
          throw err;
        }
      } finally {
        await fh.close();
      }
    } catch (err) {
      throw writeFailure(path, err, 'This message is not in the archive.');
    }
    return file;
  }

  /**
   * Writes a stricter label into entries already archived (the memory lane's verdict): each file
   * holding one is rewritten atomically (refused when it changed meanwhile), the entry with its
   * label line, everything else byte for byte. An entry already labelled sensitive is left as it is.
   * `cursor`: the distil cursor, moved with `moveCursor` when bytes were added before it.
   */
  async raiseLabels(raised: readonly RaisedEntryLabel[], cursor: StoredLogCursor | null, moveCursor: (cursor: StoredLogCursor) => Promise<unknown>): Promise<number> {
    const shifts: LogShift[] = [];
    for (const file of new Set(raised.map((r) => logFileName(new Date(r.entry.time))))) {
      const path = this.path(file);
      // a file changed by someone else meanwhile (a hand edit, a sync) is read again: the message is distilled, this is its one chance
      for (let attempt = 0; attempt < 3; attempt++) {
        const content = await readFile(path, 'utf8').catch(() => null);
        const next = content === null ? null : relabelled(content, file, raised);
        if (!next) break;
        if ((await writeFileAtomic(path, next.text, sha256(content!), this.openFn)).ok) {
          shifts.push(...next.shifts);
          break;
        }
      }
    }
    // the distil cursor (a byte offset) moves past the label lines written before it
    const moved = cursor ? shiftCursor(cursor, shifts) : null;
    if (moved) await moveCursor(moved);
    return shifts.length;
  }

  /** Log file names, oldest first. */
  async files(): Promise<string[]> {
    try {
      return (await readdir(this.logDir)).filter((f) => LOG_FILE.test(f)).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  private async readRange(file: string, position: number, length?: number): Promise<Buffer> {
    const path = this.path(file);
    const fh = await open(path, 'r');
    try {
      const size = (await fh.stat()).size;
      const len = Math.max(0, Math.min(length ?? size - position, size - position));
      const buf = Buffer.alloc(len);
      let done = 0;
      while (done < len) {
        const { bytesRead } = await fh.read(buf, done, len - done, position + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      this.onRead(path, position, done);
      return buf.subarray(0, done);
    } finally {
      await fh.close();
    }
  }

  private async size(file: string): Promise<number> {
    return (await stat(this.path(file))).size;
  }

  /** Entries after `cursor` and the cursor just after the last one (or the given cursor when none). */
  async readSince(cursor: StoredLogCursor | null): Promise<{ entries: ParsedLogEntry[]; cursor: StoredLogCursor | null; after: StoredLogCursor[] }> {
    const files = await this.files();
    const entries: (ParsedLogEntry & { file: string })[] = [];
    // A loop, not push(...list): a day of ~120,000 entries overflowed the stack as arguments.
    const take = (file: string, list: ParsedLogEntry[]) => {
      for (const e of list) entries.push({ ...e, file });
    };
    let later = files;
    if (cursor && LOG_FILE.test(cursor.file)) {
      // An entry created before midnight but archived after the cursor moved on lands in the
      // day before, after where that file was read.
      const prev = cursor.previous;
      if (prev && LOG_FILE.test(prev.file) && prev.file < cursor.file && files.includes(prev.file) && (await this.size(prev.file)) > prev.offset) {
        take(prev.file, await this.readFileSince(prev));
      }
      // The day before may also have no file yet when the cursor moved on (a message written at
      // 23:59:59 archived after one of 00:00:01): such a file, created after the cursor, is read whole.
      const dayBefore = logFileName(new Date(Date.parse(`${cursor.file.slice(0, 10)}T00:00:00Z`) - 1));
      if (dayBefore !== prev?.file && (!prev || dayBefore > prev.file) && files.includes(dayBefore)) {
        take(dayBefore, parseLog((await this.readRange(dayBefore, 0)).toString('utf8'), dayBefore.slice(0, 10)));
      }
      later = files.filter((f) => f > cursor.file);
      if (files.includes(cursor.file)) take(cursor.file, await this.readFileSince(cursor));
    }
    for (const file of later) take(file, parseLog((await this.readRange(file, 0)).toString('utf8'), file.slice(0, 10)));
    if (entries.length === 0) return { entries: [], cursor, after: [] };
    // Sizes of the files a cursor may need as its `previous` when that file was never tracked.
    const mains = new Set(entries.map((e) => e.file));
    if (cursor) mains.add(cursor.file);
    const dayBefore = new Map<string, string | undefined>();
    const sizes = new Map<string, number>();
    for (const f of mains) {
      const before = files.filter((x) => x < f).pop();
      dayBefore.set(f, before);
      if (before && !sizes.has(before)) sizes.set(before, await this.size(before));
    }
    // How far each file has been read, then one cursor after each entry. The cursor never moves
    // back into the day before: late entries read there only move `previous`.
    const ends = new Map<string, number>();
    const reach = (file: string, end: number) => ends.set(file, Math.max(ends.get(file) ?? -1, end));
    if (cursor) reach(cursor.file, cursor.offset);
    if (cursor?.previous) reach(cursor.previous.file, cursor.previous.offset);
    let main: StoredLogCursor | null = cursor ? { file: cursor.file, offset: cursor.offset, ...(cursor.time ? { time: cursor.time } : {}) } : null;
    const after: StoredLogCursor[] = [];
    for (const e of entries) {
      reach(e.file, e.end);
      if (!cursor || e.file >= cursor.file) main = { file: e.file, offset: e.end, time: e.time };
      const at: StoredLogCursor = { ...(main ?? { file: e.file, offset: e.end, time: e.time }) };
      const before = dayBefore.get(at.file);
      if (before) at.previous = { file: before, offset: ends.get(before) ?? sizes.get(before) ?? 0 };
      after.push(at);
    }
    return { entries: entries.map(({ file: _file, ...e }) => e), cursor: after[after.length - 1] ?? cursor, after };
  }

  /** The cursor's own file from its offset; falls back to the whole file when it was edited. */
  private async readFileSince(cursor: StoredLogCursor): Promise<ParsedLogEntry[]> {
    const date = cursor.file.slice(0, 10);
    if ((await this.size(cursor.file)) >= cursor.offset) {
      const tail = (await this.readRange(cursor.file, cursor.offset)).toString('utf8');
      // The offset must sit at an entry boundary: only blank lines before the next header.
      if (/^\s*(?:### |$)/.test(tail)) return parseLog(tail, date, cursor.offset);
    }
    const all = parseLog((await this.readRange(cursor.file, 0)).toString('utf8'), date);
    return cursor.time ? all.filter((e) => e.time > cursor.time!) : all;
  }

  /** The entries archived on `days` (YYYY-MM-DD): only those days' files are read. */
  async on(days: readonly string[]): Promise<ParsedLogEntry[]> {
    const files = new Set(await this.files());
    const out: ParsedLogEntry[] = [];
    for (const day of new Set(days)) {
      const file = logFileName(new Date(`${day.slice(0, 10)}T12:00:00Z`));
      if (files.has(file)) for (const e of parseLog((await this.readRange(file, 0)).toString('utf8'), file.slice(0, 10))) out.push(e);
    }
    return out;
  }

  /** The last `limit` entries, oldest first, reading tails of the newest files only. */
  async recent(limit: number): Promise<ParsedLogEntry[]> {
    if (limit <= 0) return [];
    const files = await this.files();
    let out: ParsedLogEntry[] = [];
    for (let i = files.length - 1; i >= 0 && out.length < limit; i--) {
      const found = await this.tailEntries(files[i]!, limit - out.length);
      out = [...found, ...out];
    }
    return out.slice(-limit);
  }

  private async tailEntries(file: string, want: number): Promise<ParsedLogEntry[]> {
    const size = await this.size(file);
    const date = file.slice(0, 10);
    for (let chunk = TAIL_CHUNK; ; chunk *= 4) {
      const position = Math.max(0, size - chunk);
      let buf = await this.readRange(file, position, size - position);
      let base = position;
      if (position > 0) {
        // Start at a whole line: skip the (maybe partial, maybe mid-character) first line.
        const nl = buf.indexOf(10);
        if (nl < 0) continue;
        buf = buf.subarray(nl + 1);
        base += nl + 1;
      }
      const entries = parseLog(buf.toString('utf8'), date, base);
      // The first entry found may have started before this chunk only if it has no header in it,
      // and parseLog ignores text before the first header, so every entry returned is whole.
      if (entries.length >= want || position === 0) return entries.slice(-want);
    }
  }
}
