/**
 * A copy of a string that does not keep the text it was cut from alive.
 *
 * V8 keeps a substring of 13 or more characters (`slice`, a regex match, `split`) as a view
 * into its parent string. A chunk cut from a page and kept in the keyword index therefore kept
 * the whole page text of the moment it was cut: each turn re-chunks the day's archive page, so
 * every new message's chunk held a copy of the day so far, and the heap grew with the square of
 * a day's messages (bench:web, 50 → 250 turns: 111 copies of the day's log page, 6.4 MB, all
 * retained by `LexicalIndex.docs[].value.text`). JavaScript has no "flatten" for strings; a round
 * trip through UTF-8 makes a new sequential string, at the cost of one copy of the chunk.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8');
}
