/**
 * The egress guard: the one place a request for a hosted model is finished. Every chat
 * request a turn sends (system prompt, history, the message, tool results, voice turns,
 * image captions) goes through `EgressGuard.modelFor(scope)`; the tool loop accepts only the
 * `GuardedModel` it returns, so no tool or prompt builder can reach a hosted model around it.
 *
 * What is sensitive is read from the records, not guessed: a page whose front matter says
 * `sensitivity: sensitive`, and any block (a dated note entry, a list item, a decision, a
 * quote, an archive entry, a summary) that carries the marker `[sensitivity:: sensitive]`,
 * and private-memory rows stored as sensitive. Before a hosted request leaves, every line
 * that contains a line of a sensitive record, or is part of one, becomes
 * "[withheld: People/Bob.md is marked sensitive]". A local model gets the request unchanged.
 */
import type { ChatChunk, ChatMessage, ChatModel, ChatRequest, ContentPart, Locality, TextToSpeech } from '../ports/index.js';
import { withoutMarkers } from './sensitivity.js';
import { isHeading } from '../records/line-syntax.js';
import type { ConsentItem, ConsentService } from './consent.js';

/** Something that must not reach a hosted model, and where it lives (shown in the placeholder). */
export interface SensitiveRecord {
  /** e.g. `People/Bob.md`, `decisions.md`, `log/2026-11-29.md`, `private memory`. */
  origin: string;
  text: string;
  /** The item a person can be asked about (ask-in-the-moment); absent: it is never released. */
  item?: ConsentItem;
}

/** The labelled items their person let go to a hosted service in this turn (core/privacy/consent-turn.ts). */
export interface Releases {
  released(service: ConsentService): ReadonlySet<string>;
  /** The words of what was released (a record shown inside them is released too). */
  releasedTexts(service: ConsentService): string[];
}

/** Where a turn runs, as far as the guard is concerned. */
export type EgressScope = { kind: 'project'; slug: string } | { kind: 'private'; userId: string };

/** Lists the sensitive records a request from `scope` could contain. Built by the core from its ports. */
export interface SensitiveRecords {
  list(scope: EgressScope): Promise<SensitiveRecord[]>;
}

/**
 * What the line matcher does with a line that is part of a sensitive record without showing one of
 * its lines (a cut search snippet, or an ordinary text a labelled one quotes): `withheld`, or
 * `allowed` when the text is stored texts each let go by its own label.
 */
export type QuotedLines = 'withheld' | 'allowed';

/** How the placeholder names a page that is sensitive as a whole: its path is its title, which can repeat what makes it so. */
export const SENSITIVE_PAGE = 'a page marked sensitive';

export function withheld(origin: string): string {
  return origin === SENSITIVE_PAGE ? `[withheld: ${SENSITIVE_PAGE}]` : `[withheld: ${origin} is marked sensitive]`;
}

declare const guardedBrand: unique symbol;
/** A chat model whose every request passed the egress guard. Only `EgressGuard` makes one. */
export type GuardedModel = ChatModel & { readonly [guardedBrand]: true };

const MIN_FRAGMENT = 6;
const MIN_PARTIAL = 16;

function normalise(text: string): string {
  return withoutMarkers(text).replace(/\s+/g, ' ').trim();
}

function isStructural(line: string): boolean {
  return isHeading(line) || /^[-*+>]?\s*(\d{4}-\d{2}-\d{2})?\s*[:.—-]?\s*$/.test(line);
}

interface Fragment {
  origin: string;
  text: string;
}

/** The lines of sensitive records, as matched in outgoing text. */
export class SensitiveIndex {
  private readonly fragments: Fragment[] = [];
  private readonly wholes: Fragment[] = [];

  constructor(records: SensitiveRecord[]) {
    for (const r of records) this.add(r);
  }

  get size(): number {
    return this.wholes.length;
  }

  add(record: SensitiveRecord): void {
    const whole = normalise(record.text);
    if (!whole) return;
    this.wholes.push({ origin: record.origin, text: whole.toLowerCase() });
    for (const raw of record.text.split(/\r?\n/)) {
      const line = normalise(raw);
      if (line.length < MIN_FRAGMENT || isStructural(line)) continue;
      this.fragments.push({ origin: record.origin, text: line.toLowerCase() });
    }
  }

  /** The origin of the sensitive record this line shows (or, `quoted: 'withheld'`, is part of), if any. */
  match(line: string, quoted: QuotedLines = 'withheld'): string | null {
    const norm = normalise(line).toLowerCase();
    if (norm.length < MIN_FRAGMENT) return null;
    for (const f of this.fragments) if (norm.includes(f.text)) return f.origin;
    if (quoted === 'allowed') return null;
    // A cut or partial line (a search snippet, "…" at the end) that is part of a sensitive record.
    const partial = norm.replace(/\s*(…|\.\.\.)\s*$/, '').replace(/^\s*(…|\.\.\.)\s*/, '');
    if (partial.length >= MIN_PARTIAL) for (const w of this.wholes) if (w.text.includes(partial)) return w.origin;
    return null;
  }

  /** `text` with every line that shows sensitive content replaced by a placeholder. */
  scrub(text: string, quoted: QuotedLines = 'withheld'): { text: string; withheld: string[] } {
    if (this.wholes.length === 0 || !text) return { text, withheld: [] };
    const origins: string[] = [];
    const out: string[] = [];
    for (const line of text.split('\n')) {
      const origin = this.match(line, quoted);
      if (!origin) {
        out.push(line);
        continue;
      }
      origins.push(origin);
      const placeholder = withheld(origin);
      if (out[out.length - 1]?.trim() !== placeholder) out.push(`${/^\s*/.exec(line)?.[0] ?? ''}${placeholder}`);
    }
    return { text: out.join('\n'), withheld: [...new Set(origins)] };
  }
}

