/**
 * A three-way merge of token sequences (diff3): the stretches all three versions share are kept,
 * a stretch only one side changed takes that side, and a stretch both changed is a conflict the
 * caller resolves. Tokens match by key (a record's block id, a prose line's text); a stretch is
 * "changed" when its full contents differ. Pure; the longest common subsequence is computed on
 * what is left after the shared head and tail are trimmed.
 */

export type Chunk<T> = { kind: 'ok'; tokens: T[] } | { kind: 'stable'; base: T; ours: T; theirs: T } | { kind: 'conflict'; base: T[]; ours: T[]; theirs: T[] };

/** For each index of `a`, the index of `b` it is matched to in a longest common subsequence by key, or -1. */
export function matchByKey<T>(a: readonly T[], b: readonly T[], key: (t: T) => string): Int32Array {
  const match = new Int32Array(a.length).fill(-1);
  let head = 0;
  while (head < a.length && head < b.length && key(a[head] as T) === key(b[head] as T)) match[head] = head++;
  let tailA = a.length;
  let tailB = b.length;
  while (tailA > head && tailB > head && key(a[tailA - 1] as T) === key(b[tailB - 1] as T)) match[--tailA] = --tailB;
  const n = tailA - head;
  const m = tailB - head;
  if (n === 0 || m === 0) return match;
  const ka = a.slice(head, tailA).map(key);
  const kb = b.slice(head, tailB).map(key);
  // lengths of the LCS of suffixes, one row per element of a
  const dp = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) dp[i * (m + 1) + j] = ka[i] === kb[j] ? (dp[(i + 1) * (m + 1) + j + 1] ?? 0) + 1 : Math.max(dp[(i + 1) * (m + 1) + j] ?? 0, dp[i * (m + 1) + j + 1] ?? 0);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (ka[i] === kb[j]) {
      match[head + i] = head + j;
      i++;
      j++;
    } else if ((dp[(i + 1) * (m + 1) + j] ?? 0) >= (dp[i * (m + 1) + j + 1] ?? 0)) i++;
    else j++;
  }
  return match;
}

const same = <T>(x: readonly T[], y: readonly T[], eq: (a: T, b: T) => boolean) => x.length === y.length && x.every((t, i) => eq(t, y[i] as T));

/** The chunks of a three-way merge of `ours` and `theirs` from `base`. */
export function diff3<T>(base: readonly T[], ours: readonly T[], theirs: readonly T[], key: (t: T) => string, eq: (a: T, b: T) => boolean): Chunk<T>[] {
  const mo = matchByKey(base, ours, key);
  const mt = matchByKey(base, theirs, key);
  const out: Chunk<T>[] = [];
  const push = (b: T[], o: T[], t: T[]) => {
    if (b.length === 0 && o.length === 0 && t.length === 0) return;
    if (same(o, b, eq)) out.push({ kind: 'ok', tokens: t });
    else if (same(t, b, eq) || same(o, t, eq)) out.push({ kind: 'ok', tokens: o });
    else out.push({ kind: 'conflict', base: b, ours: o, theirs: t });
  };
  let i = 0;
  let o = 0;
  let t = 0;
  while (i <= base.length) {
    let j = i;
    while (j < base.length && ((mo[j] ?? -1) < o || (mt[j] ?? -1) < t)) j++;
    if (j === base.length) {
      push(base.slice(i), ours.slice(o), theirs.slice(t));
      break;
    }
    const jo = mo[j] ?? 0;
    const jt = mt[j] ?? 0;
    push(base.slice(i, j), ours.slice(o, jo), theirs.slice(t, jt));
    out.push({ kind: 'stable', base: base[j] as T, ours: ours[jo] as T, theirs: theirs[jt] as T });
    i = j + 1;
    o = jo + 1;
    t = jt + 1;
  }
  return out;
}
