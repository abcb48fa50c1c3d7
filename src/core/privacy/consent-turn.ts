/**
 * One turn's consent: when a tool reads labelled items for a hosted model (core/privacy/release.ts),
 * it asks `decide(items)` which of them may go. In `ask` mode the person whose turn it
 * is answers for the items that are theirs to answer for (`mayConsent`); a standing "always" in
 * the ledger answers without asking; `once` holds for this turn only; `no`, no answer in time, a
 * Stop, or a door that cannot ask keep them withheld, and the turn says what was held back.
 *
 * The question goes to the person through their front door, never into a model's request.
 */
import { DESTINATIONS } from './destinations.js';
import type { Releases } from './egress.js';
import type { Releasable } from './release.js';
import { itemLabel, mayConsent, type ConsentAccess, type ConsentAnswer, type ConsentItem, type ConsentLedger, type ConsentMode, type ConsentService } from './consent.js';

export interface TurnConsentDeps {
  mode: ConsentMode;
  ledger: ConsentLedger;
  /** The front door's way of asking (absent: nobody can be asked, so nothing is released). */
  access: ConsentAccess | undefined;
  timeoutMs: number;
  now: () => Date;
  /** Stop, and the turn's deadline: a question still open then is answered `no`. */
  signals: (AbortSignal | undefined)[];
  /** A line the person sees in the turn (what went, what was held back). */
  notice: (text: string) => void;
}

const serviceKey = (service: ConsentService) => `${service.kind}|${service.id}`;
const listed = (items: readonly ConsentItem[]) => items.map(itemLabel).join('; ');

export class TurnConsent implements Releases {
  /** Item ids decided in this turn, and whether they may go (`once`, `always`) or not. */
  private readonly decided = new Map<string, boolean>();
  /** One question at a time: a second request of the same turn waits for the first answer. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly texts: { service: string; id: string; text: string }[] = [];
  /** Every item decided in this turn, by id (to name what a turn drew on to the next service). */
  private readonly items = new Map<string, ConsentItem>();

  constructor(private readonly deps: TurnConsentDeps) {}

  /** Whether this turn can ask at all. */
  get asking(): boolean {
    return this.deps.mode === 'ask' && this.deps.access !== undefined;
  }

  /** The ids of the items that may go to `service` in this turn (asked once per item and turn). */
  decide(entries: readonly Releasable[], service: ConsentService): Promise<Set<string>> {
    const run = this.queue.then(async () => {
      // a ledger that cannot be read (a damaged private.db) releases nothing: fail closed, and say so
      const released = await this.decideNow(
        entries.map((e) => e.item),
        service,
      ).catch((error: unknown) => {
        this.deps.notice(`the answers you gave before could not be read (${error instanceof Error ? error.message : String(error)}); nothing marked sensitive was sent`);
        return new Set<string>();
      });
      // the words of what went: a record the egress guard would match inside them is released too
      const key = serviceKey(service);
      for (const e of entries) if (released.has(e.item.id) && !this.texts.some((t) => t.service === key && t.text === e.text)) this.texts.push({ service: key, id: e.item.id, text: e.text });
      return released;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The words of the items released in this turn, per service (the egress guard does not withhold them again). */
  releasedTexts(service: ConsentService): string[] {
    return this.texts.filter((t) => t.service === serviceKey(service)).map((t) => t.text);
  }

  private async decideNow(items: readonly ConsentItem[], service: ConsentService): Promise<Set<string>> {
    const released = new Set<string>();
    const access = this.deps.access;
    if (!this.asking || !access) return released;
    const unique = [...new Map(items.map((i) => [i.id, i])).values()];
    for (const i of unique) this.items.set(i.id, i);
    const open: ConsentItem[] = [];
    for (const item of unique) {
      const known = this.decided.get(`${service.kind}|${service.id}|${item.id}`);
      if (known !== undefined) {
        if (known) released.add(item.id);
        continue;
      }
      if (!mayConsent(access.person, item)) continue;
      if (await this.deps.ledger.allows(access.person.id, item.id, service)) {
        this.mark(service, item, true);
        released.add(item.id);
      } else open.push(item);
    }
    if (open.length === 0) return released;
    const answer = await this.ask(open, service, access);
    const at = this.deps.now().toISOString();
    const what = DESTINATIONS[service.kind].what;
    for (const item of open) {
      this.mark(service, item, answer !== 'no');
      if (answer === 'no') continue;
      released.add(item.id);
      await this.deps.ledger.record(access.person.id, item, service, answer, at);
    }
    // the turn's line is read by everyone in a shared place: there it counts the items (the question named them privately)
    const which = access.shared ? `${open.length} item${open.length === 1 ? '' : 's'} ${access.person.name} was asked about` : listed(open);
    this.deps.notice(
      answer === 'no'
        ? `held back from ${what} (${service.id}): ${which}`
        : `sent to ${what} (${service.id}) ${answer === 'always' ? 'from now on (until revoked: /privacy consents)' : 'for this answer'}: ${which}`,
    );
    return released;
  }

  /** The items released to `service` in this turn, with their words. */
  releasedEntries(service: ConsentService): Releasable[] {
    const key = serviceKey(service);
    return [...this.released(service)].flatMap((id) => {
      const item = this.items.get(id);
      const text = this.texts.filter((t) => t.service === key && t.id === id).map((t) => t.text);
      return item ? [{ item, text: text.join('\n') }] : [];
    });
  }

  /** The ids of the items that may go to `service` in this turn (the egress guard leaves them alone). */
  released(service: ConsentService): ReadonlySet<string> {
    const prefix = `${service.kind}|${service.id}|`;
    return new Set([...this.decided].filter(([k, allowed]) => allowed && k.startsWith(prefix)).map(([k]) => k.slice(prefix.length)));
  }

  private mark(service: ConsentService, item: ConsentItem, allowed: boolean): void {
    this.decided.set(`${service.kind}|${service.id}|${item.id}`, allowed);
  }

  /** The door's question, bounded: no answer in time, a Stop, the deadline or a failing door are `no`. */
  private async ask(items: ConsentItem[], service: ConsentService, access: ConsentAccess): Promise<ConsentAnswer> {
    const timeout = AbortSignal.timeout(this.deps.timeoutMs);
    const signal = AbortSignal.any([timeout, ...this.deps.signals.filter((s): s is AbortSignal => s !== undefined)]);
    if (signal.aborted) return 'no';
    const request = { asker: { id: access.person.id, name: access.person.name }, items, service, shared: access.shared, timeoutMs: this.deps.timeoutMs };
    const answered = access.ask(request, signal).catch(() => 'no' as const);
    const stopped = new Promise<'no'>((resolve) => signal.addEventListener('abort', () => resolve('no'), { once: true }));
    const answer = await Promise.race([answered, stopped]);
    return answer === 'once' || answer === 'always' ? answer : 'no';
  }
}
