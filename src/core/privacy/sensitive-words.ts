/**
 * The words that make a text sensitive, as data: each row is a pattern (a regular expression
 * source, matched case-insensitively as whole words) and the spellings it must catch — plurals,
 * British and American spellings, the forms people write. src/core/sensitivity.ts builds its
 * rules from this table, and test/unit/sensitive-words.test.ts is generated from it: every form
 * of every row is classified with the row's kind, and a list of innocent sentences that share
 * letters with these words (a tennis court, a pen called BIC, bailing on plans) is not.
 *
 * A row's kind is what the label says: `phi` (health), `credential`, `financial`; `null` is
 * legal trouble (court, custody, probation), labelled plainly `sensitive`. Words with an
 * everyday meaning are matched only in the phrase that makes them sensitive ("in court", "on
 * bail", "court hearing"), never alone.
 */
/** The kinds a sensitive text can be of (declared here, beside the words of each; sensitivity.ts re-exports them). */
export const SENSITIVE_KINDS = ['phi', 'credential', 'financial'] as const;
export type SensitiveKind = (typeof SENSITIVE_KINDS)[number];

export interface SensitiveWord {
  /** The label's kind; null = sensitive without a kind (legal matters). */
  kind: SensitiveKind | null;
  /** A regular expression source, matched whole-word and case-insensitively. */
  match: string;
  /** Spellings the pattern must catch (the generated test's cases). */
  forms: readonly string[];
}

const phi = (match: string, ...forms: string[]): SensitiveWord => ({ kind: 'phi', match, forms });
const money = (match: string, ...forms: string[]): SensitiveWord => ({ kind: 'financial', match, forms });
const secret = (match: string, ...forms: string[]): SensitiveWord => ({ kind: 'credential', match, forms });
const legal = (match: string, ...forms: string[]): SensitiveWord => ({ kind: null, match, forms });

