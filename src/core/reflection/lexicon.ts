/**
 * The word tables the fact comparer reads (data, not logic): which words are verbs, auxiliaries,
 * negations, prepositions, units, antonyms and justified synonyms. A word missing here makes
 * the comparer less able to read a statement, never more willing to merge: an unread statement
 * only merges with one that says exactly the same words (fact-difference.ts).
 */

const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

/** Forms of "be", with the tense each carries. */
export const BE: Readonly<Record<string, 'present' | 'past'>> = { is: 'present', are: 'present', am: 'present', be: 'present', was: 'past', were: 'past', been: 'past', being: 'present' };
export const HAVE: Readonly<Record<string, 'present' | 'past'>> = { has: 'present', have: 'present', having: 'present', had: 'past' };
export const DO: Readonly<Record<string, 'present' | 'past'>> = { do: 'present', does: 'present', did: 'past' };
/** Modals; `will` and `shall` mark the future instead of a modal. */
export const MODALS = words('can could would should must might may ought');
export const FUTURE = words('will shall');

/** Negations: each is a polarity marker of its own ("never" is not "not"). */
export const NEGATIONS = words('not never no none nobody nothing neither nor without non');

/** Adverbs of frequency: they change what a statement claims, so they are compared. */
export const FREQUENCY = words('always usually often sometimes rarely seldom occasionally frequently regularly daily weekly monthly yearly nightly hardly');

/** Words that carry no fact of their own. Conjunctions, quantifiers and frequency adverbs are not here. */
export const FILLERS = words('a an the really very just also still currently now quite too actually definitely');

/** Subject pronouns and possessive determiners that stand for the page's own subject. */
export const SELF_PRONOUNS = words('she he they i');
export const SELF_POSSESSIVES = words('her his their my');
/** Words after which a verb-looking word is a noun ("the walk", "her work"). */
export const DETERMINERS = words("a an the her his their my our your its this that these those 's every each some any no");

export const PREPOSITIONS = words(
  'in on at to from with for by about over under above below before after since until till during near across through into onto between among against per than around behind beside towards toward via within upon',
);
/** Words that join two clauses: a statement holding one is read only word for word. */
export const CLAUSE_JOINERS = words('but because although though while when whenever if unless who which whose whom where so');

/** "stop smoking", "quit drinking", "gave up sugar": the action has ceased. */
export const CEASE_VERBS = words('stop stopped stops stopping quit quits quitting');
/** "started running", "began yoga": the action has begun. */
export const BEGIN_VERBS = words('start started starts starting begin began begins begun');

/** Irregular past forms and participles, with their base form. */
export const IRREGULAR_PAST: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'went:go gone:go gave:give given:give took:take taken:take made:make said:say got:get gotten:get came:come saw:see seen:see left:leave bought:buy sold:sell ' +
    'paid:pay met:meet ate:eat eaten:eat drank:drink drunk:drink drove:drive driven:drive wrote:write written:write spoke:speak spoken:speak broke:break broken:break ' +
    'lost:lose won:win found:find kept:keep sent:send spent:spend taught:teach thought:think told:tell knew:know known:know grew:grow grown:grow flew:fly flown:fly ' +
    'ran:run swam:swim sang:sing sat:sit stood:stand felt:feel fell:fall fallen:fall held:hold heard:hear led:lead lent:lend built:build caught:catch brought:bring ' +
    'fought:fight slept:sleep woke:wake woken:wake wore:wear worn:wear chose:choose chosen:choose forgot:forget forgotten:forget became:become hid:hide rode:ride ridden:ride ' +
    'understood:understand began:begin begun:begin did:do done:do'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/** Common predicates of household facts, as base forms: how a verb after a named subject is found ("Sam lives in Berlin"). */
export const VERBS = words(
  'like love hate dislike prefer enjoy adore detest loathe want need wish hope fear own rent live work owe give lend borrow pay send receive buy sell eat drink smoke ' +
    'drive ride run walk swim cycle hike play speak read write study teach learn lead manage run visit call phone text email meet know take make go come leave arrive move ' +
    'stay sleep wake cook bake use wear keep help support follow watch listen attend join date marry divorce travel commute plan trust distrust believe remember forget ' +
    'miss avoid allow forbid refuse accept agree disagree win lose earn spend save cost weigh measure collect grow raise feed train practise practice coach volunteer belong ' +
    'host sing dance paint draw fish hunt garden knit sew clean wash shop order book celebrate expect seem feel sound taste smell get become remain carry bring fly ' +
    'do say tell ask answer reply think approve stop quit start begin look disapprove include exclude pass fail sit stand hold hear build catch fight hide choose understand see find spend',
);

