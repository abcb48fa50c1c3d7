/**
 * Sensitivity: the one definition. Every reader of memory (front matter, inline fields on
 * records and blocks, DM rows, the index, the egress guard) parses it here, and every writer
 * classifies text with the same rules, so "is this sensitive?" has one answer in the project.
 *
 * On disk it is spelled many ways: `sensitive`, `sensitive/phi`, `Sensitive: PHI`, a bare kind
 * (`phi`), or the Dataview field `[sensitivity:: sensitive/financial]`. All are read the same.
 * Reading fails closed: a value that is not one of the known levels (`confidential`, a kind
 * added later by hand) reads as sensitive, never as personal.
 */

export const SENSITIVITY_LEVELS = ['public', 'personal', 'sensitive'] as const;
/** Of a page, a block, a chunk, a row: `sensitive` never reaches a hosted service. */
export type Sensitivity = (typeof SENSITIVITY_LEVELS)[number];
export const SENSITIVE_KINDS = ['phi', 'credential', 'financial'] as const;
export type SensitiveKind = (typeof SENSITIVE_KINDS)[number];

export interface SensitivityValue {
  sensitivity: Sensitivity;
  kind?: SensitiveKind;
}

const isOneOf = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);

/**
 * Any spelling of a sensitivity value; null for an empty one (the caller's default applies).
 * Unknown non-empty values read as sensitive (fail closed).
 */
export function parseSensitivity(value: string | undefined | null): SensitivityValue | null {
  const v = (value ?? '').trim().toLowerCase();
  if (!v) return null;
  const [level = '', kind = ''] = v.split(/\s*[/:,\s]\s*/);
  if (isOneOf(SENSITIVE_KINDS, level)) return { sensitivity: 'sensitive', kind: level };
  if (level === 'public' || level === 'personal') return { sensitivity: level };
  if (level === 'sensitive' && isOneOf(SENSITIVE_KINDS, kind)) return { sensitivity: 'sensitive', kind };
  return { sensitivity: 'sensitive' };
}

/** `sensitive/phi`, `sensitive`, `personal`: the canonical spelling Charlie writes. */
export function formatSensitivity(s: SensitivityValue): string {
  return s.kind && s.sensitivity === 'sensitive' ? `sensitive/${s.kind}` : s.sensitivity;
}

export function isSensitive(value: string | SensitivityValue | undefined | null): boolean {
  if (value === undefined || value === null) return false;
  return (typeof value === 'string' ? parseSensitivity(value) : value)?.sensitivity === 'sensitive';
}

/**
 * Every spelling the parser reads as sensitive, generated from its own lists, for tests that
 * must cover the class (a kind added to SENSITIVE_KINDS is covered without touching them).
 */
export function sensitiveSpellings(): string[] {
  const out = ['sensitive', 'Sensitive', 'SENSITIVE', 'confidential'];
  for (const k of SENSITIVE_KINDS) out.push(`sensitive/${k}`, `Sensitive/${k.toUpperCase()}`, `sensitive: ${k}`, `sensitive ${k}`, k);
  return out;
}

/** `[sensitivity:: …]` anywhere in a text (a Dataview inline field). */
const INLINE = /\[sensitivity::\s*([^\]]*)\]/gi;

/** The strictest sensitivity marked inline in `text`, or null when there is no marker. */
export function markedSensitivity(text: string): SensitivityValue | null {
  let best: SensitivityValue | null = null;
  for (const m of text.matchAll(INLINE)) best = strictest(best, parseSensitivity(m[1]) ?? { sensitivity: 'sensitive' });
  return best;
}

/** A block's sensitivity: its own marker, else its page's. */
export function sensitivityOf(text: string, pageDefault: Sensitivity = 'personal'): Sensitivity {
  return markedSensitivity(text)?.sensitivity ?? pageDefault;
}

/** `text` with its sensitivity markers taken out (for matching against what leaves). */
export function withoutMarkers(text: string): string {
  return text.replace(INLINE, '');
}

const RANK: Record<Sensitivity, number> = { public: 0, personal: 1, sensitive: 2 };

/** The stricter of two values (a kind beats none at the same level). */
export function strictest(a: SensitivityValue | null | undefined, b: SensitivityValue | null | undefined): SensitivityValue | null {
  if (!a || !b) return a ?? b ?? null;
  if (RANK[a.sensitivity] !== RANK[b.sensitivity]) return RANK[a.sensitivity] > RANK[b.sensitivity] ? a : b;
  return a.kind ? a : b;
}

