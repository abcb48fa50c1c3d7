/**
 * Where the embedded model's file lives, decided without the network and without importing
 * node-llama-cpp (so startup stays quick): EMBEDDED_MODEL_PATH when set, else a file in
 * DATA_DIR/models whose name follows from EMBEDDED_MODEL. `npm run models -- pull` downloads
 * to exactly that name.
 */
import { basename, join, resolve } from 'node:path';

export interface EmbeddedModelSettings {
  EMBEDDED_MODEL: string;
  EMBEDDED_MODEL_PATH?: string | undefined;
  dataDir: string;
}

export interface EmbeddedModelFile {
  /** The reference it comes from (hf:… or a URL), or the configured path. */
  ref: string;
  path: string;
  /** Whether Charlie may download it (false for EMBEDDED_MODEL_PATH). */
  downloadable: boolean;
  /** A URL answering HEAD with the file's size, when one is known without a lookup. */
  url: string | null;
}

export function modelsDir(dataDir: string): string {
  return join(dataDir, 'models');
}

export function embeddedModelFile(settings: EmbeddedModelSettings): EmbeddedModelFile {
  if (settings.EMBEDDED_MODEL_PATH) {
    const path = resolve(settings.EMBEDDED_MODEL_PATH);
    return { ref: path, path, downloadable: false, url: null };
  }
  const ref = settings.EMBEDDED_MODEL;
  return { ref, path: join(modelsDir(settings.dataDir), localFileName(ref)), downloadable: true, url: remoteUrl(ref) };
}

/** `hf:owner/repo/dir/file.gguf` → `hf_owner_file.gguf` (node-llama-cpp's own naming); a URL → its file name. */
export function localFileName(ref: string): string {
  const hfFile = /^hf:([\w.-]+)\/([\w.-]+)\/(.+\.gguf)$/i.exec(ref);
  if (hfFile) return safe(`hf_${hfFile[1] ?? ''}_${basename(hfFile[3] ?? '')}`);
  const hfQuant = /^hf:([\w.-]+)\/([\w.-]+):([\w.-]+)$/.exec(ref);
  if (hfQuant) return safe(`hf_${hfQuant[1] ?? ''}_${(hfQuant[2] ?? '').replace(/-GGUF$/i, '')}.${hfQuant[3] ?? ''}.gguf`);
  const url = new URL(ref);
  return safe(decodeURIComponent(basename(url.pathname)));
}

function remoteUrl(ref: string): string | null {
  const hfFile = /^hf:([\w.-]+)\/([\w.-]+)\/(.+\.gguf)$/i.exec(ref);
  if (hfFile) return `https://huggingface.co/${hfFile[1] ?? ''}/${hfFile[2] ?? ''}/resolve/main/${hfFile[3] ?? ''}`;
  return /^https?:\/\//.test(ref) ? ref : null;
}

function safe(name: string): string {
  return name.replace(/[^\w.-]/g, '_').replace(/^\.+/, '');
}
