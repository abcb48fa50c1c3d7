/**
 * Who may enter the web app. The owner logs in with the owner token (WEB_TOKEN, or one generated
 * once and kept under DATA_DIR/web/); each allow-listed Discord user gets a personal, short-lived,
 * single-use login link from `/web` in a DM. Either is exchanged at `/login` for a session cookie
 * (HttpOnly, SameSite=Strict) signed with a secret kept under DATA_DIR/web/. Scripts send the
 * owner token as `Authorization: Bearer …`.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../files/atomic-write.js';
import { z } from 'zod';
import { ROLES, type Role } from '../core/roles.js';

/**
 * The person behind a request, with their role in the role table (src/core/roles.ts): the owner
 * token is `owner`; a member signed in with a `/web` link has the role Discord gave them when
 * the link was issued (`editor` or `member`). A member's private memory is their Discord DM memory.
 */
export type WebUser = { kind: 'owner'; id: string; name: string; role: 'owner' } | { kind: 'member'; id: string; name: string; role: Role };

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
  /**
   * Where used login links and ended sessions are kept (JSON), so a used link stays used and a
   * signed-out cookie stays dead across restarts. Default: `used.json` next to the secret file.
   */
  stateFile?: string;
  now?: () => number;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

function readOrCreateSecret(file: string, make: () => string): string {
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (text.length >= 16) return text;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
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

/** A `/web` link's claims: who, until when, a nonce, and the role it was issued to (absent in older links: `member`). */
const linkClaims = z.object({ id: z.string().min(1).max(100), n: z.string().max(200), exp: z.number(), r: z.string().optional(), ro: z.enum(ROLES).default('member') });

/** A session cookie's claims; `sid` is the session's own id, so signing out can end this one session on the server. */
const sessionClaims = z.object({
  k: z.enum(['owner', 'member']),
  id: z.string().min(1).max(100),
  n: z.string().max(200),
  exp: z.number(),
  sid: z.string().min(1),
  // a session from before roles is a member's: the table's least
  ro: z.enum(ROLES).default('member'),
});
type SessionClaims = z.infer<typeof sessionClaims>;

/** JSON of a base64url payload checked against `schema`, or null. */
function decode<T>(payload: string, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(unb64(payload)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** What must outlive a restart: used link tokens and ended sessions, each with its expiry (ms). */
interface AuthState {
  links: Map<string, number>;
  ended: Map<string, number>;
}

function readState(file: string): AuthState {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { links?: unknown; ended?: unknown };
    const clean = (o: unknown) => new Map(Object.entries(o && typeof o === 'object' ? o : {}).filter((e): e is [string, number] => typeof e[1] === 'number'));
    return { links: clean(raw.links), ended: clean(raw.ended) };
  } catch {
    return { links: new Map(), ended: new Map() };
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest('base64url');

export class WebAuth {
  readonly ownerToken: string;
  /** Whether the token came from DATA_DIR (generated) rather than WEB_TOKEN. */
  readonly generated: boolean;
  private readonly secret: string;
  private readonly now: () => number;
  private readonly stateFile: string;
  /** Link tokens already exchanged (single use) and sessions signed out, by digest; pruned as they expire. */
  private readonly state: AuthState;

  constructor(private readonly o: WebAuthOptions) {
    this.now = o.now ?? Date.now;
    this.generated = !o.ownerToken;
    this.ownerToken = o.ownerToken ?? readOrCreateSecret(o.tokenFile, () => randomBytes(24).toString('base64url'));
    this.secret = readOrCreateSecret(o.secretFile, () => randomBytes(32).toString('base64url'));
    this.stateFile = o.stateFile ?? join(dirname(o.secretFile), 'used.json');
    this.state = readState(this.stateFile);
  }

  /** Drops what has expired and writes the state (atomically: a crash leaves the old file). */
  private saveState(): void {
    const now = this.now();
    for (const map of [this.state.links, this.state.ended]) for (const [k, exp] of map) if (exp < now) map.delete(k);
    mkdirSync(dirname(this.stateFile), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(this.stateFile, JSON.stringify({ links: Object.fromEntries(this.state.links), ended: Object.fromEntries(this.state.ended) }), { mode: 0o600 });
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
    return { kind: 'owner', id: OWNER_ID, name: this.o.ownerName, role: 'owner' };
  }

  /** A single-use login token for one Discord user with their role, valid for `linkMinutes` (default 15). */
  issueLinkToken(userId: string, userName: string, role: Role = 'member'): string {
    const exp = this.now() + (this.o.linkMinutes ?? 15) * 60_000;
    const payload = b64(JSON.stringify({ id: userId, n: userName, exp, r: randomBytes(9).toString('base64url'), ro: role }));
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
    const claims = decode(payload, linkClaims);
    if (!claims || claims.exp < this.now()) return null;
    const key = digest(payload);
    if (this.state.links.has(key)) return null;
    this.state.links.set(key, claims.exp);
    this.saveState();
    return { kind: 'member', id: claims.id, name: claims.n, role: claims.ro };
  }

  /** The cookie value for a session of `user`. */
  sessionValue(user: WebUser): string {
    const claims: SessionClaims = { k: user.kind, id: user.id, n: user.name, exp: this.now() + this.sessionSeconds * 1000, sid: randomBytes(12).toString('base64url'), ro: user.role };
    const payload = b64(JSON.stringify(claims));
    return `${payload}.${this.sign(`session:${payload}`)}`;
  }

  private claims(value: string | undefined): SessionClaims | null {
    if (!value || value.length > 2000) return null;
    const [payload, sig] = value.split('.');
    if (!payload || !sig || !sameSecret(sig, this.sign(`session:${payload}`))) return null;
    const c = decode(payload, sessionClaims);
    if (!c || c.exp < this.now() || this.state.ended.has(digest(c.sid))) return null;
    return c;
  }

  /** The user of a session cookie value, or null when it is forged, expired or signed out. */
  readSession(value: string | undefined): WebUser | null {
    const c = this.claims(value);
    if (!c) return null;
    return c.k === 'owner' ? this.owner() : { kind: 'member', id: c.id, name: c.n, role: c.ro };
  }

  /** A live session's own id and expiry (ms), for the list of a member's sessions. */
  sessionOf(value: string): { sid: string; exp: number } | null {
    const c = this.claims(value);
    return c ? { sid: c.sid, exp: c.exp } : null;
  }

  /** Ends a session on the server: its cookie is refused from now on, also after a restart. */
  endSession(value: string | undefined): boolean {
    const c = this.claims(value);
    if (!c) return false;
    this.endSessionId(c.sid, c.exp);
    return true;
  }

  /** Ends a session by its id (the owner revoking a member's device). */
  endSessionId(sid: string, exp: number): void {
    this.state.ended.set(digest(sid), exp);
    this.saveState();
  }

  /** The user of an `Authorization: Bearer` header (the owner token only); 'wrong' when one is sent that is not it. */
  readBearer(header: string | undefined): WebUser | 'wrong' | null {
    if (!header) return null;
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m?.[1]) return /^Bearer\b/i.test(header) ? 'wrong' : null;
    return this.isOwnerToken(m[1]) ? this.owner() : 'wrong';
  }
}

/**
 * Failed sign-ins (wrong tokens at /login and wrong Bearer tokens) per client: after `max`
 * failures within `windowMs`, a wrong token from that client is answered 429 until the window
 * has passed. A correct token is never refused: the check runs first, so a stranger who floods
 * the form (behind a proxy every client may look the same) cannot lock the owner out. Guessing
 * is not what this stops — the owner token has ≥ 96 bits and links are signed — it tells a
 * guesser to stop and keeps their noise bounded. Hono ships no rate limiter (the community one
 * is a separate package with a store abstraction we do not need for one counter).
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

  /** A correct token: the client's earlier failures are forgotten. */
  succeed(key: string): void {
    this.failures.delete(key);
  }

  fail(key: string): void {
    const list = this.recent(key);
    list.push(this.now());
    this.failures.set(key, list);
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value ?? key);
  }
}
