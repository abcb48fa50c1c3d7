/**
 * The port of a private conversation's own hybrid index: keyword (BM25 on stemmed terms, stop
 * words dropped), vectors from a local embedder, and usage, kept in private.db beside the DM it
 * indexes — never in the shared index, never in Markdown — and gone with `/private wipe`.
 */

/** One searchable text of a private conversation: a message, a record, a line of its memory. */
export interface PrivateDoc {
  /** Stable while the text is: `m:<message id>`, `r:<record id>`, `l:<line>`. */
  key: string;
  text: string;
}

export interface PrivateRecallHit {
  key: string;
  /** vector × wv + keyword × wk, then × (1 + usage boost × wu). */
  score: number;
  /** Cosine similarity to the query (0 when the embedder is not local or not there). */
  vector: number;
  /** BM25 over the best BM25 of this search, in [0, 1]. */
  keyword: number;
  /** Usage boost in [0, 1]: grows when the passage is retrieved, fades when it is not. */
  usage: number;
}

export interface PrivateRecallIndex {
  /**
   * The best `limit` of `docs` (the user's current searchable texts) for the query. The index
   * keeps its rows in step with `docs`: a new text is indexed, a text no longer among them is
   * deleted from the index. Returned hits count as retrieved (usage).
   */
  search(userId: string, query: string, docs: readonly PrivateDoc[], limit: number): Promise<PrivateRecallHit[]>;
}
