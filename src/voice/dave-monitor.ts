/**
 * Watches for repeated DAVE (end-to-end encryption) decryption failures. @discordjs/voice
 * reports them as connection debug lines ("Failed to decrypt a packet (N consecutive fails)")
 * or errors; past `limit` failures inside `windowMs` the session should rejoin, at most once
 * per `cooldownMs`.
 */
export interface DaveMonitorOptions {
  limit?: number;
  windowMs?: number;
  cooldownMs?: number;
  now?: () => number;
}

const FAILURE = /fail(?:ed)? to decrypt|decryption fail|DecryptionFailed/i;

export class DaveFailureMonitor {
  private failures: number[] = [];
  private lastTrip = -Infinity;
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(
    private readonly onTrip: (failures: number) => void,
    options: DaveMonitorOptions = {},
  ) {
    this.limit = options.limit ?? 50;
    this.windowMs = options.windowMs ?? 10_000;
    this.cooldownMs = options.cooldownMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  private streamErrors: number[] = [];

  /**
   * A speaker's receive stream was destroyed by a decryption error: the library had already
   * passed its own tolerance, so two of these within the window are enough to rejoin.
   */
  observeStreamError(): void {
    const t = this.now();
    this.streamErrors = this.streamErrors.filter((x) => x >= t - this.windowMs * 6);
    this.streamErrors.push(t);
    if (this.streamErrors.length >= 2 && t - this.lastTrip >= this.cooldownMs) {
      this.lastTrip = t;
      this.streamErrors = [];
      this.failures = [];
      this.onTrip(this.limit);
    }
  }

  /** Feed a connection debug line or error message; returns whether it counted as a failure. */
  observe(message: string): boolean {
    if (!FAILURE.test(message) || /reinitializing|pending transition/i.test(message)) return false;
    const t = this.now();
    this.failures.push(t);
    while (this.failures.length && this.failures[0]! < t - this.windowMs) this.failures.shift();
    if (this.failures.length >= this.limit && t - this.lastTrip >= this.cooldownMs) {
      this.lastTrip = t;
      const n = this.failures.length;
      this.failures = [];
      this.onTrip(n);
    }
    return true;
  }
}
