/**
 * Taint: a reply whose turn drew on withheld or sensitive context may repeat it in words no
 * record matches ("Sure! Bob's PIN is …"), so it is marked, and a hosted service that would
 * receive it later (an online voice reading it aloud) is not given it. The ledger keeps, per
 * place, whether the turn now running is tainted and the last tainted replies, both bounded.
 */
const MAX_PLACES = 200;
const MAX_REPLIES = 50;

const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

export class TaintLedger {
  private readonly places = new Map<string, { running: { turnId: string; tainted: () => boolean } | null; replies: string[] }>();

  private entry(place: string) {
    let e = this.places.get(place);
    if (e) this.places.delete(place);
    else e = { running: null, replies: [] };
    this.places.set(place, e); // most recently used last
    while (this.places.size > MAX_PLACES) this.places.delete(this.places.keys().next().value!);
    return e;
  }

  /** A turn starts in `place`; `tainted` says, at any moment, whether it has drawn on sensitive context yet. */
  begin(place: string, turnId: string, tainted: () => boolean): void {
    this.entry(place).running = { turnId, tainted };
  }

  /** The turn ended: a tainted one's reply is remembered. Returns whether it was tainted. */
  settle(place: string, turnId: string, reply: string, alsoTainted = false): boolean {
    const e = this.places.get(place);
    if (!e || e.running?.turnId !== turnId) return alsoTainted;
    const tainted = alsoTainted || e.running.tainted();
    e.running = null;
    if (tainted && reply.trim()) e.replies.push(norm(reply));
    if (e.replies.length > MAX_REPLIES) e.replies.shift();
    return tainted;
  }

  /** Whether `text` may carry sensitive context: said while a tainted turn runs in `place`, or part of a tainted reply (of `place`, or of any place when it is unknown). */
  tainted(text: string, place?: string): boolean {
    const t = norm(text);
    if (!t) return false;
    const entries = place === undefined ? [...this.places.values()] : [this.places.get(place)].filter((e) => e !== undefined);
    return entries.some((e) => (place !== undefined && e.running?.tainted() === true) || e.replies.some((r) => r.includes(t) || t.includes(r)));
  }
}
