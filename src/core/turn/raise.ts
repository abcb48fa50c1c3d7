/**
 * What Charlie brings up itself, once: a commitment past its due date becomes a follow-up the
 * next time its owner talks to Charlie ("did it happen?"), and an open review is mentioned
 * briefly the next time its entity comes up. Each is noted on the record (`[asked:: date]`,
 * `[raised:: date]`, or the same columns in private.db) so it is never repeated. Held and
 * superseded records are never raised; a sensitive record is not raised to a hosted model.
 */

/** A record as the reminder rules need it, with who it concerns in this turn. */
export interface Raisable {
  id: string;
  entity: string;
  statement: string;
  category: string;
  status: string;
  /** Decay state at the time of the turn: `expired` for a past-due commitment. */
  state: string;
  due: string;
  vs: string;
  asked: string;
  raised: string;
  sensitive: boolean;
  /** The speaker is who the record is about (their own page, or the user of a DM). */
  owner: boolean;
  /** The message names the record's entity (or the speaker is it). */
  named: boolean;
}

export interface Reminder {
  what: 'asked' | 'raised';
  ids: string[];
  /** One line for the system prompt. */
  line: string;
}

const MAX_FOLLOW_UPS = 2;
const MAX_REVIEWS = 1;

const quoted = (s: string) => `"${s.replace(/\s+/g, ' ').trim().slice(0, 200)}"`;

/** The follow-ups and review notes due in this turn; `hosted` leaves sensitive records out. */
export function remindersFor(records: readonly Raisable[], hosted: boolean): Reminder[] {
  const open = (r: Raisable) => (r.status === 'active' || r.status === 'review') && !(hosted && r.sensitive);
  const out: Reminder[] = [];
  const due = records.filter((r) => open(r) && r.owner && r.category === 'commitment' && r.state === 'expired' && !r.asked && r.id);
  for (const r of due.slice(0, MAX_FOLLOW_UPS)) {
    out.push({
      what: 'asked',
      ids: [r.id],
      line: `Follow-up: ${r.entity} committed to ${quoted(r.statement)}${r.due ? `, due ${r.due}` : ''}, which has passed. Ask once, briefly, whether it happened.`,
    });
  }
  const byId = new Map(records.map((r) => [r.id, r]));
  const seen = new Set<string>();
  for (const r of records) {
    const other = byId.get(r.vs);
    if (out.filter((x) => x.what === 'raised').length >= MAX_REVIEWS) break;
    if (!other || r.status !== 'review' || !open(r) || !open(other) || !r.named || seen.has(r.id) || r.raised || other.raised) continue;
    seen.add(r.id).add(other.id);
    out.push({
      what: 'raised',
      ids: [r.id, other.id],
      line: `Note: you hold two conflicting facts about ${r.entity}: ${quoted(r.statement)} and ${quoted(other.statement)}. Mention it once, briefly (e.g. "Note: I have two conflicting facts about ${r.entity} — /memory review"), and do not treat either as settled.`,
    });
  }
  return out;
}

/** The system prompt's part for the reminders of this turn ('' when none). */
export function remindersPrompt(reminders: readonly Reminder[]): string {
  if (reminders.length === 0) return '';
  return `\nBring these up yourself in this reply, once and briefly, alongside the answer:\n${reminders.map((r) => `- ${r.line}`).join('\n')}`;
}