/** Every text of a request through `scrub`. */
export function scrubRequest(request: ChatRequest, index: SensitiveIndex): { request: ChatRequest; withheld: string[] } {
  const withheldFrom = new Set<string>();
  const clean = (text: string): string => {
    const r = index.scrub(text);
    r.withheld.forEach((o) => withheldFrom.add(o));
    return r.text;
  };
  const messages = request.messages.map((m): ChatMessage => {
    switch (m.role) {
      case 'system':
        return { ...m, content: clean(m.content) };
      case 'tool':
        return { ...m, content: clean(m.content) };
      case 'assistant':
        return { ...m, content: m.content === null ? null : clean(m.content), ...(m.toolCalls ? { toolCalls: m.toolCalls.map((c) => ({ ...c, arguments: clean(c.arguments) })) } : {}) };
      case 'user':
        return { ...m, content: typeof m.content === 'string' ? clean(m.content) : m.content.map((p): ContentPart => (p.type === 'text' ? { ...p, text: clean(p.text) } : p)) };
    }
  });
  return { request: { ...request, messages }, withheld: [...withheldFrom] };
}

/** Records a person did not release to `service` in this turn (by item, or shown inside the words they released). */
function notReleased(releases: Releases, service: ConsentService): (r: SensitiveRecord) => boolean {
  const released = releases.released(service);
  const words = releases.releasedTexts(service).map((t) => normalise(t).toLowerCase());
  return (r) => !(r.item && released.has(r.item.id)) && !words.some((w) => w.includes(normalise(r.text).toLowerCase()));
}

/**
 * The guard. `modelFor(scope)` gives the turn its model: a local model as it is, a hosted one
 * wrapped so that each request is scrubbed against the sensitive records of the scope (read
 * once per turn) plus whatever this turn's searches brought up.
 */
export class EgressGuard {
  constructor(
    private readonly model: ChatModel,
    private readonly records: SensitiveRecords,
    private readonly onWithheld: (origins: string[]) => void = () => {},
  ) {}

  get locality(): Locality {
    return this.model.locality;
  }

  /** Text for another hosted service (the online voice): what is sensitive in `scope` is withheld. */
  async scrubText(scope: EgressScope, text: string, released?: { releases: Releases; service: ConsentService }, quoted: QuotedLines = 'withheld'): Promise<string> {
    const records = await this.records.list(scope);
    return new SensitiveIndex(released ? records.filter(notReleased(released.releases, released.service)) : records).scrub(text, quoted).text;
  }

  modelFor(scope: EgressScope, extra: () => SensitiveRecord[] = () => [], consent?: Releases): GuardedModel {
    const inner = this.model;
    if (inner.locality === 'local') return inner as GuardedModel;
    const records = this.records;
    const report = (origins: string[]) => this.onWithheld(origins);
    let stored: Promise<SensitiveRecord[]> | null = null;
    const guarded: ChatModel = {
      id: inner.id,
      locality: inner.locality,
      acceptsImages: inner.acceptsImages,
      async *stream(request: ChatRequest): AsyncIterable<ChatChunk> {
        // Read once per turn (every note of the project); what searches of this turn found is added per request.
        stored ??= records.list(scope);
        // what a person let go in this turn (asked where the tools read it, by label) is not withheld again here
        const all = [...(await stored), ...extra()];
        const index = new SensitiveIndex(consent ? all.filter(notReleased(consent, { kind: 'chat', id: inner.id })) : all);
        const { request: safe, withheld: origins } = scrubRequest(request, index);
        if (origins.length) report(origins);
        yield* inner.stream(safe);
      },
    };
    return guarded as GuardedModel;
  }
}

/**
 * A hosted voice (Edge TTS) receives the text of spoken replies: text that may carry sensitive
 * context (`mustStayLocal`: a record's words, a tainted turn's reply, what the rules call
 * sensitive) is spoken by the local voice instead, and `onLocal` tells the listener why once.
 * With no local voice, such text is not spoken at all.
 */
export function guardSpeech(tts: TextToSpeech, mustStayLocal: (text: string) => Promise<boolean>, onLocal: () => void = () => {}): TextToSpeech {
  if (tts.locality === 'local') return { id: tts.id, locality: tts.locality, synthesize: async (text, options) => ({ ...(await tts.synthesize(text, options)), spokenBy: 'local' }) };
  const local = tts.localVoice ?? null;
  let told = false;
  return {
    id: tts.id,
    locality: tts.locality,
    synthesize: async (text, options) => {
      if (!(await mustStayLocal(text))) return { ...(await tts.synthesize(text, options)), spokenBy: tts.locality };
      if (!told) {
        told = true;
        onLocal();
      }
      if (!local) throw new SpeechWithheldError();
      return { ...(await local.synthesize(text, options)), spokenBy: 'local' };
    },
  };
}

/** A sentence that may carry sensitive context and has no local voice to speak it. */
export class SpeechWithheldError extends Error {
  constructor() {
    super('not sent to the online voice: it may carry sensitive memory, and there is no local voice');
    this.name = 'SpeechWithheldError';
  }
}
