/**
 * The vault on disk: `<DATA_DIR>/vault/` (mode 0700) holds `vault.key`, an age identity only
 * Charlie's user can read (0600, made on first use), and one age-encrypted file per person,
 * `<hash of the person's id>.age` (0600), so no user id appears in a file name. Each file is a
 * JSON map of entry name → credential, rewritten atomically (temp file + rename) on every change,
 * one change at a time per person.
 */
/** age is loaded when the vault is first opened, not at start (test/integration/startup-modules.test.ts). */
const age = () => import('age-encryption');
import { writeFileReplacing } from '../files/atomic-write.js';
import { createHash } from 'node:crypto';
import { chmod, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { handleName, vaultHandle, type Credential, type Vault, type VaultEntry } from '../core/ports/vault.js';

const credentialSchema = z.object({ password: z.string().optional(), privateKey: z.string().optional(), passphrase: z.string().optional() });
const fileSchema = z.object({ schema: z.literal(1), entries: z.record(z.string(), z.object({ credential: credentialSchema, updated: z.string() })) });
type VaultFile = z.infer<typeof fileSchema>;

export class VaultError extends Error {}

export class AgeVault implements Vault {
  private identity: Promise<string> | null = null;
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async put(owner: string, name: string, credential: Credential): Promise<string> {
    const handle = vaultHandle(name);
    const key = handleName(handle) ?? name;
    await this.change(owner, (file) => {
      const old = file.entries[key]?.credential ?? {};
      const merged = Object.fromEntries(Object.entries({ ...old, ...credential }).filter(([, v]) => typeof v === 'string' && v !== '')) as Credential;
      file.entries[key] = { credential: merged, updated: this.now().toISOString() };
      return true;
    });
    return handle;
  }

  async resolve(owner: string, handle: string): Promise<Credential | null> {
    const name = handleName(handle);
    if (!name) return null;
    await this.queues.get(owner);
    return (await this.read(owner)).entries[name]?.credential ?? null;
  }

  async list(owner: string): Promise<VaultEntry[]> {
    await this.queues.get(owner);
    const file = await this.read(owner);
    return Object.entries(file.entries).map(([name, e]) => ({ handle: vaultHandle(name), kinds: Object.keys(e.credential) as (keyof Credential)[], updated: e.updated }));
  }

  async remove(owner: string, handle: string): Promise<boolean> {
    const name = handleName(handle);
    if (!name) return false;
    let removed = false;
    await this.change(owner, (file) => {
      const { [name]: gone, ...rest } = file.entries;
      removed = gone !== undefined;
      file.entries = rest;
      return removed;
    });
    return removed;
  }

  /** One change at a time per person: read, change, write back (when `edit` says it changed). */
  private change(owner: string, edit: (file: VaultFile) => boolean): Promise<void> {
    const previous = this.queues.get(owner) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const file = await this.read(owner);
        if (edit(file)) await this.write(owner, file);
      });
    this.queues.set(owner, next);
    return next;
  }

  private fileOf(owner: string): string {
    return join(this.dir, `${createHash('sha256').update(`charlie-vault:${owner}`).digest('hex').slice(0, 32)}.age`);
  }

  private async read(owner: string): Promise<VaultFile> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.fileOf(owner));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { schema: 1, entries: {} };
      throw err;
    }
    const d = new (await age()).Decrypter();
    d.addIdentity(await this.key());
    let text: string;
    try {
      text = await d.decrypt(bytes, 'text');
    } catch (err) {
      throw new VaultError(`a vault file does not open with ${join(this.dir, 'vault.key')} (was the key replaced?)`, { cause: err });
    }
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new VaultError('a vault file decrypted but is not a vault (schema 1)');
    return parsed.data;
  }

  private async write(owner: string, file: VaultFile): Promise<void> {
    const { Encrypter, identityToRecipient } = await age();
    const e = new Encrypter();
    e.addRecipient(await identityToRecipient(await this.key()));
    const bytes = await e.encrypt(JSON.stringify(file));
    await writePrivate(this.fileOf(owner), bytes);
  }

  /** The age identity, made once (0600) in a folder only Charlie's user may enter (0700). */
  private key(): Promise<string> {
    this.identity ??= (async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await chmod(this.dir, 0o700);
      const path = join(this.dir, 'vault.key');
      try {
        return (await readFile(path, 'utf8')).trim();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const identity = await (await age()).generateIdentity();
      await writePrivate(path, Buffer.from(`${identity}\n`), true);
      return (await readFile(path, 'utf8')).trim();
    })();
    this.identity.catch(() => (this.identity = null));
    return this.identity;
  }
}

/** Writes a file only its owner can read: a 0600 temp file, synced, renamed over `path`. */
async function writePrivate(path: string, data: Uint8Array, onlyIfAbsent = false): Promise<void> {
  if (onlyIfAbsent) {
    const fh = await open(path, 'wx', 0o600).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return null; // another start made it first: read that one
      throw err;
    });
    if (!fh) return;
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    return;
  }
  await writeFileReplacing(path, data, { mode: 0o600 });
}
