/** The members API's answers (src/web/api-members.ts), as the client reads them. */

export interface MemberWire {
  /** The person id (their Discord user id when `discord`). */
  id: string;
  name: string;
  role: 'owner' | 'editor' | 'member';
  discord: boolean;
  created: string;
  revoked?: string;
  /** The newest invite: open until it expires, or used (a passkey was made) or expired. */
  invite: { expires: string; state: 'open' | 'used' | 'expired' } | null;
  passkeys: { id: string; label: string; created: string; lastUsed?: string; revoked?: string }[];
  /** Sessions a passkey opened that have not expired. */
  sessions: { id: string; label: string; created: string; expires: string; revoked?: string }[];
}

export interface MembersWire {
  members: MemberWire[];
  roles: MemberWire['role'][];
  inviteHours: number;
}

/** A member's own passkeys (Settings › Your passkeys). */
export interface OwnPasskeysWire {
  passkeys: MemberWire['passkeys'];
}

export interface InviteWire {
  member?: MemberWire;
  /** The single-use link to send the person (shown once). */
  link: string;
  expires: string;
}
