/**
 * Who may talk to Charlie: allow-listed users (empty list = only the application's owner)
 * and, in a guild, allow-listed guilds (empty list = only the owner, in any guild).
 * The owner ids come from the application (owner or team members) after login.
 */

export interface AccessLists {
  allowedUsers: readonly string[];
  allowedGuilds: readonly string[];
}

export interface AccessRequest {
  userId: string;
  /** null / undefined for a DM. */
  guildId?: string | null;
}

export class AccessPolicy {
  private owners = new Set<string>();

  constructor(private readonly lists: AccessLists) {}

  setOwners(ids: Iterable<string>): void {
    this.owners = new Set(ids);
  }

  get ownerIds(): readonly string[] {
    return [...this.owners];
  }

  isOwner(userId: string): boolean {
    return this.owners.has(userId);
  }

  userAllowed(userId: string): boolean {
    return this.owners.has(userId) || this.lists.allowedUsers.includes(userId);
  }

  allows(request: AccessRequest): boolean {
    if (!this.userAllowed(request.userId)) return false;
    if (!request.guildId) return true;
    if (this.lists.allowedGuilds.length === 0) return this.owners.has(request.userId);
    return this.lists.allowedGuilds.includes(request.guildId);
  }
}

/** Application owner ids: the owner user, or every member of the owning team. */
export function ownerIdsOf(owner: unknown): string[] {
  if (!owner || typeof owner !== 'object') return [];
  const o = owner as { id?: string; members?: Map<string, unknown> | { keys(): Iterable<string> }; ownerId?: string | null };
  if (o.members && typeof o.members.keys === 'function') return [...o.members.keys()];
  return o.id ? [o.id] : [];
}
