/** Helpers for embedder adapters (the `Embedder` port itself lives in core/ports.ts). */
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
