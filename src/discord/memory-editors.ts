/**
 * A Discord person's role in the role table (src/core/roles.ts): Charlie's owner is `owner`;
 * the server owner, a member with Manage Server, or a member with the role named (or id given)
 * in DISCORD_MEMORY_EDITOR_ROLE is an `editor`; every other allowed person a `member`. In a DM
 * the memory is the person's own, so everything but Charlie's settings is theirs to change.
 * The router checks a command's action when it runs and again when one of its buttons or modals
 * is submitted, so a button shown to an editor cannot be pressed by someone else.
 */
import { PermissionFlagsBits, type BaseInteraction, type Client, type GuildMember } from 'discord.js';
import { may, ROLE_TABLE, type Action, type Role } from '../core/roles.js';
import type { AccessPolicy } from './access.js';

export type EditorVerdict = { ok: true } | { ok: false; reason: string };

function hasEditorRole(roleIds: readonly string[], guildRoles: { id: string; name: string }[], editorRole: string | undefined): boolean {
  if (!editorRole) return false;
  const named = guildRoles.filter((r) => r.name === editorRole).map((r) => r.id);
  return roleIds.includes(editorRole) || roleIds.some((id) => named.includes(id));
}

/** The role of whoever sent `interaction`, in its server; null in a DM (their own memory). */
export function discordRole(interaction: BaseInteraction, access: AccessPolicy, editorRole: string | undefined): Role | null {
  if (!interaction.guildId) return null;
  const userId = interaction.user.id;
  if (access.isOwner(userId)) return 'owner';
  if (interaction.guild?.ownerId === userId) return 'editor';
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return 'editor';
  const member = interaction.member;
  const roleIds: string[] = !member ? [] : Array.isArray(member.roles) ? member.roles : [...member.roles.cache.keys()];
  const guildRoles = [...(interaction.guild?.roles.cache.values() ?? [])].map((r) => ({ id: r.id, name: r.name }));
  return hasEditorRole(roleIds, guildRoles, editorRole) ? 'editor' : 'member';
}

/**
 * The role of the author of a guild message or a voice speaker (`member` of that guild);
 * in a DM (no member), Charlie's owner is `owner` and everyone else `member`: their own items
 * carry their id, so the role only matters for shared items, which a DM does not answer for.
 */
export function memberRole(userId: string, member: GuildMember | null, access: AccessPolicy, editorRole: string | undefined): Role {
  if (access.isOwner(userId)) return 'owner';
  if (!member) return 'member';
  if (member.guild.ownerId === userId || member.permissions.has(PermissionFlagsBits.ManageGuild)) return 'editor';
  const guildRoles = [...member.guild.roles.cache.values()].map((r) => ({ id: r.id, name: r.name }));
  return hasEditorRole([...member.roles.cache.keys()], guildRoles, editorRole) ? 'editor' : 'member';
}

/** Whether the sender may do `action` here, with the refusal (saying how one becomes an editor) when not. */
export function mayDo(interaction: BaseInteraction, access: AccessPolicy, editorRole: string | undefined, action: Action): EditorVerdict {
  const role = discordRole(interaction, access, editorRole);
  if (role === null ? action !== 'settings' : may(role, action)) return { ok: true };
  if (action === 'settings') return { ok: false, reason: `Only Charlie's owner may ${ROLE_TABLE.settings.covers}.` };
  const who = `Charlie's owner, someone with **Manage Server**${editorRole ? `, or the **${editorRole}** role` : ''}`;
  return { ok: false, reason: `Only ${who} can change this channel's shared memory (${ROLE_TABLE[action].covers}). You can still read it (\`/memory show\`, \`/memory search\`).` };
}

/**
 * A person's role across the servers Charlie is in (for a `/web` link, asked for in a DM): the
 * highest of their roles there; `member` when no server answers.
 */
export async function roleAcrossServers(client: Client, userId: string, access: AccessPolicy, editorRole: string | undefined): Promise<Role> {
  if (access.isOwner(userId)) return 'owner';
  for (const guild of client.guilds.cache.values()) {
    if (!access.allows({ userId, guildId: guild.id })) continue;
    if (guild.ownerId === userId) return 'editor';
    const member: GuildMember | null = await guild.members.fetch(userId).catch(() => null);
    if (member && memberRole(userId, member, access, editorRole) === 'editor') return 'editor';
  }
  return 'member';
}
