/**
 * The household members the owner invited to the web app, with what lets each one in: their
 * invites (single use, with an expiry; only a digest of the token is kept), their passkeys (the
 * public key and signature counter — never a secret) and their sessions (so the owner can end
 * one). Kept in one JSON file under DATA_DIR/web/ (0600, written atomically), next to the owner
 * token and the session secret, never under projects/.
 *
 * A member's person id is their Discord user id when the owner links the invite to it — then
 * the web app is the same person as on Discord: the same DMs, USER.md and consent ledger — and
 * otherwise a new id of their own (`web-…`). Their role comes from the one role table
 * (src/core/roles.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ROLES, type Role } from '../core/roles.js';
import { writeFileAtomicSync } from '../files/atomic-write.js';

/** The roles an invite may give: the table's, but the owner (that is whoever holds the owner token). */
export const INVITE_ROLES = ROLES.filter((r): r is Exclude<(typeof ROLES)[number], 'owner'> => r !== 'owner');
export type InviteRole = (typeof INVITE_ROLES)[number];

/** How long an invite link stays valid. */
export const INVITE_HOURS = 72;

const iso = z.string().min(1).max(40);
const passkeySchema = z.object({
  /** The credential id (base64url), as the browser names it. */
  id: z.string().min(1).max(1400),
  publicKey: z.string().min(1).max(2000),
  counter: z.number().int().nonnegative(),
  transports: z.array(z.string().max(40)).max(10).default([]),
  /** Which device, in words (from the browser that registered it). */
  label: z.string().max(120),
  created: iso,
  lastUsed: iso.optional(),
  revoked: iso.optional(),
});
/** A session a passkey opened (`passkey`: which one, so removing the device ends it too). */
const sessionSchema = z.object({ sid: z.string().min(1).max(100), label: z.string().max(120), created: iso, expires: iso, passkey: z.string().max(1400), revoked: iso.optional() });
const inviteSchema = z.object({ digest: z.string().min(1).max(100), created: iso, expires: iso, used: iso.optional() });
const memberSchema = z.object({
  /** The person id: sessions carry it, private memory is kept under it. */
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(80),
  /** From the invite (`editor` or `member`), or the role of the `/web` link they first added a passkey with. */
  role: z.enum(ROLES),
  /** Linked to this Discord account (then `id` is the Discord user id). */
  discord: z.boolean().default(false),
  created: iso,
  revoked: iso.optional(),
  invites: z.array(inviteSchema).default([]),
  passkeys: z.array(passkeySchema).default([]),
  sessions: z.array(sessionSchema).default([]),
});
const fileSchema = z.object({ members: z.array(memberSchema).default([]) });

export type Member = z.infer<typeof memberSchema>;
export type Passkey = z.infer<typeof passkeySchema>;

/** Why an invite or a passkey does not let someone in, in words the person reads. */
export class NotLetIn extends Error {}

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A Discord user id: a snowflake, digits only. */
export const DISCORD_ID = /^\d{5,25}$/;

