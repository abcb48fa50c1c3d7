/**
 * What earns a record at first mention (DESIGN.md: "a trip earns a page at first mention"):
 * plans and trips, commitments, dated events, relationships and lasting preferences. The
 * promotion gate gives such a fact full salience, so it does not wait below the bar for a
 * second telling (issue 39: "We will fly to Lisbon on 3 May." scored 0.795 against 0.82).
 * When the memory model gives no type, the kind is read from the statement (`kindOf`), so an
 * untyped fact is judged by what it says. Hedges, passing states and routine items are lowered
 * by gate-factors.ts as before. Pure.
 */
import type { GraphFact } from '../ports/index.js';

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
/** A day, a month or a year the fact happens or is due on. */
const DATED = new RegExp(
  `\\b(?:\\d{4}-\\d{2}-\\d{2}|\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}|${MONTH} \\d{1,2}(?:st|nd|rd|th)?|(?:in|since|last|next|this|by|on|before|until|from) (?:${MONTH}|\\d{4}|spring|summer|autumn|fall|winter|christmas|easter)|(?:on|by|next|this|last|every|until|before) ${WEEKDAY}|(?:19|20)\\d{2}|tomorrow|next (?:week|month|year)|last (?:week|month|year)|(?:\\w+ )?(?:days?|weeks?|months?|years?) ago)\\b`,
  'i',
);
const PLAN =
  /\b(?:will|won't|going to|gonna|plans?(?:ning)? to|planning|intends? to|hopes? to|wants? to|about to|booked|is flying|fly(?:ing)? to|flies to|trip|travel(?:l?ing)?|visit(?:ing)?|holiday|vacation|move to|moving to|road ?trip)\b/i;
const COMMITMENT = /\b(?:will|promised|agreed to|has to|have to|needs? to|must|owes?|is due|are due|due (?:on|by)|deadline|appointment|scheduled|signed up|registered|enrolled)\b/i;
const RELATIONSHIP =
  /\b(?:sister|brother|siblings?|mother|father|mom|mum|dad|parents?|son|daughter|kids?|children|child|wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|friends?|best friend|cousin|aunt|uncle|niece|nephew|grand(?:mother|father|ma|pa|son|daughter|parents?|kids?|children)|married|engaged|divorced|colleague|boss|manager|mentor|neighbou?r|roommate|adopted)\b/i;
const PREFERENCE =
  /\b(?:loves?|loved|likes?|liked|enjoys?|enjoyed|prefers?|preferred|favou?rite|hates?|dislikes?|can'?t stand|allergic|passionate|into|fan of|vegan|vegetarian|values?|appreciates?|admires?|cherish(?:es)?|believes?|finds?|feels? (?:that|strongly)|dreams? of|aspires?|inspir(?:ed|es|ing)|motivat(?:ed|es)|proud|grateful|thankful for|important to|the importance of|interested in|keen on|excited about)\b/i;
const IDENTITY =
  /\b(?:is an?|works? (?:at|as|for|in|on)|working (?:at|as|for|in|on)|lives? in|studies|studying|grew up|born|from|speaks|is (?:a|an|the)\b|has (?:a|an|two|three|been)\b|has \w+s\b|owns?|identif(?:y|ies) as|career|job|degree|business|company|is (?:currently|still|also)|is (?:learning|training|building|writing|running|planning|working|trying|looking|hoping|considering|thinking|focusing|starting|taking|getting|making|creating|practicing|practising|preparing|organi[sz]ing|volunteering|teaching|playing|painting|reading|studying|saving))\b/i;
const EPISODE = /\b(?:went|ran|won|lost|met|made|bought|got|took|had|was|were|did|saw|read|wrote|learnt|gave|began|built|drew|found|kept|left|sold|spent|taught|told|wore|\w{3,}ed)\b/i;

/** Content words of a statement (three letters or more, not a pronoun or an auxiliary). */
const FILLER = new Set(
  "the and but for you your yours our ours are was were has have had its it’s it's this that these those then than they them their there what who how not can all any some just also very really too".split(
    ' ',
  ),
);
/** Fewer content words than this, and a statement is too short to read a kind from ("Love it", "Will do"). */
const MIN_WORDS = 2;
const contentWords = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}']{3,}/gu) ?? []).filter((w) => !FILLER.has(w));

/** Whether a statement says when: a date, a weekday, a season, "last week", "two years ago". */
export function isDated(text: string): boolean {
  return DATED.test(text) || /\b(?:yesterday|recently|today|tonight|last (?:weekend|night)|this (?:week|weekend|month|year))\b/i.test(text);
}

export type SignificantKind = 'plan' | 'commitment' | 'dated event' | 'relationship' | 'preference';

/** Why a fact earns a record at first mention, or null. */
export function significance(fact: Pick<GraphFact, 'text' | 'type' | 'due' | 'happened'>): SignificantKind | null {
  const text = fact.text;
  if (contentWords(text).length < MIN_WORDS) return null;
  const dated = !!fact.due || !!fact.happened || DATED.test(text);
  if (PLAN.test(text) && (dated || /\btrip|travel|holiday|vacation|fly|flies|flying|visit/i.test(text))) return 'plan';
  if (fact.type === 'commitment' && dated) return 'commitment';
  if (COMMITMENT.test(text) && dated) return 'commitment';
  if (dated && (fact.type === 'episode' || EPISODE.test(text))) return 'dated event';
  if (fact.type === 'relationship' || RELATIONSHIP.test(text)) return 'relationship';
  if (fact.type === 'preference' || PREFERENCE.test(text)) return 'preference';
  return null;
}

/**
 * The record kind a statement reads as, for a fact the memory model gave no type; '' for one too
 * short to be a fact at all ("Will do", "Love it": fewer than two content words).
 */
export function kindOf(text: string): string {
  if (contentWords(text).length < MIN_WORDS) return '';
  if (PLAN.test(text) || (COMMITMENT.test(text) && DATED.test(text))) return 'commitment';
  if (RELATIONSHIP.test(text)) return 'relationship';
  if (PREFERENCE.test(text)) return 'preference';
  if (IDENTITY.test(text)) return 'identity';
  if (EPISODE.test(text) || DATED.test(text)) return 'episode';
  return '';
}
