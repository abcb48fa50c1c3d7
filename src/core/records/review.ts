/**
 * Review pairing, the rule both stores share (entity pages and a DM's rows in private.db): a new
 * record that disagrees with an open one about the same entity and attribute puts both into
 * review. The attribute is the record's `[about:: …]` field when it has one, else read from the
 * statement by a few plain patterns (employer, home, partner, birthday, role). Pure.
 */
const ATTRIBUTES: [string, RegExp][] = [
  ['employer', /\b(?:works? (?:at|for)|working (?:at|for)|joined|employed (?:at|by)|job at|hired by|started (?:at|with)|employer is)\b/i],
  ['home', /\b(?:lives? (?:in|at)|living in|moved to|based in|relocated to|home is in)\b/i],
  ['partner', /\b(?:married to|engaged to|dating|partner is|wife is|husband is)\b/i],
  ['birthday', /\b(?:born on|birthday is)\b/i],
  ['role', /\b(?:role is|title is|works as|promoted to)\b/i],
];

export function attributeOf(text: string, about?: string): string {
  if (about?.trim()) return about.trim().toLowerCase();
  return ATTRIBUTES.find(([, re]) => re.test(text))?.[0] ?? '';
}
