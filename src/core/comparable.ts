/**
 * How names and facts are compared when deciding whether two say the same: accents folded,
 * case ignored, punctuation as spacing ("Zoë's plan!" ~ "zoe s plan"). Pure.
 */
export function comparable(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
