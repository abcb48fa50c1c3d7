/**
 * The first interactive `npm start` with no model server and no embedded model offers to
 * download the embedded model — once (a marker file remembers that it asked), with its size,
 * and the default answer is no.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import { gb, progressPrinter, type DownloadProgress } from './progress.js';
import { errorMessage } from '../util/error-text.js';

export interface ModelOfferOptions {
  /** The embedded model's file (what `npm run models -- pull` would fetch). */
  file: { ref: string; path: string; downloadable: boolean };
  /** Exists once the offer was made: it is never repeated. */
  markerPath: string;
  input: Readable;
  output: Writable & { isTTY?: boolean };
  size(): Promise<number | null>;
  download(onProgress: (p: DownloadProgress) => void): Promise<{ path: string; bytes: number }>;
}

/** Whether the model was downloaded (and can be used now). */
export async function offerModelDownload(o: ModelOfferOptions): Promise<boolean> {
  if (!o.file.downloadable || existsSync(o.markerPath)) return false;
  mkdirSync(dirname(o.markerPath), { recursive: true });
  writeFileSync(o.markerPath, `offered ${o.file.ref} on ${new Date().toISOString()}\n`);
  const size = await o.size();
  const rl = createInterface({ input: o.input, output: o.output, terminal: false });
  let answer: string;
  try {
    answer = await rl.question(
      `No model server answers and the embedded model is not downloaded.\n` +
        `Download ${o.file.ref} (${size ? gb(size) : 'size unknown'}) into ${dirname(o.file.path)} now, so Charlie answers without a server? [y/N] `,
    );
  } catch {
    answer = '';
  } finally {
    rl.close();
  }
  if (!/^y(es)?$/i.test(answer.trim())) {
    o.output.write('Not downloading. `npm run models -- pull` fetches it later; this question is not asked again.\n');
    return false;
  }
  try {
    const result = await o.download(progressPrinter('embedded model', o.output));
    o.output.write(`✓ ${gb(result.bytes)} at ${result.path}\n`);
    return true;
  } catch (err) {
    o.output.write(`! download failed: ${errorMessage(err)}\n`);
    return false;
  }
}
