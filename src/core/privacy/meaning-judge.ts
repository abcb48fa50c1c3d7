/**
 * The built-in judge by meaning: without a local memory lane, the rules table was the only net,
 * and a new wording of a secret ("eight weeks gone", "a TOP at the BPAS place") passed it (the
 * fourth outside sweep: 37 of 54 new shapes reached a hosted service). This judge reads what a
 * text means, with a small sentence encoder that runs on this machine (Universal Sentence
 * Encoder lite, shipped inside its npm package: nothing is downloaded), and compares it with
 * sensitive and ordinary example sentences (meaning-examples.ts). A text is sensitive when its
 * nearest sensitive example is at least THRESHOLD alike and nearer than every ordinary one
 * (MARGIN); it takes that example's kind.
 *
 * It judges in the precheck's place when there is no local lane (precheck.ts): the same
 * deadline, the same Stop, and when it cannot judge (the encoder did not load, the deadline
 * passed) the same answer, sensitive until judged. It reads English only: text in another
 * language (language.ts) is not judged, and is kept from hosted services as unjudged.
 */
import type { Embedder } from '../ports/index.js';
import { classifyText, type SensitivityValue } from './sensitivity.js';
import { labelFor } from '../writing/sensitivity-verdict.js';
import { readsAsEnglish } from './language.js';
import { ORDINARY_EXAMPLES, SENSITIVE_EXAMPLES, type SensitiveExample } from './meaning-examples.js';

/**
 * Chosen on the examples alone (each sensitive example judged against the others, leave one out)
 * and LoCoMo's development messages as ordinary talk: 0.45 and 0 kept 90 % of the examples with
 * 1.6 % of those messages labelled; 0.40 / 0.05 kept fewer (87 %) with more labelled (2.5 %). With
 * the examples added after the fifth sweep, the same setting labels 2.3 % (docs/privacy.md).
 */
export const THRESHOLD = 0.45;
export const MARGIN = 0;

/** The label of a text the judge cannot read (another language): sensitive until something local judges it. */
const UNREAD: SensitivityValue = { sensitivity: 'sensitive', unjudged: true };

/** The judge's reading of one text: how near its nearest sensitive and ordinary examples are. */
export interface Nearness {
  sensitive: number;
  ordinary: number;
  /** The nearest sensitive example. */
  example: number;
}

export class MeaningJudge {
  private examples: Promise<{ sensitive: Float32Array[]; ordinary: Float32Array[] }> | null = null;

  /** `encoder`: a local sentence encoder (it may load at its first `embed`, and reject when it cannot). */
  constructor(
    private readonly encoder: Embedder,
    private readonly sensitive: readonly SensitiveExample[] = SENSITIVE_EXAMPLES,
    private readonly ordinary: readonly string[] = ORDINARY_EXAMPLES,
  ) {}

  /** Loads the encoder and embeds the examples now (start-up calls it in the background). */
  warm(): Promise<void> {
    return this.vectors().then(() => undefined);
  }

  /**
   * Each text's label (null: ordinary). A text in another language is not read (language.ts): its
   * label is the unjudged one, kept from hosted services. Rejects when the encoder cannot load or embed.
   */
  async labels(texts: readonly string[]): Promise<(SensitivityValue | null)[]> {
    const read = texts.map((t) => readsAsEnglish(t));
    // a single word has no sentence for the encoder to read: it lands by its letters near whatever
    // example begins with a like name (seventh sweep: the page title "Alice" read as sensitive, and
    // the person's whole USER.md was withheld); one word is the rules table's to judge, a word list
    const judged = texts.map((t, i) => read[i] && !singleWord(t));
    // a request that frames what it carries ("can you put this in the family calendar: …") pulls
    // the whole text towards the ordinary requests; what follows the frame is read alone as well
    // (tenth sweep: two lines the judge labelled on their own passed inside such a request)
    const readings = texts.map((t, i) => (judged[i] ? [t, ...framed(t)] : []));
    const near = await this.nearness(readings.flat());
    let next = 0;
    return read.map((english, i) => {
      if (!english) return { ...UNREAD };
      if (!judged[i]) return null;
      const n = readings[i]!.map(() => near[next++]!).find((r) => isSensitiveNearness(r));
      return n ? this.kindOf(n.example) : null;
    });
  }

  /** How near each text lands (the benchmark reads it to report the trade-off). */
  async nearness(texts: readonly string[]): Promise<Nearness[]> {
    const { sensitive, ordinary } = await this.vectors();
    const vectors = texts.length ? await this.encoder.embed([...texts]) : [];
    return vectors.map((raw) => {
      const v = unit(raw);
      let best = -1;
      let example = 0;
      sensitive.forEach((s, i) => {
        const d = dot(v, s);
        if (d > best) [best, example] = [d, i];
      });
      return { sensitive: best, ordinary: Math.max(-1, ...ordinary.map((o) => dot(v, o))), example };
    });
  }

  private kindOf(example: number): SensitivityValue {
    const [text, kind] = this.sensitive[example]!;
    if (kind) return labelFor(kind);
    // an example written down without a kind takes the rules' (a passport number: credential)
    const rules = classifyText(text);
    return rules?.sensitivity === 'sensitive' ? rules : { sensitivity: 'sensitive' };
  }

  private vectors(): Promise<{ sensitive: Float32Array[]; ordinary: Float32Array[] }> {
    this.examples ??= (async () => {
      const [sensitive, ordinary] = await Promise.all([this.encoder.embed(this.sensitive.map(([t]) => t)), this.encoder.embed([...this.ordinary])]);
      return { sensitive: sensitive.map(unit), ordinary: ordinary.map(unit) };
    })();
    // a failed embedding is tried again at the next text (the encoder says whether its load is)
    this.examples.catch(() => (this.examples = null));
    return this.examples;
  }
}

/** What a short request's frame carries: the words after its first colon, when the frame is short and they are a sentence ("remind me: …"). */
export function framed(text: string): string[] {
  const colon = text.indexOf(':');
  if (colon < 0) return [];
  const head = text.slice(0, colon).trim().split(/\s+/);
  const tail = text.slice(colon + 1).trim();
  // a time ("at 10:30") is no frame; nor is a label of a word or two ("Note: ok")
  if (/\d$/.test(text.slice(0, colon)) || head.length < 2 || head.length > 14 || tail.split(/\s+/).length < 4) return [];
  return [tail];
}

/** One word, whatever marks surround it ("Alice", "#garden", "Dr."). */
const singleWord = (text: string): boolean => /^[^\p{L}\p{N}]*[\p{L}\p{N}][\p{L}\p{N}'’.-]*[^\p{L}\p{N}]*$/u.test(text.trim());

/** The rule: near enough a sensitive example, and nearer it than any ordinary one. */
export function isSensitiveNearness(n: Nearness, threshold = THRESHOLD, margin = MARGIN): boolean {
  return n.sensitive >= threshold && n.sensitive - n.ordinary >= margin;
}

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