export class MemberBook {
  private members: Member[];

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
  ) {
    this.members = MemberBook.read(file);
  }

  private static read(file: string): Member[] {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    // a damaged file must not quietly drop every member's passkeys on the next write
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${file} is not JSON: fix it or move it away (members then need new invites)`);
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) throw new Error(`${file} does not hold the web app's members: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
    return parsed.data.members;
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(this.file, `${JSON.stringify({ members: this.members }, null, 1)}\n`, { mode: 0o600 });
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }

  list(): readonly Member[] {
    return this.members;
  }

  get(id: string): Member | undefined {
    return this.members.find((m) => m.id === id);
  }

  /** A new member with their first invite; the token is returned once and kept only as a digest. */
  invite(who: { name: string; role: InviteRole; discordId?: string }): { member: Member; token: string; expires: string } {
    if (who.discordId && this.members.some((m) => m.id === who.discordId && !m.revoked)) throw new NotLetIn('That Discord account is already a member: make a new invite from their row instead.');
    const member: Member = {
      id: who.discordId ?? `web-${randomBytes(9).toString('base64url')}`,
      name: who.name,
      role: who.role,
      discord: !!who.discordId,
      created: this.stamp(),
      invites: [],
      passkeys: [],
      sessions: [],
    };
    // a member removed before comes back as the same person (their private memory stays theirs)
    this.members = this.members.filter((m) => m.id !== member.id);
    this.members.push(member);
    return { member, ...this.reinvite(member.id) };
  }

  /** Another invite for a member (a new phone): earlier unused invites stop working. */
  reinvite(id: string): { token: string; expires: string } {
    const member = this.get(id);
    if (!member || member.revoked) throw new NotLetIn('No such member.');
    const token = `i.${randomBytes(24).toString('base64url')}`;
    const expires = new Date(this.now() + INVITE_HOURS * 3_600_000).toISOString();
    for (const i of member.invites) i.used ??= this.stamp();
    member.invites.push({ digest: digest(token), created: this.stamp(), expires });
    this.save();
    return { token, expires };
  }

  /** The member an invite is for, while it is unused and unexpired; otherwise says why not. */
  openInvite(token: string): Member {
    const d = digest(token);
    const member = this.members.find((m) => m.invites.some((i) => i.digest === d));
    const invite = member?.invites.find((i) => i.digest === d);
    if (!member || !invite) throw new NotLetIn('This invite link is not known here. Ask the person who runs Charlie for a new one.');
    if (member.revoked) throw new NotLetIn('This invite was withdrawn. Ask the person who runs Charlie for a new one.');
    if (invite.used) throw new NotLetIn('This invite link was already used. Each link works once: ask the person who runs Charlie for a new one.');
    if (Date.parse(invite.expires) < this.now()) throw new NotLetIn(`This invite link expired (links last ${INVITE_HOURS} hours). Ask the person who runs Charlie for a new one.`);
    return member;
  }

  /** Uses up an invite: its passkey was made. */
  useInvite(token: string, passkey: Passkey): Member {
    const member = this.openInvite(token);
    const invite = member.invites.find((i) => i.digest === digest(token));
    if (invite) invite.used = this.stamp();
    member.passkeys.push(passkey);
    this.save();
    return member;
  }

  /**
   * The member record of someone signed in with a `/web` link (their id is their Discord user id),
   * made when they first add a passkey; a member the owner removed is refused.
   */
  enroll(user: { id: string; name: string; role: Role }): Member {
    const known = this.get(user.id);
    if (known?.revoked) throw new NotLetIn('The person who runs Charlie removed you as a member here. Ask them for a new invite.');
    if (known) return known;
    const member: Member = { id: user.id, name: user.name, role: user.role, discord: true, created: this.stamp(), invites: [], passkeys: [], sessions: [] };
    this.members.push(member);
    this.save();
    return member;
  }

  /** A passkey a signed-in member made for another device. */
  addPasskey(memberId: string, passkey: Passkey): Member {
    const member = this.get(memberId);
    if (!member || member.revoked) throw new NotLetIn('The person who runs Charlie removed you as a member here. Ask them for a new invite.');
    member.passkeys.push(passkey);
    this.save();
    return member;
  }

  /** The member a passkey signs in, and the passkey; otherwise says why not. */
  passkey(credentialId: string): { member: Member; passkey: Passkey } {
    for (const member of this.members) {
      const passkey = member.passkeys.find((p) => p.id === credentialId);
      if (!passkey) continue;
      if (member.revoked) throw new NotLetIn(`${member.name} is no longer a member here, so this passkey does not sign in. Ask the person who runs Charlie for a new invite.`);
      if (passkey.revoked) throw new NotLetIn('This device was removed by the person who runs Charlie, so its passkey no longer signs in. Ask them for a new invite.');
      return { member, passkey };
    }
    throw new NotLetIn('This passkey is not known here. Sign in with the passkey you made for Charlie, or ask the person who runs Charlie for a new invite.');
  }

  /** A passkey signed in: its new counter, and the session it opened. */
  signedIn(member: Member, passkey: Passkey, counter: number, session: { sid: string; expires: string; label: string }): void {
    passkey.counter = counter;
    passkey.lastUsed = this.stamp();
    const now = this.now();
    // sessions that ended long ago are of no use to the owner's list
    member.sessions = member.sessions.filter((s) => Date.parse(s.expires) > now);
    member.sessions.push({ ...session, passkey: passkey.id, created: this.stamp() });
    this.save();
  }

  /** Removes one passkey — the device — (kept as revoked, so signing in with it says why); returns the sessions it opened, for the caller to end. */
  revokePasskey(memberId: string, credentialId: string): { sid: string; expires: number }[] | null {
    const member = this.get(memberId);
    const passkey = member?.passkeys.find((p) => p.id === credentialId && !p.revoked);
    if (!member || !passkey) return null;
    const stamp = this.stamp();
    passkey.revoked = stamp;
    const live = member.sessions.filter((s) => s.passkey === credentialId && !s.revoked);
    for (const s of live) s.revoked = stamp;
    this.save();
    return live.map((s) => ({ sid: s.sid, expires: Date.parse(s.expires) }));
  }

  /** Marks one session ended; the caller ends it in the session store. */
  revokeSession(memberId: string, sid: string): { sid: string; expires: number } | null {
    const session = this.get(memberId)?.sessions.find((s) => s.sid === sid && !s.revoked);
    if (!session) return null;
    session.revoked = this.stamp();
    this.save();
    return { sid, expires: Date.parse(session.expires) };
  }

  /** Removes a member: every passkey and invite stops working; returns the sessions the caller must end. */
  revokeMember(memberId: string): { sid: string; expires: number }[] | null {
    const member = this.get(memberId);
    if (!member || member.revoked) return null;
    const stamp = this.stamp();
    member.revoked = stamp;
    for (const p of member.passkeys) p.revoked ??= stamp;
    for (const i of member.invites) i.used ??= stamp;
    const live = member.sessions.filter((s) => !s.revoked);
    for (const s of live) s.revoked = stamp;
    this.save();
    return live.map((s) => ({ sid: s.sid, expires: Date.parse(s.expires) }));
  }
}
