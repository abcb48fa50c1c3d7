/**
 * Whether the judge by meaning can read a text: its sentence encoder was trained on English, and
 * text in another language lands near whatever other-language sentence it has seen, sensitive or
 * not ("Kannst du Milch und Brot kaufen?" read as near a German health example as a German health
 * fact). So a text that reads as another language is not judged by meaning at all; the precheck
 * keeps it from hosted services as unjudged (meaning-judge.ts). This decides what the judge can
 * read, not what is sensitive: the rules table and a local model judge every language.
 *
 * A text reads as another language when at least two of its words are common function words of
 * one of the languages below (none of them an English word) and fewer are English function words,
 * or when most of its letters are not Latin (Cyrillic, Greek, Arabic, Hebrew, CJK, Indic…).
 */

const ENGLISH = new Set(
  'the and of for with my your our his her their we they she he you it this that these those have has had was were are will would be been at from but not what when where which who'.split(' '),
);

/** Function words of other languages, none of them also an English word. */
export const OTHER_LANGUAGES: Readonly<Record<string, ReadonlySet<string>>> = {
  german: new Set(
    'und du es zu im zum zur vom dass ist nicht der das den dem des ich mit sie auf für ein eine einen sich auch wir ihr noch nach bei seit wie aber oder sind hat haben kann morgen heute uns mein meine'.split(
      ' ',
    ),
  ),
  french: new Set('le la les et est une des du que qui pour dans pas sur avec je nous vous il elle ce mon ma mes sont au aux très demain chez'.split(' ')),
  spanish: new Set('el la los las y es una que por para con del se su está están pero muy mi yo tiene hay mañana en'.split(' ')),
  italian: new Set('il lo la gli le di che per una con non sono ha del della ci si ma mio mia domani è anche'.split(' ')),
  portuguese: new Set('os um uma não com para da dos das que em está são muito amanhã'.split(' ')),
  dutch: new Set('de het een en van niet met op voor dat zijn ik wij morgen ook maar'.split(' ')),
  polish: new Set('nie się jest że jak ale jutro dzieci ma na jestem będzie tak'.split(' ')),
};

const LETTERS = /\p{L}/gu;
const LATIN_LETTERS = /\p{Script=Latin}/gu;

export function readsAsEnglish(text: string): boolean {
  const letters = text.match(LETTERS)?.length ?? 0;
  if (letters > 0 && (text.match(LATIN_LETTERS)?.length ?? 0) / letters < 0.5) return false;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const english = words.filter((w) => ENGLISH.has(w)).length;
  for (const list of Object.values(OTHER_LANGUAGES)) {
    const hits = words.filter((w) => list.has(w)).length;
    if (hits >= 2 && hits > english) return false;
  }
  return true;
}
