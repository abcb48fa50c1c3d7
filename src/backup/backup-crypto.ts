/**
 * Encryption of a backup file with age (the `age-encryption` package, the format's TypeScript
 * implementation): to a passphrase (scrypt) or to an age public key (`age1…`), decrypted with the
 * passphrase or the matching secret key (`AGE-SECRET-KEY-1…`). Streams both ways, so a backup
 * of any size never sits in memory whole. The file is compatible with the `age` command line tool.
 */
import { Decrypter, Encrypter } from 'age-encryption';
import { Readable } from 'node:stream';
import { errorMessage } from '../util/error-text.js';

/** How a backup is encrypted: a passphrase, or an age recipient (public key). */
export type BackupKey = { passphrase: string; scryptWorkFactor?: number } | { recipient: string };
/** How an encrypted backup is opened: its passphrase, or the age identity (secret key) of its recipient. */
export type BackupUnlock = { passphrase: string } | { identity: string };

/** The first bytes of every age file. */
export const AGE_MAGIC = 'age-encryption.org/v1\n';

export class BackupKeyError extends Error {}

function encrypter(key: BackupKey): Encrypter {
  const e = new Encrypter();
  if ('passphrase' in key) {
    if (!key.passphrase) throw new BackupKeyError('an empty passphrase would not protect the backup');
    e.setPassphrase(key.passphrase);
    if (key.scryptWorkFactor) e.setScryptWorkFactor(key.scryptWorkFactor);
  } else {
    if (!/^age1[0-9a-z]+$/.test(key.recipient.trim())) throw new BackupKeyError('an age public key starts with age1 (make one with age-keygen)');
    e.addRecipient(key.recipient.trim());
  }
  return e;
}

/** A pipeline stage that encrypts what flows through it. */
export function encryptStage(key: BackupKey): (source: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array> {
  const e = encrypter(key);
  return async function* (source) {
    const web = Readable.toWeb(Readable.from(source)) as unknown as ReadableStream<Uint8Array>;
    const out = (await e.encrypt(web)) as unknown as AsyncIterable<Uint8Array>;
    for await (const chunk of out) yield chunk;
  };
}

/** A pipeline stage that decrypts an age file; fails with BackupKeyError when the key given does not open it. */
export function decryptStage(unlock: BackupUnlock): (source: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array> {
  return async function* (source) {
    const d = new Decrypter();
    if ('passphrase' in unlock) d.addPassphrase(unlock.passphrase);
    else d.addIdentity(unlock.identity.trim());
    const web = Readable.toWeb(Readable.from(source)) as unknown as ReadableStream<Uint8Array>;
    let out: AsyncIterable<Uint8Array>;
    try {
      out = await d.decrypt(web);
    } catch (err) {
      throw new BackupKeyError(`the backup does not open with this ${'passphrase' in unlock ? 'passphrase' : 'key'} (${errorMessage(err)})`);
    }
    try {
      for await (const chunk of out) yield chunk;
    } catch (err) {
      throw new BackupKeyError(`the backup does not decrypt: it was altered or cut short (${errorMessage(err)})`);
    }
  };
}
