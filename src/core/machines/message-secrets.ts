/**
 * Secrets typed in a message about a machine are kept, not lost: a private key block, and a
 * password or passphrase said in the context of SSH, are taken out of the text and put into the
 * asking person's vault; the message keeps the handle (`vault:ssh/admin@nas`) in their place.
 * What the rest of the turn (archive, index, prompt, log) sees is the text with handles.
 */
import type { Credential, Vault } from '../ports/vault.js';

const KEY_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g;
/** "password is X", "password: X", "pw X", "passphrase is X" (the value: one token, not a question). */
const SAID = /\b(password|passwort|passwd|passphrase|pw)(?:\s+(?:is|was|=|:)\s*|\s*[:=]\s*)(?!vault:)([^\s"'`,;]+?)(?=[.,;!)]?(?:\s|$))/gi;
/** Words that say the message is about logging in to a machine. */
const SSH_CONTEXT = /\b(?:ssh|sftp|server|nas|raspberry|pi|vps|machine|host|login|log in|user(?:name)?)\b|\b[a-z_][a-z0-9_.-]*@[a-z0-9][a-z0-9.-]*/i;
const NOT_SECRETS = new Set([
  'a',
  'the',
  'not',
  'wrong',
  'right',
  'same',
  'different',
  'correct',
  'incorrect',
  'changed',
  'new',
  'old',
  'expired',
  'required',
  'missing',
  'empty',
  'what',
  'my',
  'your',
  'it',
]);

export interface LoginHint {
  user?: string;
  host?: string;
}

/** The login a message is about: `user@host`, or "user admin" and "the NAS" / a host name / an address. */
export function loginHint(text: string): LoginHint {
  const at = /\b([a-z_][a-z0-9_.-]{0,31})@([a-z0-9][a-z0-9.-]{0,252})\b/i.exec(text);
  if (at?.[1] && at[2]) return { user: at[1], host: at[2].replace(/\.$/, '') };
  const user = /\buser(?:name)?\s+(?:is\s+)?["']?([a-z_][a-z0-9_.-]{0,31})/i.exec(text)?.[1];
  const host =
    /\b(\d{1,3}(?:\.\d{1,3}){3})\b/.exec(text)?.[1] ??
    /\b(?:host|hostname|server|machine|address)\s+(?:is\s+)?([a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*)/i.exec(text)?.[1] ??
    /\b([a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:local|lan|home|internal|com|net|org|io|de|uk))\b/i.exec(text)?.[1] ??
    /\bthe\s+(nas|pi|raspberry pi|vps|server|router)\b/i.exec(text)?.[1];
  return { ...(user ? { user } : {}), ...(host ? { host: host.toLowerCase().replace(/\s+/g, '-') } : {}) };
}

/** The vault entry name of a login: `ssh/admin@nas`. */
export function loginName(hint: LoginHint): string {
  return `ssh/${hint.user ?? 'login'}@${hint.host ?? 'unnamed'}`;
}

export interface FoundSecrets {
  credential: Credential;
  /** The text with each secret cut out at `marks` (placeholders to replace with the handle). */
  cut: string;
}

const MARK = '\u0000vault\u0000';

/** The secrets of a message about a machine, and the text with each replaced by a mark; null when there are none. */
export function findMachineSecrets(text: string): FoundSecrets | null {
  const credential: Credential = {};
  let cut = text.replace(KEY_BLOCK, (block) => {
    credential.privateKey = block.trim();
    return MARK;
  });
  if (credential.privateKey || SSH_CONTEXT.test(text)) {
    cut = cut.replace(SAID, (match: string, word: string, value: string) => {
      if (NOT_SECRETS.has(value.toLowerCase()) || value.endsWith('?') || value.length < 3) return match;
      if (/^passphrase$/i.test(word)) credential.passphrase = value;
      else credential.password = value;
      return match.slice(0, match.length - value.length) + MARK;
    });
  }
  return Object.keys(credential).length ? { credential, cut } : null;
}

export interface MovedSecrets {
  text: string;
  handle: string;
  kinds: (keyof Credential)[];
}

/** Moves the secrets of `text` into `owner`'s vault; the text comes back with the handle in their place. */
export async function moveSecretsToVault(text: string, owner: string, vault: Vault): Promise<MovedSecrets | null> {
  const found = findMachineSecrets(text);
  if (!found) return null;
  const handle = await vault.put(owner, loginName(loginHint(found.cut.replaceAll(MARK, ' '))), found.credential);
  return { text: found.cut.replaceAll(MARK, handle), handle, kinds: Object.keys(found.credential) as (keyof Credential)[] };
}

export function vaultNotice(moved: MovedSecrets): string {
  const what = moved.kinds.map((k) => (k === 'privateKey' ? 'the private key' : `the ${k}`)).join(' and ');
  return `I put ${what} into your vault (encrypted, only for you) and kept only its handle, ${moved.handle}, in this conversation. Say "revoke ${moved.handle}" or use /machines to remove it.`;
}
