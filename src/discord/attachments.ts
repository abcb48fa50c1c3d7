/**
 * Reads what a message carries: text attachments become part of the text (up to a byte limit),
 * images are downloaded (size-capped, time-boxed) and become base64 data URLs when the model
 * accepts images — Ollama refuses remote image URLs and LM Studio expects data URLs; everything
 * else becomes a short visible warning.
 */
import { errorMessage } from '../util/error-text.js';

export interface AttachmentRef {
  name: string;
  url: string;
  contentType: string | null;
  size: number;
}

export interface AttachmentResult {
  /** Blocks to append to the message text. */
  texts: string[];
  images: string[];
  warnings: string[];
}

export interface AttachmentOptions {
  acceptsImages: boolean;
  maxTextBytes: number;
  /** Larger images are skipped with a warning (DISCORD_IMAGE_MAX_BYTES). */
  maxImageBytes: number;
  fetch: typeof fetch;
  /** Each download (headers and body) gives up after this long (DISCORD_ATTACHMENT_TIMEOUT_MS). */
  downloadTimeoutMs: number;
  signal?: AbortSignal;
}

const TEXT_EXT = /\.(txt|md|markdown|csv|tsv|json|jsonl|ya?ml|toml|ini|log|xml|html?|css|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|c|h|cpp|hpp|cs|sh|sql|env\.example)$/i;
const IMAGE_EXT = /\.(png|jpe?g|gif|webp)$/i;

export function isTextAttachment(a: AttachmentRef): boolean {
  const type = (a.contentType ?? '').toLowerCase();
  return type.startsWith('text/') || /json|xml|yaml|javascript|typescript|csv/.test(type) || (!type && TEXT_EXT.test(a.name)) || TEXT_EXT.test(a.name);
}

export function isImageAttachment(a: AttachmentRef): boolean {
  const type = (a.contentType ?? '').toLowerCase();
  return type.startsWith('image/') ? /png|jpe?g|gif|webp/.test(type) : IMAGE_EXT.test(a.name);
}

export async function readAttachments(list: readonly AttachmentRef[], options: AttachmentOptions): Promise<AttachmentResult> {
  const result: AttachmentResult = { texts: [], images: [], warnings: [] };
  const skippedImages: string[] = [];
  const unsupported: string[] = [];
  for (const a of list) {
    if (isImageAttachment(a)) {
      if (!options.acceptsImages) skippedImages.push(a.name);
      else if (a.size > options.maxImageBytes) result.warnings.push(`Skipped ${a.name}: images over ${sizeText(options.maxImageBytes)} are not sent to the model.`);
      else {
        try {
          result.images.push(await fetchImage(a, options));
        } catch (error) {
          result.warnings.push(`Couldn't read ${a.name}: ${errorMessage(error)}.`);
        }
      }
    } else if (isTextAttachment(a)) {
      try {
        const { text, truncated } = await fetchText(a.url, options);
        result.texts.push(`[attachment ${a.name}${truncated ? ', truncated' : ''}]\n${text}`);
        if (truncated) result.warnings.push(`${a.name} was long; only the first ${Math.round(options.maxTextBytes / 1000)} kB were read.`);
      } catch {
        result.warnings.push(`Couldn't read ${a.name}.`);
      }
    } else unsupported.push(a.name);
  }
  if (skippedImages.length) result.warnings.push(`Skipped ${list_(skippedImages)}: the configured model doesn't accept images.`);
  if (unsupported.length) result.warnings.push(`Skipped ${list_(unsupported)}: I can only read text files${options.acceptsImages ? ' and images' : ''}.`);
  return result;
}

/** At most `max` bytes of the body (more → `truncated`), read within the download timeout. */
export async function download(
  url: string,
  max: number,
  options: Pick<AttachmentOptions, 'downloadTimeoutMs' | 'fetch' | 'signal'>,
): Promise<{ bytes: Buffer; truncated: boolean; type: string | null }> {
  const timeout = AbortSignal.timeout(options.downloadTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    return await downloadWithin(url, max, signal, options.fetch);
  } catch (error) {
    if (timeout.aborted) throw new Error(`the download took longer than ${Math.round(options.downloadTimeoutMs / 100) / 10} s`, { cause: error });
    throw error;
  }
}

async function downloadWithin(url: string, max: number, signal: AbortSignal, fetch: AttachmentOptions['fetch']): Promise<{ bytes: Buffer; truncated: boolean; type: string | null }> {
  const res = await fetch(url, { signal });
  if (!res.ok || !res.body) throw new Error(`attachment download answered ${res.status}`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
    if (total > max) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  return { bytes: Buffer.concat(chunks).subarray(0, max), truncated, type: res.headers.get('content-type') };
}

async function fetchText(url: string, options: AttachmentOptions): Promise<{ text: string; truncated: boolean }> {
  const { bytes, truncated } = await download(url, options.maxTextBytes, options);
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/\uFFFD$/, ''), truncated };
}

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image as a `data:` URL; larger than the limit (whatever its declared size) is an error. */
async function fetchImage(a: AttachmentRef, options: AttachmentOptions): Promise<string> {
  const { bytes, truncated, type } = await download(a.url, options.maxImageBytes, options);
  if (truncated) throw new Error(`larger than ${sizeText(options.maxImageBytes)}`);
  const declared = [a.contentType, type].find((t): t is string => !!t && /^image\/(png|jpe?g|gif|webp)/i.test(t));
  const mime = declared?.split(';')[0]?.trim().toLowerCase() ?? IMAGE_TYPES[a.name.split('.').pop()?.toLowerCase() ?? ''] ?? 'image/png';
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

function sizeText(bytes: number): string {
  return bytes >= 1_000_000 ? `${Math.round(bytes / 100_000) / 10} MB` : `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

function list_(names: string[]): string {
  return names.length === 1 ? names[0]! : `${names.length} attachments (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''})`;
}
