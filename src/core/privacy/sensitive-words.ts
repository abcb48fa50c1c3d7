/**
 * The words that make a text sensitive, as data: each row is a pattern (a regular expression
 * source, matched case-insensitively as whole words) and the spellings it must catch — plurals,
 * British and American spellings, the forms people write. src/core/sensitivity.ts builds its
 * rules from this table, and test/unit/sensitive-words.test.ts is generated from it: every form
 * of every row is classified with the row's kind, and a list of innocent sentences that share
 * letters with these words (a tennis court, a pen called BIC, bailing on plans) is not, nor is
 * any row's own list of everyday sentences (`ordinary`: "the clap of thunder", "a curfew at ten").
 * The rows' type and helpers are in sensitive-word.ts; the health rows in health-words.ts.
 *
 * A row's kind is what the label says: `phi` (health), `credential`, `financial`; `null` is
 * legal trouble (court, custody, probation), labelled plainly `sensitive`. Words with an
 * everyday meaning are matched only in the phrase that makes them sensitive ("in court", "on
 * bail", "court hearing"), never alone.
 */
import { butNot, legal, money, secret, type SensitiveKind, type SensitiveWord } from './sensitive-word.js';
import { HEALTH_WORDS } from './health-words.js';
import { CONDITION_WORDS } from './condition-words.js';
import { IDENTITY_WORDS } from './identity-words.js';
export { SENSITIVE_KINDS, type SensitiveKind, type SensitiveWord } from './sensitive-word.js';

