/**
 * Routes a scheduler post to the front door that owns its place: Discord channels and DMs to
 * the bot, `terminal:` projects to the terminal chat, `web:` projects to the web app. A post
 * asked through another front door than its place's (a reminder set in the web app's private
 * chat) goes to that door first, then to the place's own when that door cannot show it now. A
 * front door that is not running rejects, and the scheduler tries again later; when no door for
 * the place is open at all the rejection is a NoDoorOpenError (a wait, not a failed attempt),
 * and `whenOpen` hears every door that is added or opens, so what waited is delivered then.
 */
import type { Place } from '../core/place.js';
import type { Outbox, OutboxMessage } from '../core/time/outbox.js';
import { NoDoorOpenError } from '../core/time/outbox.js';

export class OutboxRouter implements Outbox {
  private readonly doors: { owns: (place: Place) => boolean; outbox: Outbox; name?: string }[] = [];
  private readonly listeners: (() => void)[] = [];

  /** `listener` runs whenever a door is added or opens (the composition root wakes the scheduler). */
  whenOpen(listener: () => void): void {
    this.listeners.push(listener);
  }

  private opened = (): void => {
    for (const l of this.listeners) l();
  };

  /** A front door that delivers the places `owns` accepts (the first that accepts wins); `name` is the door a message may ask for. */
  add(owns: (place: Place) => boolean, outbox: Outbox, name?: OutboxMessage['door']): void {
    this.doors.push({ owns, outbox, ...(name ? { name } : {}) });
    outbox.onOpen?.(this.opened);
    this.opened();
  }

  async post(place: Place, message: OutboxMessage): Promise<void> {
    const asked = message.door ? this.doors.find((d) => d.name === message.door) : undefined;
    const own = this.doors.find((d) => d !== asked && d.owns(place));
    if (asked) {
      try {
        await asked.outbox.post(place, message);
        return;
      } catch (err) {
        if (!own) throw err;
      }
    }
    if (!own) throw new NoDoorOpenError(`no front door delivers to ${place.kind === 'project' ? place.origin.key : 'this DM'} now`);
    await own.outbox.post(place, message);
  }
}

export const isTerminalPlace = (place: Place): boolean => place.kind === 'project' && place.origin.key.startsWith('terminal:');
export const isDiscordPlace = (place: Place): boolean => place.kind === 'private' || place.origin.key.startsWith('discord:');
export const isWebPlace = (place: Place): boolean => place.kind === 'project' && place.origin.key.startsWith('web:');
