/**
 * Spreading a big graph's layout evenly over its disc (graph-layout.ts calls it after
 * ForceAtlas2). Plain arithmetic on the positions: no graphology, no DOM.
 */

/**
 * A few hubs that most pages link to pull a big wiki into one clump in the middle: each dot keeps
 * its direction from the centre, and its distance becomes its rank's, so the dots fill the disc
 * evenly (as many in the middle fifth of its area as in any other). ForceAtlas2 has no such
 * setting, and noverlap only pushes touching dots apart; this is one sort, O(n log n).
 */
export function spreadEvenly(pos: Float32Array): void {
  const n = pos.length / 2;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    cx += pos[2 * i] ?? 0;
    cy += pos[2 * i + 1] ?? 0;
  }
  cx /= n;
  cy /= n;
  const r = Array.from({ length: n }, (_, i) => Math.hypot((pos[2 * i] ?? 0) - cx, (pos[2 * i + 1] ?? 0) - cy));
  const order = r.map((_, i) => i).sort((a, b) => (r[a] ?? 0) - (r[b] ?? 0));
  const outer = r[order[n - 1] ?? 0] ?? 0;
  if (!outer) return;
  order.forEach((i, rank) => {
    const was = r[i] ?? 0;
    if (!was) return;
    const k = (outer * Math.sqrt((rank + 0.5) / n)) / was;
    pos[2 * i] = cx + ((pos[2 * i] ?? 0) - cx) * k;
    pos[2 * i + 1] = cy + ((pos[2 * i + 1] ?? 0) - cy) * k;
  });
}
