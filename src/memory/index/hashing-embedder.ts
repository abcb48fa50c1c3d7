/**
 * The built-in embedder: no weights, no network. Feature hashing of stemmed words,
 * word bigrams and character trigrams into a fixed number of signed buckets, then
 * L2-normalised. Similar wording gives similar vectors; it knows no synonyms.
 */
import type { Embedder } from '../../core/ports/index.js';
import { embedderId, normalize } from './embedder.js';
import { terms } from './text.js';

const NAME = 'builtin-hash-v2';

/** 32-bit FNV-1a. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface HashingEmbedderOptions {
  dimensions?: number;
  /** Weight of word bigrams relative to words (0: measured no better on LoCoMo dev). */
  bigramWeight?: number;
  /** Weight of character trigrams relative to words. */
  trigramWeight?: number;
}

export class HashingEmbedder implements Embedder {
  readonly locality = 'local' as const;
  readonly id: string;
  readonly dimensions: number;
  readonly semantic = false;
  private readonly bigramWeight: number;
  private readonly trigramWeight: number;

  constructor(options: HashingEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 384;
    this.bigramWeight = options.bigramWeight ?? 0;
    this.trigramWeight = options.trigramWeight ?? 0.25;
    // non-default feature weights make different vectors, so they are part of the id
    const custom = this.bigramWeight !== 0 || this.trigramWeight !== 0.25 ? `-b${this.bigramWeight}-t${this.trigramWeight}` : '';
    this.id = embedderId(`${NAME}${custom}`, this.dimensions);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    const add = (feature: string, weight: number) => {
      const h = fnv1a(feature);
      v[h % this.dimensions]! += h & 0x80000000 ? -weight : weight;
    };
    const ts = terms(text);
    const counts = new Map<string, number>();
    for (const t of ts) counts.set(t, (counts.get(t) ?? 0) + 1);
    // sub-linear term frequency so a repeated word does not dominate
    for (const [t, c] of counts) {
      add(`w:${t}`, 1 + Math.log(c));
      if (this.trigramWeight > 0 && t.length > 3) {
        const padded = `^${t}$`;
        const w = this.trigramWeight / Math.sqrt(padded.length - 2);
        for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, w);
      }
    }
    if (this.bigramWeight > 0) for (let i = 0; i + 1 < ts.length; i++) add(`b:${ts[i]} ${ts[i + 1]}`, this.bigramWeight);
    return normalize(v);
  }
}
