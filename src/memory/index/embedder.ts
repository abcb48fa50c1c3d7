/**
 * The embedder port: texts in, unit-length vectors out. The index stores every vector
 * with the embedder's id (`model:dimensions`) so a change of embedder re-embeds and
 * never mixes vectors of two models.
 */
export interface Embedder {
  /** `model:dimensions`, e.g. `Xenova/all-MiniLM-L6-v2:384` or `builtin-hash-v2:384`. */
  readonly id: string;
  readonly dimensions: number;
  /** Whether the embedder is a real sentence model (vs lexical hashing). */
  readonly semantic: boolean;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** A search query's vector, when the model wants queries phrased differently (bge prefix). */
  embedQuery?(text: string): Promise<Float32Array>;
}

/** In-place L2 normalisation; a zero vector stays zero. */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum > 0) {
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}

export function embedderId(model: string, dimensions: number): string {
  return `${model}:${dimensions}`;
}
