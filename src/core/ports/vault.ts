/**
 * The vault port: secrets a person gave once (an SSH private key, its passphrase, a password),
 * kept encrypted per person. Everything else — pages, records, the archive, prompts, logs — holds
 * only a handle such as `vault:ssh/admin@nas`. Every call names the person whose turn it is: an
 * entry is found only in its owner's vault, so one person's handle resolves to nothing in
 * another person's turn.
 */

/** What one vault entry may hold. */
export interface Credential {
  password?: string;
  privateKey?: string;
  passphrase?: string;
}

/** What `list` shows of an entry: never the secret, only what kinds it holds. */
export interface VaultEntry {
  handle: string;
  kinds: (keyof Credential)[];
  updated: string;
}

export interface Vault {
  /** Stores (merging into an entry of the same name) and returns its handle, `vault:<name>`. */
  put(owner: string, name: string, credential: Credential): Promise<string>;
  /** The owner's credential behind a handle; null when the owner has no such entry. */
  resolve(owner: string, handle: string): Promise<Credential | null>;
  list(owner: string): Promise<VaultEntry[]>;
  /** Deletes the entry; false when the owner had none. */
  remove(owner: string, handle: string): Promise<boolean>;
}

export const VAULT_PREFIX = 'vault:';

/** `vault:ssh/admin@nas` → `ssh/admin@nas`; null for anything that is not a handle. */
export function handleName(handle: string): string | null {
  if (!handle.startsWith(VAULT_PREFIX)) return null;
  const name = handle.slice(VAULT_PREFIX.length);
  return /^[a-z0-9][a-z0-9._@:/+-]{0,120}$/i.test(name) ? name : null;
}

/** The handle of an entry name, made safe: only the characters a handle may hold. */
export function vaultHandle(name: string): string {
  return `${VAULT_PREFIX}${name.replace(/[^a-z0-9._@:/+-]/gi, '-').slice(0, 120)}`;
}
