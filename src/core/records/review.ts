/**
 * Review pairing, the rule both stores share (entity pages and a DM's rows in private.db): a new
 * record that disagrees with an open one about the same entity and attribute puts both into
 * review. The attribute is the record's `[about:: …]` field when it has one, else read from the
 * statement by a few plain patterns (employer, home, partner, birthday, role); a new record
 * that says the old state ended supersedes it instead (`saysChanged`). Pure.
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

/**
 * The newer record says the older state ended ("now works at Globex", "moved to Porto", "no
 * longer at Acme", "switched to tea"): it supersedes the older record of the same attribute
 * outright. Without such words two records that disagree go to review for a person.
 */
const CHANGED = /\b(?:now|no longer|not any ?more|anymore|moved|switched|changed|has left|left|quit|since then|these days|instead)\b/i;

export function saysChanged(text: string): boolean {
  return CHANGED.test(text);
}
