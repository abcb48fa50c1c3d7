/**
 * Who may enter the web app. The owner logs in with the owner token (WEB_TOKEN, or one generated
 * once and kept under DATA_DIR/web/); each allow-listed Discord user gets a personal, short-lived,
 * single-use login link from `/web` in a DM. Either is exchanged at `/login` for a session cookie
 * (HttpOnly, SameSite=Strict) signed with a secret kept under DATA_DIR/web/. Scripts send the
 * owner token as `Authorization: Bearer …`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The person behind a request. A member's private memory is their Discord DM memory. */
export type WebUser = { kind: 'owner'; id: string; name: string } | { kind: 'member'; id: string; name: string };

/** The owner's private conversation in the web app (the owner's Discord DMs are reached through a `/web` link). */
export const OWNER_ID = 'web-owner';

export interface WebAuthOptions {
  /** WEB_TOKEN, when set. */
  ownerToken?: string;
  ownerName: string;
  tokenFile: string;
  secretFile: string;
  sessionDays: number;
  /** How long a `/web` login link stays valid. */
  linkMinutes?: number;
  now?: () => number;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

function readOrCreateSecret(file: string, make: () => string): string {
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (text.length >= 16) return text;
  }
  mkdirSync(dirname(file), { recursive: true });
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return value;
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

interface SessionClaims {
  k: WebUser['kind'];
  id: string;
  n: string;
  exp: number;
}

export class WebAuth {
  readonly ownerToken: string;
  /** Whether the token came from DATA_DIR (generated) rather than WEB_TOKEN. */
  readonly generated: boolean;
  private readonly secret: string;
  private readonly now: () => number;
  /** Link tokens already exchanged (single use); pruned as they expire. */
  private readonly usedLinks = new Map<string, number>();

  constructor(private readonly o: WebAuthOptions) {
    this.now = o.now ?? Date.now;
    this.generated = !o.ownerToken;
    this.ownerToken = o.ownerToken ?? readOrCreateSecret(o.tokenFile, () => randomBytes(24).toString('base64url'));
    this.secret = readOrCreateSecret(o.secretFile, () => randomBytes(32).toString('base64url'));
  }

  get cookieSecret(): string {
    return this.secret;
  }

  get sessionSeconds(): number {
    return this.o.sessionDays * 86_400;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  isOwnerToken(token: string): boolean {
    return sameSecret(token, this.ownerToken);
  }

  owner(): WebUser {
    return { kind: 'owner', id: OWNER_ID, name: this.o.ownerName };
  }

  /** A single-use login token for one Discord user, valid for `linkMinutes` (default 15). */
  issueLinkToken(userId: string, userName: string): string {
    const exp = this.now() + (this.o.linkMinutes ?? 15) * 60_000;
    const payload = b64(JSON.stringify({ id: userId, n: userName, exp, r: randomBytes(9).toString('base64url') }));
    return `l.${payload}.${this.sign(`link:${payload}`)}`;
  }

  /** The user a login token stands for (owner token or an unused, unexpired link), or null. */
  exchange(token: string): WebUser | null {
    if (token.length > 2000) return null;
    if (this.isOwnerToken(token)) return this.owner();
    const m = /^l\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
    if (!m?.[1] || !m[2]) return null;
    const [, payload, sig] = m;
    if (!sameSecret(sig, this.sign(`link:${payload}`))) return null;
    let claims: { id?: unknown; n?: unknown; exp?: unknown };
    try {
      claims = JSON.parse(unb64(payload)) as typeof claims;
    } catch {
      return null;
    }
    const now = this.now();
    if (typeof claims.id !== 'string' || typeof claims.n !== 'string' || typeof claims.exp !== 'number' || claims.exp < now) return null;
    for (const [t, exp] of this.usedLinks) if (exp < now) this.usedLinks.delete(t);
    if (this.usedLinks.has(payload)) return null;
    this.usedLinks.set(payload, claims.exp);
    return { kind: 'member', id: claims.id, name: claims.n };
  }

  /** The cookie value for a session of `user`. */
  sessionValue(user: WebUser): string {
    const claims: SessionClaims = { k: user.kind, id: user.id, n: user.name, exp: this.now() + this.sessionSeconds * 1000 };
    const payload = b64(JSON.stringify(claims));
    return `${payload}.${this.sign(`session:${payload}`)}`;
  }

  /** The user of a session cookie value, or null when it is forged or expired. */
  readSession(value: string | undefined): WebUser | null {
    if (!value || value.length > 2000) return null;
    const [payload, sig] = value.split('.');
    if (!payload || !sig || !sameSecret(sig, this.sign(`session:${payload}`))) return null;
    try {
      const c = JSON.parse(unb64(payload)) as Partial<SessionClaims>;
      if (typeof c.exp !== 'number' || c.exp < this.now() || typeof c.id !== 'string' || typeof c.n !== 'string') return null;
      if (c.k === 'owner') return this.owner();
      if (c.k === 'member') return { kind: 'member', id: c.id, name: c.n };
      return null;
    } catch {
      return null;
    }
  }

  /** The user of an `Authorization: Bearer` header (the owner token only). */
  readBearer(header: string | undefined): WebUser | null {
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    return m?.[1] && this.isOwnerToken(m[1]) ? this.owner() : null;
  }
}

/**
 * Failed logins per client address: after `max` failures within `windowMs`, further attempts
 * are refused until the window has passed. Hono ships no rate limiter (the community one is a
 * separate package with a store abstraction we do not need for one counter).
 */
export class FailedLoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max = 5,
    private readonly windowMs = 15 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  blocked(key: string): boolean {
    return this.recent(key).length >= this.max;
  }

  fail(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.failures.set(key, list);
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value ?? key);
  }
}
