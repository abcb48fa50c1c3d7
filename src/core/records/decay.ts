/**
 * Decay, computed when a record is read (never by sweeping files):
 *   effective confidence = confidence × 0.5^(age / half-life of the category)
 * with age counted from the last time the fact was said (restating it resets `said`).
 * Identity and rules fade over years, relationships over a year, preferences over months.
 * A commitment does not fade before its due date and is `expired` after it (kept, ranked
 * far down, so Charlie can still ask whether it happened). An episode does not fade; it
 * settles into `old`. A record without a category does not decay here (the page's staleness
 * still discounts it in ranking).
 */
import type { Category, MemoryRecord } from './record.js';

/** Half-life in days; null = no decay. */
export const HALF_LIFE_DAYS: Record<Category, number | null> = {
  identity: 730,
  rule: 730,
  relationship: 365,
  preference: 180,
  /** Only for a commitment without a due date. */
  commitment: 30,
  episode: null,
};

/** An expired commitment keeps this share of its confidence. */
export const EXPIRED_FACTOR = 0.1;
/** An episode this many days past is `old`. */
export const OLD_AFTER_DAYS = 90;

export type DecayState = 'fresh' | 'fading' | 'old' | 'expired';

export interface Decayed {
  /** 0–1. */
  effective: number;
  state: DecayState;
}

const DAY_MS = 86_400_000;
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`);

export function decay(record: Pick<MemoryRecord, 'category' | 'confidence' | 'said' | 'due' | 'happened'>, now: Date): Decayed {
  const c = record.confidence;
  const said = record.said ? dayStart(record.said) : NaN;
  const ageDays = Number.isNaN(said) ? 0 : Math.max(0, (now.getTime() - said) / DAY_MS);
  if (record.category === '') return { effective: c, state: 'fresh' };
  if (record.category === 'commitment' && record.due) {
    const due = dayStart(record.due);
    // due on a day = still open until that day ends
    if (!Number.isNaN(due) && now.getTime() >= due + DAY_MS) return { effective: c * EXPIRED_FACTOR, state: 'expired' };
    return { effective: c, state: 'fresh' };
  }
  if (record.category === 'episode') {
    const at = record.happened ? dayStart(record.happened) : said;
    const old = !Number.isNaN(at) && (now.getTime() - at) / DAY_MS > OLD_AFTER_DAYS;
    return { effective: c, state: old ? 'old' : 'fresh' };
  }
  const half = HALF_LIFE_DAYS[record.category];
  if (half === null) return { effective: c, state: 'fresh' };
  const factor = Math.pow(0.5, ageDays / half);
  return { effective: c * factor, state: factor < 0.75 ? 'fading' : 'fresh' };
}
