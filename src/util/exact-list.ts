/**
 * Short lists of numbers that hold no spare room. An array grown by `push` (or made by a spread)
 * keeps room for 16 or more elements: 190 bytes for three, against 80 for an array of its
 * length. `concat` and `slice` give one of its length only while V8's fast paths hold, which a
 * library changing `Symbol.isConcatSpreadable` or `Symbol.species` turns off for the whole
 * process (in Charlie's, each page's list made by `concat` still had room for 16). `new Array(n)`
 * below V8's preallocation bound is always of length n.
 */

/** A new array of `list`'s items and then `item`, of exactly that length. */
export function withItem(list: readonly number[], item: number): number[] {
  const out = new Array<number>(list.length + 1);
  for (let i = 0; i < list.length; i++) out[i] = list[i]!;
  out[list.length] = item;
  return out;
}

/** A copy of `list` of exactly its length. */
export function exactCopy(list: readonly number[]): number[] {
  const out = new Array<number>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = list[i]!;
  return out;
}
