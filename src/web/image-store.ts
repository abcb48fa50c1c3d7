/**
 * The images a person sent with a chat message, kept so the message shows them again (after
 * sending, and after a reload). The model got them with the turn; the archive keeps only the
 * words. One folder per place (a project's, or one person's private conversation), named by a
 * digest, under DATA_DIR/web/images/ — never under projects/, so a private conversation's images
 * reach no Markdown, no sync and no other person. Each file is named by a digest of its message's
 * source and its position (0–3), 0600. `/private wipe` removes a person's folder (private-wipe.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' } as const;
type Ext = keyof typeof TYPES;
const DATA_URL = /^data:image\/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/=]+)$/;
const FILE = /^([0-9a-f]{32})-([0-3])\.(png|jpeg|webp|gif)$/;

const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 32);

export interface StoredImage {
  bytes: Buffer;
  type: string;
}

export class ImageStore {
  constructor(private readonly dir: string) {}

  private folder(place: string): string {
    return join(this.dir, digest(place));
  }

  /** Keeps a message's images (data: URLs, already checked by the request's schema). */
  add(place: string, source: string, images: readonly string[]): void {
    const folder = this.folder(place);
    images.slice(0, 4).forEach((url, n) => {
      const m = DATA_URL.exec(url);
      if (!m) return;
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      writeFileSync(join(folder, `${digest(source)}-${n}.${m[1]}`), Buffer.from(m[2] ?? '', 'base64'), { mode: 0o600 });
    });
  }

  /** How many images each message of the place has, by its source's digest (one listing per request). */
  counts(place: string): (source: string) => number {
    const folder = this.folder(place);
    const count = new Map<string, number>();
    for (const name of existsSync(folder) ? readdirSync(folder) : []) {
      const key = FILE.exec(name)?.[1];
      if (key) count.set(key, (count.get(key) ?? 0) + 1);
    }
    return (source) => count.get(digest(source)) ?? 0;
  }

  /** The `n`th image of a message, or null. */
  get(place: string, source: string, n: number): StoredImage | null {
    const folder = this.folder(place);
    for (const ext of Object.keys(TYPES) as Ext[]) {
      const file = join(folder, `${digest(source)}-${n}.${ext}`);
      if (existsSync(file)) return { bytes: readFileSync(file), type: TYPES[ext] };
    }
    return null;
  }

  /** Removes every image of a place (a person's private conversation, on `/private wipe`). */
  wipe(place: string): void {
    rmSync(this.folder(place), { recursive: true, force: true });
  }
}
