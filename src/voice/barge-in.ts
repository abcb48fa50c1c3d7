/**
 * Barge-in: more than `thresholdMs` of someone's voice while Charlie talks stops playback
 * and drops the queued sentences; shorter blips (echo, a cough) do nothing. Fires at most
 * once per utterance.
 */
export interface BargeInTarget {
  readonly speaking: boolean;
  interrupt(): number;
}

export class BargeInDetector {
  private readonly fired = new Set<string>();

  constructor(
    private readonly options: { enabled: boolean; thresholdMs: number },
    private readonly target: BargeInTarget,
    private readonly onBargeIn: (userId: string, dropped: number) => void = () => {},
  ) {}

  /** Called after every packet with the voice heard so far in the speaker's utterance. */
  activity(userId: string, voicedMs: number): void {
    if (!this.options.enabled || this.fired.has(userId)) return;
    if (voicedMs > this.options.thresholdMs && this.target.speaking) {
      this.fired.add(userId);
      const dropped = this.target.interrupt();
      this.onBargeIn(userId, dropped);
    }
  }

  /** The speaker's utterance ended; the next one may barge in again. */
  utteranceEnded(userId: string): void {
    this.fired.delete(userId);
  }
}
