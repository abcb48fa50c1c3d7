/**
 * Routes a scheduler post to the front door that owns its place: Discord channels and DMs to
 * the bot, `terminal:` projects to the terminal chat. A front door that is not running rejects,
 * and the scheduler tries again later.
 */
import type { Place } from '../core/assistant-api.js';
import type { Outbox, OutboxMessage } from '../core/time/outbox.js';

export class OutboxRouter implements Outbox {
  private readonly doors: { owns: (place: Place) => boolean; outbox: Outbox }[] = [];

  /** A front door that delivers the places `owns` accepts (the first that accepts wins). */
  add(owns: (place: Place) => boolean, outbox: Outbox): void {
    this.doors.push({ owns, outbox });
  }

  async post(place: Place, message: OutboxMessage): Promise<void> {
    const door = this.doors.find((d) => d.owns(place));
    if (!door) throw new Error(`no front door delivers to ${place.kind === 'project' ? place.origin.key : 'this DM'} now`);
    await door.outbox.post(place, message);
  }
}

export const isTerminalPlace = (place: Place): boolean => place.kind === 'project' && place.origin.key.startsWith('terminal:');
export const isDiscordPlace = (place: Place): boolean => place.kind === 'private' || place.origin.key.startsWith('discord:');
