/**
 * Who may do what, for every front door (Discord, the web app, the terminal): one table. A
 * front door decides only who the person is — their role — and asks `may(role, action)`; the
 * answer and its refusal are the same everywhere, so the web app cannot allow what Discord
 * refuses.
 *
 * Roles: `owner` is Charlie's owner (DISCORD_OWNER_ID, the web owner token, the terminal);
 * `editor` may change a shared project's memory (on Discord: the server owner, a member with
 * Manage Server, or the DISCORD_MEMORY_EDITOR_ROLE role; on the web: a person whose `/web`
 * link was issued to an editor); `member` is any other allowed person, who reads and talks.
 * A person's own private conversation is theirs: the table is about shared projects.
 */

export const ROLES = ['owner', 'editor', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Each action: who may, and what it covers (the words a refusal uses). */
export const ROLE_TABLE = {
  'read-memory': { who: ['owner', 'editor', 'member'], covers: "read a project's memory, search it and ask why" },
  'edit-memory': { who: ['owner', 'editor'], covers: 'edit, forget, hold, release, promote or restore shared records' },
  'rename-project': { who: ['owner', 'editor'], covers: 'rename a project' },
  'archive-project': { who: ['owner', 'editor'], covers: 'archive or unarchive a project' },
  'project-settings': { who: ['owner', 'editor'], covers: "change a project's style, when it answers, its calendars and when it distils" },
  settings: { who: ['owner'], covers: "see and change Charlie's own settings, run its checks and use its memory server" },
} as const satisfies Record<string, { who: readonly Role[]; covers: string }>;

export type Action = keyof typeof ROLE_TABLE;
export const ACTIONS = Object.keys(ROLE_TABLE) as Action[];

/** Whether `role` may do `action` in a shared project. */
export function may(role: Role, action: Action): boolean {
  return (ROLE_TABLE[action].who as readonly Role[]).includes(role);
}

/** Who may do `action`, in words: "Charlie's owner or an editor". */
export function whoMay(action: Action): string {
  const names: Record<Role, string> = { owner: "Charlie's owner", editor: 'an editor', member: 'any member' };
  const who = ROLE_TABLE[action].who.map((r) => names[r]);
  return who.length > 1 ? `${who.slice(0, -1).join(', ')} or ${who.at(-1) ?? ''}` : (who[0] ?? '');
}

/** The refusal a front door shows (it may add how one becomes an editor there). */
export function refusal(action: Action): string {
  return `Only ${whoMay(action)} may ${ROLE_TABLE[action].covers}.`;
}
