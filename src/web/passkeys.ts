/**
 * Passkeys (WebAuthn) for household members, through @simplewebauthn/server — the maintained
 * library the WebAuthn field uses — rather than our own CBOR and signature checks. A member makes
 * a passkey when they open their invite, and signs in with it later (a discoverable credential:
 * the phone offers the passkeys it holds for this site, no name to type). Each ceremony's
 * challenge is kept here for five minutes and used once.
 *
 * The relying party is the page's own origin (the Origin header, which the origin guard has
 * already checked against the allowed hosts): a passkey made on https://charlie.example works
 * there only. Browsers refuse passkeys on an IP address, so locally use http://localhost.
 */
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { NotLetIn, type Member, type MemberBook, type Passkey } from './members.js';

export interface RelyingParty {
  /** The host name passkeys are bound to. */
  id: string;
  origin: string;
  name: string;
}

/** The relying party of a request from `origin`, or why passkeys cannot work there. */
export function relyingParty(origin: string | undefined, name: string): RelyingParty {
  let url: URL;
  try {
    url = new URL(origin ?? '');
  } catch {
    throw new NotLetIn('Passkeys work from a browser only.');
  }
  if (/^[\d.]+$/.test(url.hostname) || url.hostname.startsWith('['))
    throw new NotLetIn(`Passkeys do not work on an address like ${url.hostname}: open Charlie by its name (http://localhost:${url.port || 80} on this computer).`);
  return { id: url.hostname, origin: url.origin, name };
}

const b64url = z
  .string()
  .max(20_000)
  .regex(/^[A-Za-z0-9_-]*$/);
const common = {
  id: b64url.min(1),
  rawId: b64url.min(1),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};
/** What the browser sends back, checked before the library sees it (it comes from outside). */
const registrationSchema = z.object({
  ...common,
  response: z.object({ clientDataJSON: b64url, attestationObject: b64url, transports: z.array(z.string().max(40)).max(10).optional() }),
});
const authenticationSchema = z.object({
  ...common,
  response: z.object({ clientDataJSON: b64url, authenticatorData: b64url, signature: b64url, userHandle: b64url.optional() }),
});

interface Pending {
  challenge: string;
  expires: number;
  kind: 'register' | 'sign-in';
  /** What the new passkey is for: an invite (used up by it), or a member already signed in. */
  invite?: string;
  member?: string;
}

const CEREMONY_MS = 5 * 60_000;
const MAX_PENDING = 1000;

/** A short name for the device a passkey was made on, from its browser's User-Agent. */
export function deviceLabel(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const os = [
    ['Android', 'Android'],
    ['iPhone', 'iPhone'],
    ['iPad', 'iPad'],
    ['CrOS', 'ChromeOS'],
    ['Mac OS X', 'Mac'],
    ['Windows', 'Windows'],
    ['Linux', 'Linux'],
  ].find(([k]) => ua.includes(k!))?.[1];
  const browser = [
    ['Edg/', 'Edge'],
    ['Firefox/', 'Firefox'],
    ['Chrome/', 'Chrome'],
    ['Safari/', 'Safari'],
  ].find(([k]) => ua.includes(k!))?.[1];
  return [browser, os].filter(Boolean).join(' on ') || 'a browser';
}

