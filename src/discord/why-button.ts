/**
 * The "why?" button under a reply that used memory. Its custom id carries only the block ids of
 * the records the turn's tools showed the model (`why:r-3f9a1c,r-88d0e2`): hashes, never the
 * user's text, and nothing to expire when Charlie restarts. The press is answered by
 * `commands/memory-why.ts` (prefix `why`), in the channel's own project.
 */
import { ButtonStyle, ComponentType } from 'discord.js';
import { RECORD_ID } from '../core/records/line-syntax.js';
import type { ButtonRow } from './note-board.js';

export const WHY_PREFIX = 'why';
/** Discord's limit on a custom id. */
const CUSTOM_ID_MAX = 100;

/** The button for these records (as many as fit in a custom id), or null when the reply used none. */
export function whyButtonRow(records: readonly string[] | undefined): ButtonRow | null {
  let id = `${WHY_PREFIX}:`;
  for (const r of new Set(records ?? [])) {
    if (!RECORD_ID.test(r)) continue;
    const next = `${id}${id.endsWith(':') ? '' : ','}${r}`;
    if (next.length > CUSTOM_ID_MAX) break;
    id = next;
  }
  if (id.endsWith(':')) return null;
  return { type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Secondary, label: '❔ why?', custom_id: id }] };
}

/** The record ids a custom id carries; null when it is not a well-formed why? id. */
export function recordsOfWhyId(customId: string): string[] | null {
  const [prefix, list = ''] = customId.split(':');
  if (prefix !== WHY_PREFIX) return null;
  const ids = list.split(',').filter(Boolean);
  return ids.length > 0 && ids.every((i) => RECORD_ID.test(i)) ? ids : null;
}
