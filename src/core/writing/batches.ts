/** Groups items in order for one model call each: the one batching rule of the memory lane's jobs. */

/** Consecutive groups whose total `weight` stays within `maxWeight` and at most `maxItems` long; an item heavier than the limit goes alone. */
export function batchBy<T>(items: readonly T[], weight: (item: T) => number, maxWeight: number, maxItems = Infinity): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let total = 0;
  for (const item of items) {
    if (current.length && (current.length >= maxItems || total + weight(item) > maxWeight)) {
      out.push(current);
      current = [];
      total = 0;
    }
    current.push(item);
    total += weight(item);
  }
  if (current.length) out.push(current);
  return out;
}
