/**
 * Where a project's big inbox files stand while they stream (`/memory ingest` without a file in
 * Discord and the terminal, and the web app's Inspector): the file, rows or items done of the total,
 * bytes done of the total, batches, and the rate and time left measured since this run began.
 */

/** The kinds of file the inbox reads, by extension (src/memory/ingest/parsers.ts has a reader for each; a test keeps them one list). */
export const READABLE_FILES = ['.md', '.markdown', '.txt', '.ics', '.eml', '.csv', '.pdf'] as const;

export interface IngestProgress {
  /** `inbox/<name>`. */
  source: string;
  /** `rows`: a CSV read a batch of rows at a time; `summary`: a bank export's monthly items. */
  mode: 'rows' | 'summary';
  /** Rows read (`rows`) or monthly items sent (`summary`). */
  done: number;
  /** The number of monthly items (`summary`); unknown for rows until the file ends. */
  total?: number;
  bytesDone: number;
  bytesTotal: number;
  /** Batches sent to the memory model so far (each one checkpointed). */
  batches: number;
  /** When the last batch was checkpointed (ISO). */
  updated?: string;
  /** Rows or items per second since this run of Charlie began on the file (absent: not measured yet). */
  rate?: number;
  /** Seconds left at that rate (absent: not measured yet). */
  etaSeconds?: number;
}

/** The port the front doors read progress through (the ingest service, built in main.ts). */
export interface IngestStatus {
  status(project: string): Promise<IngestProgress[]>;
}

const MB = 1_000_000;

function duration(seconds: number): string {
  if (seconds < 90) return `${String(Math.max(1, Math.round(seconds)))} s`;
  if (seconds < 5400) return `${String(Math.round(seconds / 60))} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** One line per file: "inbox/big.csv — 120,000 rows · 12.3 of 48.0 MB (26%) · 4,000 batches · 850 rows/s · about 3 min left". */
export function ingestProgressLine(p: IngestProgress): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const unit = p.mode === 'summary' ? 'items' : 'rows';
  const done = p.total !== undefined ? `${n(p.done)} of ${n(p.total)} ${unit}` : `${n(p.done)} ${unit}`;
  const pct = p.mode === 'summary' && p.total ? p.done / p.total : p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0;
  const bytes = p.mode === 'rows' ? ` · ${(p.bytesDone / MB).toFixed(1)} of ${(p.bytesTotal / MB).toFixed(1)} MB` : '';
  const rate = p.rate !== undefined ? ` · ${n(Math.round(p.rate))} ${unit}/s` : '';
  const eta = p.etaSeconds !== undefined ? ` · about ${duration(p.etaSeconds)} left` : '';
  return `${p.source} — ${done}${bytes} (${String(Math.floor(pct * 100))}%) · ${n(p.batches)} batch${p.batches === 1 ? '' : 'es'}${rate}${eta}`;
}

/** The status reply: every file part-way, or that none is. */
export function ingestStatusText(progress: readonly IngestProgress[]): string {
  if (!progress.length) return 'No inbox file is being read right now.';
  return [`Reading ${String(progress.length)} inbox file${progress.length === 1 ? '' : 's'}:`, ...progress.map((p) => `• ${ingestProgressLine(p)}`)].join('\n');
}
