/**
 * Taint: a reply whose turn drew on withheld or sensitive context may repeat it in words no
 * record matches ("Sure! Bob's PIN is …"). Once written, the reply carries that as its label
 * (the archive's `[sensitivity:: …]` line, a DM row's column: src/core/sensitivity.ts), which
 * survives a restart and has no window. What is kept here is only the turn *now running* in
 * each place, so the sentences spoken while it streams (before its reply is stored) are judged
 * by the turn's taint too.
 */
const MAX_PLACES = 200;

export class RunningTurns {
  private readonly places = new Map<string, { turnId: string; tainted: () => boolean }>();

  /** A turn starts in `place`; `tainted` says, at any moment, whether it has drawn on sensitive context yet. */
  begin(place: string, turnId: string, tainted: () => boolean): void {
    this.places.delete(place);
    this.places.set(place, { turnId, tainted });
    while (this.places.size > MAX_PLACES) this.places.delete(this.places.keys().next().value!);
  }

  /** The turn ended; returns whether it was tainted (or `alsoTainted`). */
  settle(place: string, turnId: string, alsoTainted = false): boolean {
    const running = this.places.get(place);
    if (running?.turnId !== turnId) return alsoTainted;
    this.places.delete(place);
    return alsoTainted || running.tainted();
  }

  /** Whether a turn is running in `place`. */
  running(place: string): boolean {
    return this.places.has(place);
  }

  /** Whether a tainted turn is running in `place` (in any place when it is unknown). */
  tainted(place?: string): boolean {
    if (place !== undefined) return this.places.get(place)?.tainted() === true;
    return [...this.places.values()].some((r) => r.tainted());
  }
}
