/**
 * Where a message comes from and the message itself, as a front door hands them to the core:
 * the lowest type of the core, imported by the turn, the homes, the time desks and the tools
 * alike (it imports nothing but the ports' ProjectOrigin).
 */
import type { ProjectOrigin } from './ports/index.js';

/**
 * Where a message came from, as a front door knows it: a shared project (Markdown) or a private
 * DM (SQLite only). The assistant resolves it into a `Home` (core/home.ts) once per call.
 */
export type Place = { kind: 'project'; origin: ProjectOrigin } | { kind: 'private'; userId: string; userName: string };

/** The one stable key of a place (for per-place queues and buttons): the origin key, or `dm:<userId>`. */
export function placeKey(place: Place): string {
  return place.kind === 'project' ? place.origin.key : `dm:${place.userId}`;
}

export interface IncomingMessage {
  place: Place;
  speaker: string;
  /** Stable id of the speaker (Discord user id), used for nothing but attribution. */
  speakerId?: string;
  text: string;
  /** Link back to the message: Discord URL, `terminal:<ms>`, `voice:<ms>`. */
  source: string;
  time?: Date;
  /** Image URLs (https: or data:) sent as image parts when the model accepts images. */
  images?: string[];
  mode?: 'text' | 'voice';
  /** false = archive the message but do not answer (a channel message not addressed to Charlie). */
  reply?: boolean;
}
