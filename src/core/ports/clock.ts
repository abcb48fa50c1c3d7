/** Ports owned by the core: clock. Adapters implement them; nothing here imports infrastructure. */

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