export const SENSITIVE_WORDS: readonly SensitiveWord[] = [
  // credentials
  secret('passwords?|passcodes?|passphrases?', 'password', 'passwords', 'passcode', 'passphrase'),
  secret('pin (?:codes?|numbers?)', 'pin code', 'PIN number'),
  secret('api[ -]?keys?|access tokens?|secret keys?', 'API key', 'api-key', 'apikeys', 'access token', 'secret key'),
  secret('2fa codes?|recovery codes?|security codes?|one-time codes?|backup codes?', '2FA code', 'recovery codes', 'security code', 'one-time code', 'backup codes'),
  secret('(?:door|alarm|gate|garage|safe|lockbox) codes?|safe combination', 'door code', 'alarm code', 'gate code', 'garage code', 'safe combination'),
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
  // health
  phi('diagnos\\w*', 'diagnosis', 'diagnosed', 'diagnoses'),
  phi('allerg\\w*', 'allergy', 'allergic', 'allergies'),
  phi('medications?|medicines?|prescri(?:ption|ptions|bed)', 'medication', 'medicines', 'prescription', 'prescribed'),
  phi('\\w*therap(?:y|ies|ist|ists|eutic)', 'therapy', 'therapist', 'therapists', 'physiotherapy', 'psychotherapist', 'radiotherapy', 'chemotherapy'),
  phi('chemo', 'chemo'),
  phi('oncolog\\w*', 'oncology', 'oncologist', 'oncological'),
  // a counsellor alone may be a camp counsellor: only the kinds that are care
  phi('counsel(?:l)?ing|(?:grief|marriage|couples|family|addiction|mental health) counsel(?:l)?ors?', 'counselling', 'counseling', 'marriage counsellor', 'grief counselor'),
  phi('psychiatr\\w*|psychologists?', 'psychiatrist', 'psychiatric', 'psychiatry', 'psychologist'),
  phi('abortions?', 'abortion', 'abortions'),
  phi('miscarr(?:iage|iages|ied)', 'miscarriage', 'miscarried'),
  // fertility alone is also the soil's
  phi('pregnan\\w*|prenatal|postpartum|infertil\\w*|fertility (?:clinic|treatment|doctor|tests?)|ivf', 'pregnant', 'pregnancy', 'prenatal', 'postpartum', 'infertility', 'fertility clinic', 'IVF'),
  phi('biops(?:y|ies)', 'biopsy', 'biopsies'),
  phi('dialysis', 'dialysis'),
  phi('mammograms?|colonoscop(?:y|ies)|mri scans?|ct scans?', 'mammogram', 'colonoscopy', 'MRI scan', 'CT scan'),
  phi('\\w+ectom(?:y|ies)', 'vasectomy', 'hysterectomy', 'mastectomy'),
  phi('surger(?:y|ies)|hospitali[sz]ed', 'surgery', 'surgeries', 'hospitalised', 'hospitalized'),
  phi('cancers?|cancerous|tumou?rs?|leuka?emia|lymphoma|melanoma', 'cancer', 'cancerous', 'tumour', 'tumors', 'leukaemia', 'leukemia', 'lymphoma', 'melanoma'),
  phi('diabet(?:es|ic)|insulin|asthma(?:tic)?|epilep\\w*', 'diabetes', 'diabetic', 'insulin', 'asthma', 'asthmatic', 'epilepsy', 'epileptic'),
  phi('migraines?|blood pressure|symptoms?', 'migraine', 'migraines', 'blood pressure', 'symptoms'),
  phi(
    'sectioned(?! off| into)|(?:72|seventy-two)-hour hold|psychiatric (?:hold|ward|unit|admission)|involuntar\\w* (?:commitment|admission)|mental health act',
    'sectioned',
    '72-hour hold',
    'psychiatric ward',
    'involuntary commitment',
    'Mental Health Act',
  ),
  phi(
    'pacemakers?|defibrillators?|insulin pumps?|stoma|catheters?|cochlear implants?|(?:medical|implanted) devices?',
    'pacemaker',
    'defibrillator',
    'insulin pump',
    'stoma',
    'catheter',
    'cochlear implant',
    'medical device',
  ),
  // an abortion in other words ("termination" alone is also a contract's)
  phi('termination (?:appointment|of (?:the |a |her )?pregnancy|procedure|clinic)|terminate (?:the|a|her) pregnancy', 'termination appointment', 'termination of pregnancy', 'terminate the pregnancy'),
  // medicines by the endings of their names (venlafaxine, sertraline's class, beta blockers, statins …)
  phi(
    '\\w+(?:afaxine|oxetine|azepam|azolam|triptan|prazole|vastatin|olol|sartan|cillin|cycline|floxacin|thromycin|dronate|gliptin|gliflozin|semide|thiazide|xaban|tiapine|peridol|trigine|etamol)',
    'venlafaxine',
    'fluoxetine',
    'diazepam',
    'alprazolam',
    'sumatriptan',
    'omeprazole',
    'atorvastatin',
    'propranolol',
    'losartan',
    'amoxicillin',
    'doxycycline',
    'ciprofloxacin',
    'azithromycin',
    'quetiapine',
    'haloperidol',
  ),
  phi('anaphyla\\w*|epi-?pens?|auto-?injectors?|inhalers?|seizures?', 'anaphylaxis', 'anaphylactic', 'EpiPen', 'epi-pens', 'auto-injector', 'inhaler', 'seizures'),
  phi(
    'methadone|buprenorphine|suboxone|naloxone|opioids?|opiates?|overdos\\w*|antipsychotics?|antibiotics?|antihistamines?|painkillers?|sleeping pills|ssris?',
    'methadone',
    'buprenorphine',
    'Suboxone',
    'naloxone',
    'opioids',
    'opiate',
    'overdose',
    'overdosed',
    'antipsychotic',
    'antibiotics',
    'antihistamine',
    'painkillers',
    'sleeping pills',
    'SSRIs',
  ),
  phi(
    'depression|depressive|antidepressants?|anxiety disorder|panic attacks?|bipolar|schizophreni\\w*',
    'depression',
    'antidepressants',
    'anxiety disorder',
    'panic attack',
    'bipolar',
    'schizophrenia',
  ),
  phi('adhd|autism|autistic|dementia|alzheimer\\w*', 'ADHD', 'autism', 'autistic', 'dementia', "Alzheimer's"),
  phi('hiv|stis?|stds?|hepatitis|chlamydia|herpes|syphilis|gonorrh\\w*', 'HIV', 'STI', 'STIs', 'STD', 'hepatitis', 'chlamydia', 'herpes', 'syphilis', 'gonorrhoea', 'gonorrhea'),
  phi(
    'rehab(?:ilitation)?|addiction|aa meetings?|na meetings?|alcoholics anonymous|narcotics anonymous',
    'rehab',
    'rehabilitation',
    'addiction',
    'AA meeting',
    'AA meetings',
    'NA meeting',
    'Alcoholics Anonymous',
  ),
  phi('eating disorders?|anorexi\\w*|bulimi\\w*|self-harm\\w*|suicid\\w*', 'eating disorder', 'anorexia', 'bulimia', 'self-harm', 'suicidal'),
  phi('(?:gyn(?:a)?ecolog|urolog|cardiolog|neurolog)\\w*|ob-?gyn', 'gynaecologist', 'gynecology', 'urologist', 'cardiology', 'neurologist', 'OB-GYN'),
  phi("(?:lab|test|blood) results?|(?:doctor|doctor's|gp|dentist|dentist's) appointments?", 'lab results', 'blood test result', "doctor's appointment", 'GP appointment', 'dentist appointment'),
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
  money('bankrupt\\w*|foreclos\\w*|insolven\\w*', 'bankrupt', 'bankruptcy', 'foreclosure', 'insolvency'),
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
];

/** One case-insensitive whole-word pattern per kind (null: the legal rows), in the table's order. */
export function wordPatterns(): { kind: SensitiveKind | null; test: RegExp }[] {
  const byKind = new Map<SensitiveKind | null, string[]>();
  for (const w of SENSITIVE_WORDS) byKind.set(w.kind, [...(byKind.get(w.kind) ?? []), w.match]);
  // whole words: no word character on either side (a plain \b would fail after "401(k)")
  return [...byKind].map(([kind, parts]) => ({ kind, test: new RegExp(`(?<!\\w)(?:${parts.join('|')})(?!\\w)`, 'i') }));
}