/** Antonym pairs: the second means the opposite of the first (the why of a refused merge; the words differ anyway). */
export const ANTONYMS: readonly (readonly [string, string])[] = [
  ['like', 'dislike'],
  ['love', 'hate'],
  ['agree', 'disagree'],
  ['trust', 'distrust'],
  ['approve', 'disapprove'],
  ['allow', 'forbid'],
  ['accept', 'refuse'],
  ['remember', 'forget'],
  ['win', 'lose'],
  ['pass', 'fail'],
  ['buy', 'sell'],
  ['lend', 'borrow'],
  ['arrive', 'leave'],
  ['include', 'exclude'],
  ['happy', 'unhappy'],
  ['able', 'unable'],
  ['married', 'divorced'],
  ['smoker', 'non-smoker'],
];

/** Comparatives and their opposites: a merge across them reverses a comparison. */
export const COMPARATIVES: readonly (readonly [string, string])[] = [
  ['more', 'less'],
  ['more', 'fewer'],
  ['most', 'least'],
  ['before', 'after'],
  ['over', 'under'],
  ['above', 'below'],
  ['earlier', 'later'],
  ['early', 'late'],
  ['older', 'younger'],
  ['bigger', 'smaller'],
  ['larger', 'smaller'],
  ['taller', 'shorter'],
  ['higher', 'lower'],
  ['faster', 'slower'],
  ['cheaper', 'dearer'],
  ['least', 'most'],
  ['max', 'min'],
];

/** Spellings and words that name the same thing (justified: a spelling, or the same person or object). */
export const SYNONYMS: Readonly<Record<string, string>> = {
  color: 'colour',
  favorite: 'favourite',
  gray: 'grey',
  mum: 'mother',
  mom: 'mother',
  mommy: 'mother',
  mummy: 'mother',
  dad: 'father',
  daddy: 'father',
  kid: 'child',
  kids: 'child',
  children: 'child',
  bicycle: 'bike',
  television: 'tv',
  automobile: 'car',
  movie: 'film',
  flat: 'apartment',
  vacation: 'holiday',
  named: 'called',
  centre: 'center',
  theatre: 'theater',
  people: 'person',
  men: 'man',
  women: 'woman',
  teeth: 'tooth',
  feet: 'foot',
  mice: 'mouse',
};

/** Prepositions that mean the same after a given verb ("works for Acme" = "works at Acme", "prefers tea to coffee" = "… over coffee"). */
export const PREPOSITION_SYNONYMS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  work: { for: 'at' },
  prefer: { to: 'over' },
};

/** Units after a number (or a currency sign before one), each spelling to one name. */
export const UNITS: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'km:km kms:km kilometre:km kilometres:km kilometer:km kilometers:km mi:mile mile:mile miles:mile m:metre metre:metre metres:metre meter:metre meters:metre ' +
    'cm:cm centimetre:cm centimetres:cm centimeter:cm centimeters:cm mm:mm ft:foot foot:foot feet:foot inch:inch inches:inch ' +
    'kg:kg kgs:kg kilo:kg kilos:kg kilogram:kg kilograms:kg g:gram gram:gram grams:gram lb:lb lbs:lb pound:pound pounds:pound oz:ounce ounce:ounce ounces:ounce ' +
    'l:litre litre:litre litres:litre liter:litre liters:litre ml:ml millilitre:ml millilitres:ml gallon:gallon gallons:gallon pint:pint pints:pint ' +
    'eur:EUR euro:EUR euros:EUR €:EUR usd:USD dollar:USD dollars:USD $:USD gbp:GBP £:GBP quid:GBP chf:CHF franc:CHF francs:CHF ' +
    '%:percent percent:percent per-cent:percent h:hour hr:hour hrs:hour hour:hour hours:hour min:minute mins:minute minute:minute minutes:minute sec:second ' +
    'secs:second seconds:second day:day days:day week:week weeks:week month:month months:month year:year years:year yr:year yrs:year ' +
    'am:am pm:pm degree:degree degrees:degree time:time times:time'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);
