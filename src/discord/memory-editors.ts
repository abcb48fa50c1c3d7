/**
 * Who may change a channel's shared memory (`/memory edit`, `/memory forget`, `/project style`,
 * `/project respond`, `/project distill`, and their buttons and modals): Charlie's owner, the
 * server owner, a member with Manage Server, or a member with the role named (or id given) in
 * DISCORD_MEMORY_EDITOR_ROLE. Reading stays open to every allowed user. In a DM the memory is
 * the user's own. The router checks this for the command and again when a button or modal is
 * submitted, so a button shown to an editor cannot be pressed by someone else.
 */
import { PermissionFlagsBits, type BaseInteraction } from 'discord.js';
import type { AccessPolicy } from './access.js';

export type EditorVerdict = { ok: true } | { ok: false; reason: string };

export function mayEditSharedMemory(interaction: BaseInteraction, access: AccessPolicy, editorRole: string | undefined): EditorVerdict {
  if (!interaction.guildId) return { ok: true };
  const userId = interaction.user.id;
  if (access.isOwner(userId)) return { ok: true };
  if (interaction.guild?.ownerId === userId) return { ok: true };
  if (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return { ok: true };
  if (editorRole) {
    const member = interaction.member;
    const roleIds: string[] = !member ? [] : Array.isArray(member.roles) ? member.roles : [...member.roles.cache.keys()];
    const named = interaction.guild?.roles.cache.filter((r) => r.name === editorRole).map((r) => r.id) ?? [];
    if (roleIds.includes(editorRole) || roleIds.some((id) => named.includes(id))) return { ok: true };
  }
  const who = `Charlie's owner, someone with **Manage Server**${editorRole ? `, or the **${editorRole}** role` : ''}`;
  return { ok: false, reason: `Only ${who} can change this channel's shared memory. You can still read it (\`/memory show\`, \`/memory search\`).` };
}