/** The stricter of two spelled values, as a spelling; undefined when both are. */
export function stricter(a: string | undefined, b: string | undefined): string | undefined {
  const s = strictest(parseSensitivity(a), parseSensitivity(b));
  return s ? formatSensitivity(s) : undefined;
}

interface Rule {
  kind: SensitiveKind;
  test: RegExp;
}

/**
 * The plain-code rules every writer applies (distillation, the gate, remember, ingestion,
 * reflection, hand edits, DM records); the stricter of rule and model wins. Order: credential
 * over health over money. The table in test/unit/sensitivity.test.ts holds samples and look-alikes.
 */
const RULES: Rule[] = [
  {
    kind: 'credential',
    test: /\b(?:passwords?|passcodes?|passphrases?|pin codes?|pin numbers?|api[ -]?keys?|access tokens?|secret keys?|2fa codes?|door codes?|alarm codes?|safe combination|recovery codes?|security codes?|one-time codes?)\b/i,
  },
  { kind: 'credential', test: /\bPINs?\b|\bpin\s*(?:is|was|[:=#])?\s*\d{3,8}\b/ },
  { kind: 'credential', test: /\bthe code (?:for|to|of) the (?:door|gate|alarm|safe|garage|lock(?:box)?)\b/i },
  {
    kind: 'phi',
    test: /\b(?:diagnos\w*|allerg\w*|medications?|medicines?|prescri\w*|therap\w*|pregnan\w*|surgery|cancer|tumou?r|diabetes|depress\w*|anxiety disorder|blood pressure|symptoms?|asthma|migraines?|hiv|std|sti|chemo\w*|psychiatri\w*|antidepressants?|insulin|epilep\w*|miscarriage|ivf|rehab|dementia|alzheimer\w*|adhd|autism|bipolar|schizophreni\w*|hospitali[sz]ed|(?:lab|test|blood) results?|takes? \d+\s?mg)\b/i,
  },
  {
    kind: 'financial',
    test: /\b(?:salary|salaries|iban|bic|swift code|bank account|account (?:number|no\.?)|routing number|sort code|mortgage|debts?|loans?|credit score|tax return|net worth|paycheck|payslip|pay slip|wages?|income)\b/i,
  },
  // a money amount with a word that makes it someone's finances (a price alone is not)
  {
    kind: 'financial',
    test: /(?=.*(?:[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:k|usd|eur|gbp|chf|dollars|euros|pounds)\b))(?=.*\b(?:rent|paid|pays?|owes?|owed|earns?|earned|bills?|balance|transfer\w*|invoice\w*|debit\w*|credit\w*|deposit\w*|withdraw\w*|refund\w*|fees?|tax\w*|bonus|allowance|savings)\b)/is,
  },
  { kind: 'financial', test: /\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}\b/ }, // an IBAN's shape
  // a bank export's row, as the CSV reader gives it ("amount: -1250.00; payee: …")
  { kind: 'financial', test: /\b(?:amount|payee|debit|credit|balance|betrag|saldo|umsatz|transaction|buchungstext)\s*:\s*[-+]?\s?[$€£]?\s?\d/i },
];

/** Street addresses: a number and a street word ("12 Elm Street", "Hauptstraße 5"). */
const ADDRESS = /\b\d{1,5}\s+(?:[A-Z][a-z]+\s){1,3}(?:street|st\.|road|rd\.|avenue|ave\.|lane|drive|boulevard|way|court|place)\b|\b[A-Z][a-zäöü]+(?:straße|strasse|weg|gasse|allee|platz)\s+\d{1,4}\b/;

/** Sensitivity from rules, for the obvious cases; null leaves the caller's (or the page's). */
export function classifyText(text: string): SensitivityValue | null {
  for (const r of RULES) if (r.test.test(text)) return { sensitivity: 'sensitive', kind: r.kind };
  if (ADDRESS.test(text)) return { sensitivity: 'personal' };
  return null;
}

/** The rules' verdict, as a spelling (`sensitive/phi`), or undefined. */
export function sensitivityOfText(text: string): string | undefined {
  const c = classifyText(text);
  return c && c.sensitivity === 'sensitive' ? formatSensitivity(c) : undefined;
}
