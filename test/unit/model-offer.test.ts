import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { DownloadProgress } from '../../src/terminal/progress.js';
import { offerModelDownload } from '../../src/terminal/model-offer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(answer: string | null, downloadable = true) {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-offer-'));
  dirs.push(dir);
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (b: Buffer) => {
    shown += b.toString();
    // Answer once the question is on screen, as a person would.
    if (answer !== null && shown.includes('[y/N]')) {
      input.write(`${answer}\n`);
      answer = null;
    }
  });
  const downloads: string[] = [];
  const file = { ref: 'hf:o/r/model.gguf', path: join(dir, 'models', 'hf_o_model.gguf'), downloadable, url: 'http://example.invalid/model.gguf' };
  const options = {
    file,
    markerPath: join(dir, 'models', '.embedded-offer-asked'),
    input,
    output,
    size: async () => 2_497_280_256,
    download: async (onProgress: (p: DownloadProgress) => void) => {
      downloads.push(file.ref);
      onProgress({ downloaded: 100, total: 100 });
      return { path: file.path, bytes: 100 };
    },
  };
  return { options, downloads, screen: () => shown };
}

describe('the download offer on first start', () => {
  it('shows the size, downloads on yes, and never asks again', async () => {
    const t = setup('y');
    expect(await offerModelDownload(t.options)).toBe(true);
    expect(t.screen()).toContain('(2.50 GB)');
    expect(t.downloads).toEqual(['hf:o/r/model.gguf']);
    expect(existsSync(t.options.markerPath)).toBe(true);
    const again = setup('y');
    expect(await offerModelDownload({ ...again.options, markerPath: t.options.markerPath })).toBe(false);
    expect(again.screen()).toBe('');
    expect(again.downloads).toEqual([]);
  });

  it('defaults to no: an empty answer downloads nothing and says how to fetch it later', async () => {
    const t = setup('');
    expect(await offerModelDownload(t.options)).toBe(false);
    expect(t.downloads).toEqual([]);
    expect(t.screen()).toContain('npm run models -- pull');
    expect(existsSync(t.options.markerPath)).toBe(true);
  });

  it('is not offered for EMBEDDED_MODEL_PATH', async () => {
    const t = setup('y', false);
    expect(await offerModelDownload(t.options)).toBe(false);
    expect(t.downloads).toEqual([]);
  });
});
