/**
 * What the hand-edit check needs from `notes/_log.md` (the hand edits it already holds and the
 * page renames), kept up to date by reading only what was appended since the last look: the log
 * is append-only and grows with every change, so reading and parsing it whole on every burst of
 * hand edits cost more the longer Charlie had run. If the file shrank or the bytes just before
 * the last read position changed (a person rewrote it), it is read whole again.
 */
import { open } from 'node:fs/promises';
import { parseRecordEvents, renameChains, renameLinks } from '../records/history.js';
import { loggedEdits } from '../records/provenance.js';

/** Bytes before the read position compared on each look, to notice a rewritten log. */
const CHECK = 64;

export class LogState {
  private offset = 0;
  private check = Buffer.alloc(0);
  private edited = new Set<string>();
  private direct = new Map<string, string>();

  constructor(private readonly file: string) {}

  /** The hand edits the log holds (as unloggedEdits matches them) and the renames (new path → older paths). */
  async read(): Promise<{ logged: ReadonlySet<string>; renamed: Map<string, string[]> }> {
    const handle = await open(this.file, 'r').catch(() => null);
    if (!handle) {
      this.reset();
      return { logged: this.edited, renamed: new Map() };
    }
    try {
      const { size } = await handle.stat();
      if (size < this.offset || !(await this.unchangedBefore(handle))) this.reset();
      if (size > this.offset) {
        const bytes = Buffer.alloc(size - this.offset);
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, this.offset);
        // only whole lines: a line being appended is read at the next look
        const end = bytes.subarray(0, bytesRead).lastIndexOf(0x0a) + 1;
        if (end > 0) {
          const text = bytes.subarray(0, end).toString('utf8');
          loggedEdits(parseRecordEvents(text), this.edited);
          renameLinks(text, this.direct);
          this.offset += end;
          const from = Math.max(0, end - CHECK);
          this.check = Buffer.concat([this.check, bytes.subarray(from, end)]).subarray(-CHECK);
        }
      }
    } finally {
      await handle.close();
    }
    return { logged: this.edited, renamed: renameChains(this.direct) };
  }

  private async unchangedBefore(handle: Awaited<ReturnType<typeof open>>): Promise<boolean> {
    if (this.offset === 0) return true;
    const bytes = Buffer.alloc(this.check.length);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, this.offset - this.check.length);
    return bytesRead === bytes.length && bytes.equals(this.check);
  }

  private reset(): void {
    this.offset = 0;
    this.check = Buffer.alloc(0);
    this.edited = new Set();
    this.direct = new Map();
  }
}
