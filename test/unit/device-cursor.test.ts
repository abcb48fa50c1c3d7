/** The per-device distillation cursor's own rules, over a scripted archive and list (the two-device run is test/integration/sync-distill-cursor.test.ts). */
import { describe, expect, it } from 'vitest';
import type { LogCursor, LogEntry, LogTail } from '../../src/core/ports/index.js';
import { DeviceCursor, type DistillLedger } from '../../src/core/writing/device-cursor.js';

const e = (time: string, text: string): LogEntry => ({ time, speaker: 'Ann', role: 'user', source: 'terminal:1', text });
const archive = [e('2026-06-18T09:00:00Z', 'old, distilled'), e('2026-06-20T08:00:00Z', 'a'), e('2026-06-20T08:01:00Z', 'b'), e('2026-06-20T08:01:00Z', 'b again, same second')];

function scripted(list: string[] | null, distillCursor: LogCursor | null) {
  const reads: (LogCursor | null)[] = [];
  const ledger: DistillLedger & { list: string[] | null } = {
    list,
    key: (x) => `${x.time.slice(0, 19)}|${x.role}|${x.speaker}|${x.source}`,
    read: () => Promise.resolve(ledger.list),
    write: (_p, keys) => Promise.resolve(void (ledger.list = [...keys])),
  };
  const store = {
    getDistillCursor: () => Promise.resolve(distillCursor),
    readLogSince: (_p: string, c: LogCursor | null): Promise<LogTail> => {
      reads.push(c);
      // the project's own cursor stands after the first entry; a day file from its start holds that day's entries
      const entries = c === distillCursor ? archive.slice(1) : archive.filter((x) => `${x.time.slice(0, 10)}.md` >= (c?.file ?? ''));
      return Promise.resolve({ entries, cursor: null, after: [] });
    },
  };
  return { ledger, reads, cursor: new DeviceCursor(ledger, store) };
}

describe('the per-device distillation cursor', () => {
  it("on first use it takes over what the project's own cursor had not distilled, and two entries of one second are two", async () => {
    const own = { file: '2026-06-18.md', offset: 120 };
    const { cursor, ledger } = scripted(null, own);
    const { entries, commit } = await cursor.pending('home');
    expect(entries.map((x) => x.text)).toEqual(['a', 'b', 'b again, same second']);
    await commit(2);
    expect(ledger.list).toEqual(['2026-06-20T08:01:00|user|Ann|terminal:1']);
    expect((await cursor.pending('home')).entries.map((x) => x.text)).toEqual(['b']);
  });

  it('reads from the day of its oldest entry; a key no entry answers is dropped only when two days older than the newest entry', async () => {
    const { cursor, ledger, reads } = scripted(['2026-06-17T10:00:00|user|Ann|terminal:1', '2026-06-20T08:00:00|user|Ann|terminal:1', '2026-06-20T23:59:59|user|Ann|terminal:1'], null);
    const { entries } = await cursor.pending('home');
    expect(reads.at(-1)).toEqual({ file: '2026-06-17.md', offset: 0 });
    expect(entries.map((x) => x.text)).toEqual(['a']);
    // the 17th's key is gone (its append failed); the one of today may be being appended now, and stays
    expect(ledger.list).toEqual(['2026-06-20T08:00:00|user|Ann|terminal:1', '2026-06-20T23:59:59|user|Ann|terminal:1']);
  });

  it('an entry archived while a distillation runs stays on the list when that distillation commits', async () => {
    const { cursor, ledger } = scripted([], null);
    await cursor.archived('home', archive[1]!);
    const { commit } = await cursor.pending('home');
    await cursor.archived('home', archive[2]!);
    await commit(1);
    expect(ledger.list).toEqual(['2026-06-20T08:01:00|user|Ann|terminal:1']);
  });
});