export const SENSITIVE_WORDS: readonly SensitiveWord[] = [
  // credentials
  secret('passwords?|passcodes?|passphrases?', 'password', 'passwords', 'passcode', 'passphrase'),
  secret('pin (?:codes?|numbers?)', 'pin code', 'PIN number'),
  secret('api[ -]?keys?|access tokens?|secret keys?', 'API key', 'api-key', 'apikeys', 'access token', 'secret key'),
  secret('2fa codes?|recovery codes?|security codes?|one-time codes?|backup codes?', '2FA code', 'recovery codes', 'security code', 'one-time code', 'backup codes'),
  // short for password ("user ben_k, pw …"), and the secret an authenticator app is set up with
  secret('pw|pwd|authenticator (?:secrets?|keys?|seeds?)|(?:totp|2fa|mfa|otp) (?:secrets?|seeds?|keys?)', 'pw', 'PWD', 'authenticator secret', 'TOTP seed', '2FA key'),
  secret('(?:door|alarm|gate|garage|safe|lockbox) codes?|safe combination', 'door code', 'alarm code', 'gate code', 'garage code', 'safe combination'),
  // a dial lock read out turn by turn ("left three turns to 42, right to 17, then left to 8")
  butNot(
    secret(
      '(?:left|right) (?:\\w+ (?:full )?turns? )?to \\d{1,2},? (?:then )?(?:left|right) (?:\\w+ (?:full )?turns? )?to \\d{1,2}\\b',
      'left three turns to 42, right to 17',
      'right to 30, left to 5',
    ),
    'Turn left to 42nd Street, then right to 5th Avenue',
    'The score went from left to 10 and right to 12 players',
  ),
  secret(
    '(?:locker|padlock|bike lock|lock) combinations?|combination codes?|(?:padlock|lock|locker|safe)\\b[^.]{0,40}\\bopens with \\d',
    'locker combination',
    'padlock combination',
    'bike lock combination',
    'combination code',
    'padlock on the shed opens with 4',
  ),
  // what opens a wallet: a seed is everything it holds
  secret(
    '(?:seed|recovery|mnemonic|backup) phrases?|seed words|private keys?|(?:12|24|twelve|twenty-four) words (?:for|of|to) (?:my|the|your|our) (?:crypto )?wallet|wallet (?:words|seed)',
    'seed phrase',
    'recovery phrase',
    'mnemonic phrase',
    'seed words',
    'private key',
    'the 12 words for my wallet',
    'twenty-four words of the wallet',
    'wallet seed',
  ),
  // identity numbers: with them someone can be someone else
  secret(
    "passport (?:numbers?|no\\.?)|national insurance (?:numbers?|no\\.?)|ni (?:numbers?|no\\.?)|travel document (?:numbers?|no\\.?)|social security (?:numbers?|no\\.?)|ssns?|tax (?:id|identification) numbers?|(?:driver'?s|driving) licen[cs]e (?:numbers?|no\\.?)|id card numbers?",
    'passport number',
    'passport no.',
    'National Insurance number',
    'NI number',
    'NI no.',
    'travel document no.',
    'social security number',
    'SSN',
    'tax ID number',
    "driver's license number",
    'driving licence number',
    'ID card number',
  ),
  // after the third outside sweep: codes and logins said in other words
  butNot(
    secret('wi-?fi (?:key|code|pass(?:word)?)s?|wpa keys?|network keys?', 'wifi key', 'Wi-Fi code', 'wifi pass', 'WPA key', 'network key'),
    'The wifi is slow in the kitchen',
    'The wifi router is in the hall',
  ),
  butNot(
    secret(
      'keypad(?: (?:code|number|combination)s?)?\\s*[:=]|keypad (?:code|number|combination)s?|(?:keypad|key ?safe|lock-?up|lock|padlock|locker|safe|door|gate|shed)\\b[^.]{0,40}\\b(?:opens|unlocks) with (?:\\d|(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)[ ,-]+(?:zero|oh|one|two|three|four|five|six|seven|eight|nine))',
      'keypad code',
      'Front door keypad:',
      'key safe opens with 4',
      'lock-up at the yard opens with five five',
      'gate unlocks with seven two',
    ),
    'The keypad on the microwave is sticky',
    'The door opens with a creak',
    'The gate opens with one push',
  ),
  butNot(
    secret(
      '(?:online banking|banking app|bank|email|e-mail|netflix|amazon|paypal|icloud|apple id) (?:logins?|log-ins?|usernames?|credentials)|(?:login|log-in|sign-in) (?:details|credentials)|memorable (?:words?|information|answers?)|security (?:questions?|answers?)',
      'online banking login',
      'email login',
      'PayPal username',
      'login details',
      'memorable word',
      'security question',
    ),
    'What a memorable day at the beach',
    'The login page has a new logo',
    'Bank holiday on Monday',
  ),
  butNot(
    secret(
      'card (?:ending|ends)(?: in| with)? \\d{4}|(?:three|3|four|4) digits on the back|cvv2?|cvc2?|card security codes?',
      'card ending 4417',
      'card ending in 1234',
      'three digits on the back',
      'CVV',
      'CVC',
    ),
    'A birthday card ending with a joke',
    'The jersey has big numbers on the back',
  ),
  butNot(
    secret(
      'nhs (?:numbers?|no\\.?)|medicare (?:numbers?|no\\.?)|patient (?:numbers?|no\\.?|id)|health insurance numbers?',
      'NHS number',
      'NHS no.',
      'Medicare number',
      'patient number',
      'health insurance number',
    ),
    'The NHS is hiring nurses',
    'No patient was turned away',
  ),
  ...HEALTH_WORDS,
  ...CONDITION_WORDS,
  ...IDENTITY_WORDS,
  // money
  money('salary|salaries|wages?|paychecks?|payslips?|pay slips?|income', 'salary', 'salaries', 'wage', 'paycheck', 'payslip', 'pay slip', 'income'),
  money(
    'iban|swift code|bic code|bank accounts?|bank statements?|account (?:number|no\\.?)|routing number|sort code|savings account',
    'IBAN',
    'swift code',
    'bank account',
    'bank statement',
    'account number',
    'routing number',
    'sort code',
    'savings account',
  ),
  money(
    'mortgages?|debts?|loans?|overdraft|credit score|credit card (?:debt|bill|number)s?|debt collectors?',
    'mortgage',
    'mortgages',
    'debt',
    'loans',
    'overdraft',
    'credit score',
    'credit card debt',
    'credit card number',
  ),
  money('bankrupt\\w*|foreclos\\w*|insolven\\w*|re-?mortgag\\w*', 'bankrupt', 'bankruptcy', 'foreclosure', 'insolvency', 'remortgage', 're-mortgaged', 'remortgaging'),
  money(
    'tax (?:returns?|bills?|debts?)|net worth|alimony|child support|pensions?|401\\(?k\\)?|inheritance tax',
    'tax return',
    'tax returns',
    'tax bill',
    'net worth',
    'alimony',
    'child support',
    'pension',
    '401k',
    '401(k)',
    'inheritance tax',
  ),
  // after the third outside sweep: debt and benefits
  butNot(
    money(
      "arrears|bailiffs?|enforcement agents?|debt (?:collectors?|management|relief|advice)|universal credit|jobseeker'?s allowance|housing benefit|(?:benefits?|pip|esa|dla) (?:claims?|awards?|sanctions?|assessments?)|(?:benefit )?sanctions review|behind (?:on|with) (?:the |my |our |his |her |their )?(?:rent|mortgage|payments|bills|council tax)|(?:used|using|use|need) (?:a|the) food ?banks?|food ?bank (?:vouchers?|parcels?|referrals?)|(?:an|my|her|his|their|our) iva|individual voluntary arrangements?|ccjs?|county court judge?ments?|payday loans?|maxed[- ]out (?:credit )?cards?|doorstep (?:lenders?|loans?)|loan ?sharks?|illegal lenders?|owes? (?:a |the |his |her |their )?bookie'?s?",
      'arrears',
      'bailiffs',
      'enforcement agents',
      'Universal Credit',
      'housing benefit',
      'PIP award',
      'sanctions review',
      'behind on the rent',
      'used the food bank',
      'food bank voucher',
      'signed an IVA',
      'CCJ',
      'county court judgment',
      'payday loan',
      'maxed-out card',
      'doorstep lenders',
      'loan shark',
      "owes a bookie's",
    ),
    'We donated tins to the food bank',
    'The enforcement of the rules was strict',
    'IVA incluido en el precio',
  ),
  butNot(
    money('acct\\.? ?(?:no\\.? ?|number |#)?\\d{4,}|a/c (?:no\\.?|numbers?)|account ending(?: in)? \\d{4}', 'Acct 48213377', 'acct. no. 12345678', 'a/c number', 'account ending in 4417'),
    'The AC is on in the lounge',
    'Acct team meeting at 3',
  ),
  // legal matters
  legal(
    'court (?:dates?|hearings?|cases?|orders?|appearances?|summons)|(?:in|to) court(?! ?\\d)|courtroom|(?:family|criminal|divorce|small claims|county|district) court',
    'court date',
    'court hearing',
    'court case',
    'court order',
    'in court',
    'to court',
    'courtroom',
    'family court',
    'small claims court',
  ),
  legal('lawyers?|attorneys?|solicitors?|legal aid', 'lawyer', 'lawyers', 'attorney', 'solicitor', 'legal aid'),
  legal('divorc\\w*|custody|restraining orders?', 'divorce', 'divorced', 'divorcing', 'custody', 'restraining order'),
  // after the eighth outside sweep: court papers, orders and driving offences by their everyday names
  butNot(
    legal(
      "witness statements?|non-mol(?:estation)?(?: orders?)?|occupation orders?|sentencing(?: hearings?)?|(?:magistrates'?|crown|family) court|drink[- ]driv\\w*|drunk[- ]driv\\w*|(?:blew|blowing|blown) over the limit|over the (?:drink[- ]drive|legal) limit|failed a breath(?:alyser)? test|banned from driving|driving ban|\\bdui\\b|\\bdwi\\b",
      'witness statement',
      'non-mol order',
      'non-molestation order',
      'sentencing',
      'magistrates court',
      'drink driving',
      'drink-driving ban',
      'blowing over the limit',
      'banned from driving',
      'DUI',
    ),
    'The suitcase was over the weight limit',
    'My credit card is close to its limit',
    'We watched a court drama on TV',
  ),
  legal(
    'probation|parole|(?:on|posted|post|made|make|set) bail|bail (?:hearing|bond)s?|arrested|convicted|criminal record',
    'probation',
    'parole',
    'on bail',
    'posted bail',
    'bail hearing',
    'arrested',
    'convicted',
    'criminal record',
  ),
  legal('lawsuits?|sued|suing|subpoena\\w*|plea deal|deport\\w*|asylum (?:claim|case|hearing)s?', 'lawsuit', 'sued', 'suing', 'subpoenaed', 'plea deal', 'deportation', 'asylum hearing'),
  legal(
    'tribunals?|magistrates\\W? court|(?:custody|residence|contact|immigration|employment|eviction|asylum|disciplinary) (?:hearings?|orders?)|hearing re\\b|judge [a-z]+ (?:said|ruled|ordered)',
    'tribunal',
    "magistrates' court",
    'custody hearing',
    'residence order',
    'eviction hearing',
    'Hearing re',
  ),
  // someone's right to stay: a visa alone is a holiday's, its trouble is not
  legal(
    'immigration (?:enforcement|officers?|detention centre)|undocumented|overst(?:ay|ayed|ays|aying) (?:\\w+ )?visas?|visa (?:overstays?|status|refus\\w*|revo\\w*)|immigration (?:status|hearings?|cases?|lawyers?|raids?|detention)|refugee status|illegal immigrants?',
    'immigration enforcement',
    'undocumented',
    'overstayed his visa',
    'overstaying a visa',
    'visa status',
    'visa refusal',
    'immigration status',
    'immigration hearing',
    'refugee status',
  ),
  // after the third outside sweep: papers, prison, safeguarding, and where someone hides
  butNot(
    legal(
      'brps?|biometric residence permits?|home office (?:decisions?|interviews?|refus\\w*|removal)|(?:indefinite )?leave to remain|right to (?:remain|reside)|(?:has|have|had) to leave the (?:uk|country) by|removal (?:notices?|directions?|centres?)|detention centres?|sans[- ]papiers|sin papeles|indocumentad[oa]s?|abschiebung|duldung|ausreisepflichtig\\w*',
      'BRP',
      'biometric residence permit',
      'Home Office decision',
      'leave to remain',
      'right to remain',
      'has to leave the UK by',
      'removal notice',
      'detention centre',
      'sans-papiers',
      'sin papeles',
      'indocumentado',
      'Abschiebung',
      'Duldung',
    ),
    'I work from my home office on Fridays',
    'We have to leave the house by 8',
  ),
  butNot(
    legal(
      'ankle tags?|electronic(?:ally)? tag\\w*|curfew orders?|hmp [a-z]+|hmyoi|(?:in|to|from|out of) (?:prison|jail|gaol)|prison (?:sentences?|visits?|time|release)|jailed|imprisoned|sentenced|inmates?|(?:got|given|serving|served) (?:\\w+ ){0,2}(?:years?|months?) (?:for (?:\\w+ing|assault|theft|fraud|robbery|burglary|murder|manslaughter|possession)|inside)|released (?:on licence|on parole|under investigation)|released from custody|under police investigation|police cautions?|(?:was|got|been) cautioned|(?:got|given|had|received|accepted) a (?:police )?caution for|in for questioning|(?:was|been|got|being) charged with|criminal (?:charges?|convictions?)|youth offending',
      'ankle tag',
      'electronically tagged',
      'curfew order',
      'HMP Garth',
      'in prison',
      'prison sentence',
      'jailed',
      'sentenced',
      'got four years for dealing',
      'released under investigation',
      'released on licence',
      'police caution',
      'got a caution for nicking',
      'in for questioning',
      'was charged with',
      'criminal charges',
    ),
    'The kids have a curfew at ten',
    'A tag on the dress says dry clean only',
    'The escape room had a prison theme',
    'He got two years of free updates',
    'Use caution for the wet floor by the door',
  ),
  // after the eighth outside sweep: prison said plainly ("since his time inside")
  butNot(
    legal(
      '(?:did|done|doing|served|serving|after|since|during) (?:(?:his|her|my|their|your|a) )?(?:(?:\\w+ ){0,2}(?:years?|months?)|time|stretch|spell) inside(?! (?:the|a|an|our|my|his|her|their|your|of|this|that)\\b)',
      'did time inside',
      'done two years inside',
      'since his time inside',
      'doing a stretch inside',
      'served time inside',
    ),
    'We did time inside the escape room',
    'The kids spent their time inside because of the rain',
    'After a spell inside the warm café we walked on',
  ),
  butNot(
    legal(
      "social services (?:took|came|visited|are involved|put|opened|referral|said|say|says|told|want|wants|won't|will not|have|has|got)|(?:involved|called|contacted|told) social services|child protection (?:plans?|conferences?|registers?|orders?|investigations?)|safeguarding (?:concerns?|referrals?|reports?|leads?)|foster (?:care|carers?|placements?|homes?|parents?)|care orders?|looked[- ]after child(?:ren)?|(?:un)?supervised (?:contact|visits?|access)|taken into care",
      'social services took',
      'called social services',
      'child protection plan',
      'safeguarding concern',
      'foster care',
      'care order',
      'looked-after children',
      'supervised contact',
      "can't have unsupervised contact",
      'social services said',
      'taken into care',
    ),
    'My mum works in social services',
    'We foster kittens for the shelter',
    'The supervised homework club starts at four',
  ),
  butNot(
    legal(
      "(?:women'?s|domestic violence|dv) (?:refuge|shelter)s?|(?:at|in|to|from) (?:a|the) refuge|safe ?houses?|(?:hiding|hid|hides|fled|fleeing|escaped|escaping) from (?:her|his|their|my|your) (?:ex|partner|husband|wife|boyfriend|girlfriend|abuser|dad|father|mother|mum)|domestic (?:abuse|violence)|(?:sexually|physically) abused|(?:was|were|being|got) (?:groomed|molested)|(?:uncle|aunt|dad|father|stepdad|step-dad|mum|mother|brother|sister|cousin|grandad|grandfather|teacher|coach|priest|neighbour|babysitter) (?:used to |would |kept |had )?(?:touch|touched|touching) (?:him|her|me|them)\\b(?! (?:on the (?:shoulder|arm|back)))|abusive (?:ex|partner|husband|wife|relationship|boyfriend|girlfriend)|(?:don'?t|do not|never) (?:give|tell) (?:anyone|anybody|him|her) (?:the|her|his|our|my) (?:new )?address",
      "women's refuge",
      'at the refuge',
      'safe house',
      'hiding from her ex',
      'fled from his partner',
      'domestic abuse',
      'sexually abused',
      'was groomed',
      'his uncle used to touch him',
      'abusive ex',
      "don't give anyone the address",
    ),
    'The cat hid from the dog under the bed',
    'Take refuge from the rain under the bridge',
    'The house is safe and warm',
    'My dad touched him on the shoulder to wake him',
    'Keep in touch with her cousin',
  ),
];

/** One case-insensitive whole-word pattern per kind (null: the legal rows), in the table's order. */
export function wordPatterns(): { kind: SensitiveKind | null; test: RegExp }[] {
  const byKind = new Map<SensitiveKind | null, string[]>();
  for (const w of SENSITIVE_WORDS) byKind.set(w.kind, [...(byKind.get(w.kind) ?? []), w.match]);
  // whole words: no word character on either side (a plain \b would fail after "401(k)")
  return [...byKind].map(([kind, parts]) => ({ kind, test: new RegExp(`(?<!\\w)(?:${parts.join('|')})(?!\\w)`, 'i') }));
}