export class PasskeyCeremonies {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly book: MemberBook,
    private readonly now: () => number = Date.now,
  ) {}

  private remember(p: Omit<Pending, 'expires'>): string {
    const now = this.now();
    for (const [k, v] of this.pending) if (v.expires < now) this.pending.delete(k);
    // a flood of unfinished ceremonies drops the oldest, never grows without bound
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value ?? '');
    const id = randomBytes(12).toString('base64url');
    this.pending.set(id, { ...p, expires: now + CEREMONY_MS });
    return id;
  }

  private take(id: unknown, kind: Pending['kind']): Pending {
    const p = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (typeof id === 'string') this.pending.delete(id);
    if (!p || p.kind !== kind || p.expires < this.now()) throw new NotLetIn('That took too long, or the page is old. Reload the page and try again.');
    return p;
  }

  /** The options a member's phone needs to make a passkey for their invite. */
  registration(invite: string, rp: RelyingParty): Promise<{ ceremony: string; name: string; options: PublicKeyCredentialCreationOptionsJSON }> {
    return this.creation(this.book.openInvite(invite), rp, { invite });
  }

  /** The options for a member already signed in to add a passkey for the device they are on. */
  addition(member: Member, rp: RelyingParty): Promise<{ ceremony: string; name: string; options: PublicKeyCredentialCreationOptionsJSON }> {
    return this.creation(member, rp, { member: member.id });
  }

  private async creation(member: Member, rp: RelyingParty, forWhat: { invite: string } | { member: string }) {
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: member.name,
      userDisplayName: member.name,
      userID: new TextEncoder().encode(member.id),
      attestationType: 'none',
      excludeCredentials: member.passkeys.filter((p) => !p.revoked).map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    return { ceremony: this.remember({ challenge: options.challenge, kind: 'register', ...forWhat }), name: member.name, options };
  }

  /** Checks the new passkey and keeps it; an invite is used up. */
  async register(ceremony: unknown, response: unknown, rp: RelyingParty, label: string, signedIn?: string): Promise<{ member: Member; passkey: Passkey; counter: number }> {
    const pending = this.take(ceremony, 'register');
    // an invite's passkey is made before a session; one added from Settings, by that member only
    if ((signedIn ?? null) !== (pending.member ?? null)) throw new NotLetIn('That took too long, or the page is old. Reload the page and try again.');
    const parsed = registrationSchema.safeParse(response);
    if (!parsed.success) throw new NotLetIn('Your browser sent something that is not a passkey. Try again, or try another browser.');
    const verified = await verifyRegistrationResponse({
      response: parsed.data,
      expectedChallenge: pending.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    }).catch((e: unknown) => {
      throw new NotLetIn(`The passkey could not be checked: ${e instanceof Error ? e.message : String(e)}`);
    });
    if (!verified.verified) throw new NotLetIn('The passkey could not be checked. Try again.');
    const cred = verified.registrationInfo.credential;
    const passkey: Passkey = {
      id: cred.id,
      publicKey: Buffer.from(cred.publicKey).toString('base64url'),
      counter: cred.counter,
      transports: cred.transports ?? [],
      label,
      created: new Date(this.now()).toISOString(),
    };
    const member = pending.invite ? this.book.useInvite(pending.invite, passkey) : this.book.addPasskey(pending.member ?? '', passkey);
    return { member, passkey, counter: passkey.counter };
  }

  /** The options for signing in: any passkey the device holds for this site. */
  async authentication(rp: RelyingParty): Promise<{ ceremony: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred' });
    return { ceremony: this.remember({ challenge: options.challenge, kind: 'sign-in' }), options };
  }

  /** Whose passkey signed the challenge, with its new counter; otherwise says why not. */
  async signIn(ceremony: unknown, response: unknown, rp: RelyingParty): Promise<{ member: Member; passkey: Passkey; counter: number }> {
    const pending = this.take(ceremony, 'sign-in');
    const parsed = authenticationSchema.safeParse(response);
    if (!parsed.success) throw new NotLetIn('Your browser sent something that is not a passkey. Try again, or try another browser.');
    const { member, passkey } = this.book.passkey(parsed.data.id);
    const verified = await verifyAuthenticationResponse({
      response: parsed.data,
      expectedChallenge: pending.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.id, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')), counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: false,
    }).catch((e: unknown) => {
      throw new NotLetIn(`The passkey could not be checked: ${e instanceof Error ? e.message : String(e)}`);
    });
    if (!verified.verified) throw new NotLetIn('The passkey could not be checked. Try again.');
    return { member, passkey, counter: verified.authenticationInfo.newCounter };
  }
}
