/**
 * Reads what a message carries: text attachments become part of the text (up to a byte limit),
 * images become image URLs when the model accepts images; everything else becomes a short
 * visible warning.
 */

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
  fetch: typeof fetch;
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
      if (options.acceptsImages) result.images.push(a.url);
      else skippedImages.push(a.name);
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

async function fetchText(url: string, options: AttachmentOptions): Promise<{ text: string; truncated: boolean }> {
  const res = await options.fetch(url, { signal: options.signal ?? AbortSignal.timeout(15_000) });
  if (!res.ok || !res.body) throw new Error(`attachment download answered ${res.status}`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
    if (total > options.maxTextBytes) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = Buffer.concat(chunks).subarray(0, options.maxTextBytes);
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/\uFFFD$/, ''), truncated };
}

function list_(names: string[]): string {
  return names.length === 1 ? names[0]! : `${names.length} attachments (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''})`;
}
