/** Download progress for people: a one-line bar on a terminal, a line per 10 % in a log or pipe. */

/** Bytes so far, and the total when the server said it. */
export interface DownloadProgress {
  downloaded: number;
  total: number | null;
}

/** 2.50 GB, 80.1 MB, 170 kB. */
export function gb(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} kB`;
}

/** A one-line progress bar on a terminal; a line per 10 % otherwise. */
export function progressPrinter(label: string, out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): (p: DownloadProgress) => void {
  let lastStep = -1;
  let lastDraw = 0;
  return (p) => {
    const pct = p.total ? Math.min(100, (p.downloaded / p.total) * 100) : null;
    if (out.isTTY) {
      const now = Date.now();
      if (now - lastDraw < 100 && pct !== 100) return;
      lastDraw = now;
      const width = 30;
      const filled = pct === null ? 0 : Math.round((pct / 100) * width);
      out.write(`\r  ${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct === null ? '' : `${pct.toFixed(1)} % `}${gb(p.downloaded)}${p.total ? ` / ${gb(p.total)}` : ''}   `);
      if (pct === 100) out.write('\n');
      return;
    }
    const step = pct === null ? Math.floor(p.downloaded / 100e6) : Math.floor(pct / 10);
    if (step > lastStep) {
      lastStep = step;
      out.write(`  ${label}: ${pct === null ? gb(p.downloaded) : `${Math.floor(pct)} %`}\n`);
    }
  };
}
