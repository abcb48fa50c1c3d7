/**
 * Chat turns that outlive the HTTP request that started them, so a reply keeps streaming into a
 * page that was reloaded: every event of a turn is numbered and kept until shortly after the turn
 * ends; a new request replays what it missed (`Last-Event-ID`) and then follows live.
 */
import { randomBytes } from 'node:crypto';

export interface TurnEventRecord {
  id: number;
  event: string;
  data: unknown;
}

type Listener = (record: TurnEventRecord | null) => void;

export interface WebTurn {
  id: string;
  /** `userId\u0000project`: who started it and where. */
  owner: string;
  startedAt: number;
  done: boolean;
  events: TurnEventRecord[];
  controller: AbortController;
  listeners: Set<Listener>;
}

export class TurnHub {
  private readonly turns = new Map<string, WebTurn>();

  constructor(
    /** How long a finished turn can still be replayed. */
    private readonly keepMs = 120_000,
    private readonly now: () => number = Date.now,
    /**
     * At most this many finished turns are kept, whatever their age: a reload replays only the
     * latest turn of its project, and a burst of turns within `keepMs` kept every event of each
     * (the web server's heap grew by ~100 KB a turn in bench:web until they expired).
     */
    private readonly keepDone = 32,
  ) {}

  static owner(userId: string, project: string): string {
    return `${userId}\u0000${project}`;
  }

  start(owner: string): WebTurn {
    this.prune();
    const turn: WebTurn = { id: randomBytes(12).toString('base64url'), owner, startedAt: this.now(), done: false, events: [], controller: new AbortController(), listeners: new Set() };
    this.turns.set(turn.id, turn);
    return turn;
  }

  push(turn: WebTurn, event: string, data: unknown): void {
    const record = { id: turn.events.length + 1, event, data };
    turn.events.push(record);
    for (const l of turn.listeners) l(record);
  }

  finish(turn: WebTurn): void {
    turn.done = true;
    turn.startedAt = this.now();
    for (const l of turn.listeners) l(null);
    turn.listeners.clear();
  }

  /** A turn started by this user (in any of their places). */
  get(id: string, userId: string): WebTurn | null {
    const t = this.turns.get(id);
    return t?.owner.startsWith(`${userId}\u0000`) ? t : null;
  }

  /** The newest turn of this user in this project that is running or just finished. */
  latest(owner: string): WebTurn | null {
    this.prune();
    let best: WebTurn | null = null;
    for (const t of this.turns.values()) if (t.owner === owner && (!best || t.startedAt >= best.startedAt)) best = t;
    return best;
  }

  running(): WebTurn[] {
    return [...this.turns.values()].filter((t) => !t.done);
  }

  /** Calls `listener` for every event after `afterId`, then live ones; null means the turn ended. Returns an unsubscribe. */
  follow(turn: WebTurn, afterId: number, listener: Listener): () => void {
    for (const r of turn.events) if (r.id > afterId) listener(r);
    if (turn.done) {
      listener(null);
      return () => {};
    }
    turn.listeners.add(listener);
    return () => turn.listeners.delete(listener);
  }

  /** Finished turns kept (for a bound's test). */
  get finished(): number {
    let n = 0;
    for (const t of this.turns.values()) if (t.done) n++;
    return n;
  }

  private prune(): void {
    const cutoff = this.now() - this.keepMs;
    for (const [id, t] of this.turns) if (t.done && t.startedAt < cutoff) this.turns.delete(id);
    let excess = this.finished - this.keepDone;
    if (excess <= 0) return;
    // the ones that finished first go first
    const done = [...this.turns.values()].filter((t) => t.done).sort((a, b) => a.startedAt - b.startedAt);
    for (const t of done) {
      if (excess-- <= 0) break;
      this.turns.delete(t.id);
    }
  }
}
