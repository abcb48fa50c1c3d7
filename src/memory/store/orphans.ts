/**
 * Project folders whose project.md was deleted by hand while their archive, layers and notes
 * stayed. Such a folder is recovered by the channel it belongs to (by its name, or for a Discord
 * channel by the message links in its archive) instead of splitting the memory into `name-2`.
 */
import { stat } from 'node:fs/promises';
import type { ProjectOrigin } from '../../core/ports/index.js';
import type { LogArchive } from './log-archive.js';
import { resolveInside } from '../../files/safe-path.js';

const MEMORY_PARTS = ['log', 'decisions.md', 'quotes.md', 'notes'];

/** Whether a folder without project.md still holds project memory. */
export async function holdsMemory(dir: string): Promise<boolean> {
  for (const part of MEMORY_PARTS) {
    try {
      await stat(resolveInside(dir, part));
      return true;
    } catch {
      // not there
    }
  }
  return false;
}

/** How many recent archive entries are read to recognise a Discord channel's folder. */
const RECENT = 50;

/** The orphan folder that belongs to `origin`, if any: same folder name first, then archive links. */
export async function orphanFor(orphans: string[], origin: ProjectOrigin, ownSlug: string, archive: (slug: string) => Promise<LogArchive>): Promise<string | null> {
  if (orphans.includes(ownSlug)) return ownSlug;
  if (!origin.discord) return null;
  const link = `/channels/${origin.discord.guildId}/${origin.discord.channelId}/`;
  for (const slug of orphans) {
    const entries = await (await archive(slug)).recent(RECENT);
    if (entries.some((e) => e.source.includes(link))) return slug;
  }
  return null;
}
