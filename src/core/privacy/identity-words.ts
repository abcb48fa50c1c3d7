/**
 * Who someone is: the rows of the rules table (sensitive-words.ts explains it) for a person's
 * faith, sexuality and gender identity — what data protection law calls special categories, beside
 * health — labelled sensitive without a kind. Matched in the phrases that say it of someone ("came
 * out as bi", "converted to Islam", "wants to start blockers"), never a word alone that everyday
 * talk uses ("trans-Atlantic", "a gay old time", "church fete"); each row lists such sentences
 * (the generated test checks both).
 */
import { butNot, identity, type SensitiveWord } from './sensitive-word.js';

export const IDENTITY_WORDS: readonly SensitiveWord[] = [
  // sexuality, said of someone
  butNot(
    identity(
      "(?:is|she's|he's|they're|i'm|im|am|being|are|was|were|might be|may be) (?:an? )?(?:gay|lesbian|bisexual|bi|queer|asexual|ace|pansexual)\\b(?! (?:old|abandon))|came out(?: to (?:me|us|him|her|them|(?:her|his|their|my|our|the) \\w+))? as|coming out to|(?:not|isn'?t|hasn'?t come|never came) out (?:at work|to (?:his|her|their|the) (?:family|parents|mum|dad|mom|workmates|colleagues))|(?:her|his|their|my) (?:girlfriend|boyfriend|partner) (?:is|was) (?:a )?(?:woman|man)|same-sex (?:partner|relationship)|sexual(?:ity| orientation)|grindr",
      'is gay',
      "she's a lesbian",
      'might be bi',
      'came out as',
      'came out to his dad as',
      'came out to me as',
      'not out at work',
      "isn't out to her parents",
      'coming out to',
      'same-sex partner',
      'sexuality',
      'sexual orientation',
      'on Grindr',
    ),
    'The bi-weekly meeting moved to Thursday',
    'They are bilingual at home',
    'We came out of the cinema at ten',
    'The new album came out on Friday',
  ),
  // gender identity
  butNot(
    identity(
      'transgender|trans (?:man|woman|men|women|kid|child|girl|boy|teen|person|people)|non-?binary|genderqueer|gender (?:clinic|dysphoria|identity|transition|affirming)|puberty blockers|(?:start|starting|started|on|take|taking) blockers|hormone (?:therapy|replacement) (?:to|for) transition|transition(?:ed|ing)? (?:to|from) (?:male|female)|deadnam\\w*|new pronouns|(?:changing|changed) (?:her|his|their) name (?:to \\w+ )?at school',
      'transgender',
      'trans woman',
      'trans kid',
      'non-binary',
      'nonbinary',
      'gender clinic',
      'gender dysphoria',
      'puberty blockers',
      'start blockers',
      'transitioning to male',
      'deadnamed',
      'new pronouns',
      'changing her name at school',
    ),
    'The trans-Atlantic flight leaves at six',
    'Transition the slides with a fade',
    'Ad blockers break the recipe site',
  ),
  // faith, and leaving or changing it
  butNot(
    identity(
      "jehovah'?s witness(?:es)?|latter-day saints?|scientolog\\w*|convert(?:ed|ing|s)? to (?:islam|christianity|judaism|catholicism|buddhism|hinduism|sikhism|the faith)|(?:left|leaving|quit|lost) (?:the|her|his|their|my) (?:church|faith|mosque|religion)|(?:is|she's|he's|i'm|became|become) (?:an? )?(?:muslim|jewish|atheist|mormon|wiccan|pagan|born-again)|wicca\\w*|witches' coven|coven|apostate|excommunicated|disfellowshipped",
      "Jehovah's Witness",
      'Jehovahs Witnesses',
      'Latter-day Saints',
      'Scientology',
      'converted to Islam',
      'converting to Judaism',
      'left the church',
      'lost her faith',
      'became a Muslim',
      "she's an atheist",
      'Wicca',
      'practises Wiccan rites',
      'coven',
      'disfellowshipped',
    ),
    'The church fete raised money for the roof',
    'We visited the mosque on the city tour',
    'He lost his keys at the church hall',
  ),
];
