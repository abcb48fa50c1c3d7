/**
 * How a name is compared with titles and aliases: accents folded, case ignored, possessives
 * dropped ("Sarah's", "James’"), punctuation treated as spacing. Pure functions, in the core:
 * the knowledge graph and private.db's record store compare names and statements alike.
 */

/** Folds accents and compatibility forms to ASCII where possible (é → e, ß → ss, ﬁ → fi). */
export function foldAccents(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[øØ]/g, 'o');
}

/** Tokens of a name or a text: lowercase words without accents, possessive endings removed. */
export function nameTokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of foldAccents(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}'’@.]+/u)) {
    const word = raw
      .replace(/['’]s$/u, '')
      .replace(/['’]$/u, '')
      .replace(/^[.'’]+|[.'’]+$/gu, '');
    if (word) out.push(word);
  }
  return out;
}

/** The comparable form of a name: its tokens joined by one space ("Sarah Chen's" → "sarah chen"). */
export function normalizeName(name: string): string {
  return nameTokens(name).join(' ');
}

/** Normalised text for comparing two statements (facts, quotes): case, accents, punctuation ignored. */
export function normalizeStatement(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether `needle` occurs in `haystack` once both are normalised as statements. */
export function statementContains(haystack: string, needle: string): boolean {
  const n = normalizeStatement(needle);
  return n.length > 0 && ` ${normalizeStatement(haystack)} `.includes(` ${n} `);
}
