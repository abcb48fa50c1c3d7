/**
 * Your private memory is yours to see and delete: what Charlie holds about one user from their
 * DMs (summary, decisions, quotes, message count), forgetting an item or a range of messages
 * (with tombstones, so distillation does not learn it again), and wiping everything. Every
 * function takes the user id of the person asking — front doors pass the id of whoever sent
 * the command, so nobody, the owner included, can reach another user's private memory.
 */
import type { PrivateApi, PrivateForgetOutcome, PrivateForgetTarget, PrivateMemoryView } from '../assistant-api.js';
import type { Place } from '../place.js';
import type { Clock, LogEntry, Logger, MemoryLayers, PrivateStore } from '../ports/index.js';
import { fingerprint } from '../inspector/tombstones.js';

export function showPrivate(store: PrivateStore, userId: string): PrivateMemoryView {
  const { summary, decisions, quotes, style } = store.readLayers(userId);
  return { layers: { summary, decisions, quotes }, style, messages: store.messageStats(userId), forgotten: store.tombstones(userId).length };
}

export function forgetPrivate(store: PrivateStore, userId: string, target: PrivateForgetTarget, when: string): PrivateForgetOutcome {
  const current = store.readLayers(userId);
  const layers: MemoryLayers = { summary: current.summary, decisions: current.decisions, quotes: current.quotes };
  const tomb = (kind: 'decision' | 'quote', date: string, text: string) =>
    store.addTombstone(userId, { kind, description: `private ${kind} of ${date || 'unknown date'}`, keys: [fingerprint(text)], when, by: 'you' });
  if (target.kind === 'summary') {
    if (!layers.summary.trim()) return { forgotten: false, description: 'the summary (it was empty)', messages: 0 };
    store.writeLayers(userId, { ...layers, summary: '' }, current.distilledThrough);
    return { forgotten: true, description: 'the summary', messages: 0 };
  }
  if (target.kind !== 'messages') {
    const list = target.kind === 'decision' ? layers.decisions : layers.quotes;
    const item = list[target.index - 1];
    if (!item) return { forgotten: false, description: `${target.kind} ${target.index} (there is none)`, messages: 0 };
    tomb(target.kind, item.date, item.text);
    store.writeLayers(userId, layers, current.distilledThrough);
    return { forgotten: true, description: `the ${target.kind} of ${item.date || 'unknown date'}`, messages: 0 };
  }
  // A range of messages: they go, and so does what was distilled from them (by source link).
  const before = store.recentMessages(userId, 100_000);
  const deleted = store.deleteMessages(userId, target);
  const remaining = new Set(store.recentMessages(userId, 100_000).map((e) => `${e.time}\u0000${e.source}`));
  const gone = new Set(before.filter((e) => !remaining.has(`${e.time}\u0000${e.source}`)).map((e) => e.source));
  for (const d of layers.decisions) if (gone.has(d.source)) tomb('decision', d.date, d.text);
  for (const q of layers.quotes) if (gone.has(q.source)) tomb('quote', q.date, q.text);
  store.writeLayers(userId, layers, current.distilledThrough);
  const description = 'lastN' in target ? `your last ${deleted} message(s)` : `${deleted} message(s) since ${target.sinceTime.slice(0, 16).replace('T', ' ')} UTC`;
  return { forgotten: deleted > 0, description, messages: deleted };
}

/** The private slice of the assistant: every method serves only the user of a private place. */
export class PrivateMemory implements PrivateApi {
  private readonly wipeListeners: ((userId: string) => void)[] = [];

  constructor(private readonly deps: { store: PrivateStore; clock: Clock; logger: Logger; idle: () => Promise<void> }) {}

  onWipe(listener: (userId: string) => void): void {
    this.wipeListeners.push(listener);
  }

  recentMessages(userId: string, limit: number): LogEntry[] {
    return this.deps.store.recentMessages(userId, limit);
  }

  /** What Charlie holds privately about the user of a private place (null elsewhere). */
  async privateMemory(place: Place): Promise<PrivateMemoryView | null> {
    return place.kind === 'private' ? showPrivate(this.deps.store, place.userId) : null;
  }

  /** Forgets an item or a range of the user's own private memory; never another user's. */
  async forgetPrivate(place: Place, target: PrivateForgetTarget): Promise<PrivateForgetOutcome> {
    if (place.kind !== 'private') return { forgotten: false, description: 'private memory is forgotten from a DM', messages: 0 };
    const out = forgetPrivate(this.deps.store, place.userId, target, this.deps.clock.now().toISOString());
    if (out.forgotten) this.deps.logger.info({ kind: target.kind, messages: out.messages }, 'private memory forgotten');
    return out;
  }

  /** Deletes every row of this user's private memory, after the background work on it settled. */
  async wipePrivate(place: Place): Promise<boolean> {
    if (place.kind !== 'private') return false;
    await this.deps.idle();
    this.deps.store.wipe(place.userId);
    // a front door's stores go too; one that fails is logged, and the others still forget
    for (const listener of this.wipeListeners) {
      try {
        listener(place.userId);
      } catch (err) {
        this.deps.logger.error({ err }, 'a private conversation store was not wiped');
      }
    }
    this.deps.logger.info('private memory wiped');
    return true;
  }
}
