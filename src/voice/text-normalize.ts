/** Shared word-level normalisation for transcripts: lower case, no punctuation, possessives folded. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/'s\b/g, '')
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/'/g, '')
    .split(/\s+/)
    .filter(Boolean);
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * A rough English sound key: letters that sound alike collapse (ch/sh, c/k/q, ph/f, z/s,
 * y/ie/ey/ee/i endings), doubled letters and inner vowels fold, so "Charly", "Charley",
 * "Sharlie" and "Charlie" share a key.
 */
export function soundKey(word: string): string {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (!w) return '';
  w = w
    .replace(/^(kn|gn|wr)/, (m) => m.slice(1))
    .replace(/tch/g, 'x')
    .replace(/(ch|sh|sch)/g, 'x')
    .replace(/ph/g, 'f')
    .replace(/ck|q/g, 'k')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/c/g, 'k')
    .replace(/z/g, 's')
    .replace(/dg/g, 'j')
    .replace(/gh/g, '')
    .replace(/(ie|ey|ee|ea|y|i|e)$/, 'I');
  const first = w[0]!;
  const rest = w
    .slice(1)
    .replace(/[aeiouy]+/g, 'a')
    .replace(/(.)\1+/g, '$1');
  return (/[aeiou]/.test(first) ? 'a' : first) + rest;
}
