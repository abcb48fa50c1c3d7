/**
 * A scripted sentence embedder for tests: words of one concept group ("bought", "purchase")
 * share a dimension, so a paraphrase is near its source with no model download; every other
 * word is hashed into dimensions of its own. `semantic` and `locality` are set per test.
 */
import type { Embedder, Locality } from '../../src/core/ports/index.js';

export class ConceptEmbedder implements Embedder {
  readonly dimensions = 64;
  readonly semantic = true;
  readonly texts: string[] = [];
  private readonly concept = new Map<string, number>();

  constructor(
    groups: readonly (readonly string[])[],
    readonly locality: Locality = 'local',
  ) {
    groups.forEach((g, i) => g.forEach((w) => this.concept.set(w, i)));
  }

  get id(): string {
    return `concept-test:${this.dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return texts.map((t) => {
      const v = new Float32Array(this.dimensions);
      for (const w of t.toLowerCase().match(/\p{L}+/gu) ?? []) {
        const c = this.concept.get(w);
        if (c !== undefined) v[c]! += 1;
        else v[16 + ([...w].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % 48)]! += 0.15;
      }
      return v;
    });
  }
}
