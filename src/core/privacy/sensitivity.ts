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

import { SENSITIVE_KINDS, wordPatterns, type SensitiveKind } from './sensitive-words.js';
import { fieldValues, withoutField } from '../records/line-syntax.js';
export { SENSITIVE_KINDS, type SensitiveKind } from './sensitive-words.js';

export const SENSITIVITY_LEVELS = ['public', 'personal', 'sensitive'] as const;
/** Of a page, a block, a chunk, a row: `sensitive` never reaches a hosted service. */
export type Sensitivity = (typeof SENSITIVITY_LEVELS)[number];

export interface SensitivityValue {
  sensitivity: Sensitivity;
  kind?: SensitiveKind;
  /** Sensitive because the memory lane could not judge it in time (fail closed): provisional, settled by its next verdict (`sensitive/unjudged`). */
  unjudged?: true;
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
  if (isUnjudgedLabel(v)) return { sensitivity: 'sensitive', unjudged: true };
  if (isOneOf(SENSITIVE_KINDS, level)) return { sensitivity: 'sensitive', kind: level };
  if (level === 'public' || level === 'personal') return { sensitivity: level };
  if (level === 'sensitive' && isOneOf(SENSITIVE_KINDS, kind)) return { sensitivity: 'sensitive', kind };
  return { sensitivity: 'sensitive' };
}

/** `sensitive/phi`, `sensitive`, `personal`: the canonical spelling Charlie writes. */
export function formatSensitivity(s: SensitivityValue): string {
  if (s.sensitivity !== 'sensitive') return s.sensitivity;
  return s.kind ? `sensitive/${s.kind}` : s.unjudged ? UNJUDGED_LABEL : 'sensitive';
}

export function isSensitive(value: string | SensitivityValue | undefined | null): boolean {
  if (value === undefined || value === null) return false;
  return (typeof value === 'string' ? parseSensitivity(value) : value)?.sensitivity === 'sensitive';
}

/**
 * How a provisional label is spelled on disk (a message the memory lane could not judge in time,
 * LogEntry.unjudged): a kind no reader knows, so every reader but the one that settles it reads
 * it as sensitive, and a person reading the file sees why.
 */
export const UNJUDGED_LABEL = 'sensitive/unjudged';

export function isUnjudgedLabel(value: string): boolean {
  return value.trim().toLowerCase().replace(/\s+/g, '') === UNJUDGED_LABEL;
}

/**
 * Every spelling the parser reads as sensitive, generated from its own lists, for tests that
 * must cover the class (a kind added to SENSITIVE_KINDS is covered without touching them).
 */
export function sensitiveSpellings(): string[] {
  const out = ['sensitive', 'Sensitive', 'SENSITIVE', 'confidential', UNJUDGED_LABEL];
  for (const k of SENSITIVE_KINDS) out.push(`sensitive/${k}`, `Sensitive/${k.toUpperCase()}`, `sensitive: ${k}`, `sensitive ${k}`, k);
  return out;
}

/** The strictest sensitivity marked inline in `text`, or null when there is no marker. */
export function markedSensitivity(text: string): SensitivityValue | null {
  let best: SensitivityValue | null = null;
  if (!text.includes('::')) return best; // no inline field at all (most texts): skip the scan
  for (const value of fieldValues(text, 'sensitivity')) best = strictest(best, parseSensitivity(value) ?? { sensitivity: 'sensitive' });
  return best;
}

/** A block's sensitivity: its own marker, else its page's. */
export function sensitivityOf(text: string, pageDefault: Sensitivity = 'personal'): Sensitivity {
  return markedSensitivity(text)?.sensitivity ?? pageDefault;
}

/** `text` with its sensitivity markers taken out (for matching against what leaves). */
export function withoutMarkers(text: string): string {
  return withoutField(text, 'sensitivity');
}

const RANK: Record<Sensitivity, number> = { public: 0, personal: 1, sensitive: 2 };

/** The stricter of two values (a kind beats none at the same level). */
export function strictest(a: SensitivityValue | null | undefined, b: SensitivityValue | null | undefined): SensitivityValue | null {
  if (!a || !b) return a ?? b ?? null;
  if (RANK[a.sensitivity] !== RANK[b.sensitivity]) return RANK[a.sensitivity] > RANK[b.sensitivity] ? a : b;
  if (a.kind || b.kind) return a.kind ? a : b;
  // a judged label over a provisional one: the judged one is never settled away
  return a.unjudged ? b : a;
}

/** The stricter of two spelled values, as a spelling; undefined when both are. */
export function stricter(a: string | undefined, b: string | undefined): string | undefined {
  const s = strictest(parseSensitivity(a), parseSensitivity(b));
  return s ? formatSensitivity(s) : undefined;
}

interface Rule {
  /** null: sensitive without a kind (legal matters). */
  kind: SensitiveKind | null;
  test: { test(text: string): boolean };
}

/** The marks a made-up password mixes with letters and digits ("Gooseberry!!42"). */
const PASSWORD_MARKS = /[!@#$%^&*~?+]/;
/** A word with these is code, markup, a path or an assignment (`app.run(port=5000)`), not a password said in passing. */
const CODE_MARKS = /[()<>[\]{}="'`\\/|;,:]/;

/**
 * A word shaped like a password someone made: 8 to 40 characters with at least three letters, a
 * digit and one of PASSWORD_MARKS after its first character — not an address (`pi@raspberrypi4`), a
 * handle, a hashtag, a price or code ("u need 2 type Gooseberry!!42 when the telly asks", with no
 * word that says password).
 */
const PASSWORD_LIKE = {
  test(text: string): boolean {
    if (!/\d/.test(text) || !PASSWORD_MARKS.test(text)) return false; // most texts: no word can be one
    for (const raw of text.split(/\s+/)) {
      const w = raw.replace(/^[("'“‘*_]+|[)"'”’.,;:*_]+$/g, ''); // quotes, brackets and Markdown's emphasis round a word
      if (w.length < 8 || w.length > 40 || CODE_MARKS.test(w) || /^[@#$£€]|^[\w.+-]+@[\w.-]+[!?]*$/.test(w)) continue;
      if ((w.match(/\p{L}/gu) ?? []).length >= 3 && /\d/.test(w) && PASSWORD_MARKS.test(w.slice(1))) return true;
    }
    return false;
  },
};

/**
 * The plain-code rules every writer applies (distillation, the gate, remember, ingestion,
 * reflection, hand edits, DM records); the stricter of rule and model wins. Order: credential
 * over health over money over legal. The words are data (src/core/sensitive-words.ts, with a
 * test generated from it); the shapes below (a PIN, an amount someone paid, an IBAN, a bank
 * export's row, a dose) are patterns, with samples and look-alikes in test/unit/sensitivity.test.ts.
 */
const WORDS = wordPatterns();
const RULES: Rule[] = [
  ...WORDS.filter((w) => w.kind === 'credential'),
  { kind: 'credential', test: /\bPINs?\b|\bpin\s*(?:is|was|[:=#])?\s*\d{3,8}\b/ },
  { kind: 'credential', test: /\bthe code (?:for|to|of) the (?:door|gate|alarm|safe|garage|lock(?:box)?)\b/i },
  { kind: 'credential', test: PASSWORD_LIKE },
  // a code spelled out in words after what it opens ("keypad: seven three nine one")
  {
    kind: 'credential',
    test: /\b(?:code|pin|keypad|combination|passcode|password|opens with|unlocks with)\b[^.]{0,30}?\b(?:(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)[\s,-]+){3,}(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b/i,
  },
  ...WORDS.filter((w) => w.kind === 'phi'),
  // a dose: milligrams and micrograms are medicine's (or a supplement's) units
  { kind: 'phi', test: /\b\d+(?:[.,]\d+)?\s?(?:mg|mcg|µg)\b/i },
  // HIV prevention, spelled as clinics spell it (case matters: "meal prep" is a kitchen's)
  { kind: 'phi', test: /\bPrEP\b/ },
  ...WORDS.filter((w) => w.kind === 'financial'),
  // a money amount with a word that makes it someone's finances (a price alone is not)
  {
    kind: 'financial',
    // anchored: tried once from the start, not at every position (unanchored it was quadratic in the text's length)
    test: /^(?=.*(?:[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:k|usd|eur|gbp|chf|dollars|euros|pounds)\b))(?=.*\b(?:rent|paid|pays?|owes?|owed|earns?|earned|bills?|balance|transfer\w*|invoice\w*|debit\w*|credit\w*|deposit\w*|withdraw\w*|refund\w*|fees?|tax\w*|bonus|allowance|savings)\b)/is,
  },
  { kind: 'financial', test: /\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}\b/ }, // an IBAN's shape
  // a bank export's row, as the CSV reader gives it ("amount: -1250.00; payee: …")
  { kind: 'financial', test: /\b(?:amount|payee|debit|credit|balance|betrag|saldo|umsatz|transaction|buchungstext)\s*:\s*[-+]?\s?[$€£]?\s?\d/i },
  // a key read out in groups: an authenticator's secret, a licence or gift card's claim code (letters and digits, three groups or more; after the IBAN, whose groups look alike)
  { kind: 'credential', test: /(?<![\w-])(?=(?:[A-Z0-9]{4,6}[ -]){2,}[A-Z0-9]{4,6}(?![\w-]))(?=[A-Z0-9 -]*?[A-Z])(?=[A-Z0-9 -]*?\d)(?:[A-Z0-9]{4,6}[ -]){2,}[A-Z0-9]{4,6}(?![\w-])/ },
  ...WORDS.filter((w) => w.kind === null),
];

/** Street addresses: a number and a street word ("12 Elm Street", "Hauptstraße 5"). */
const ADDRESS = /\b\d{1,5}\s+(?:[A-Z][a-z]+\s){1,3}(?:street|st\.|road|rd\.|avenue|ave\.|lane|drive|boulevard|way|court|place)\b|\b[A-Z][a-zäöü]+(?:straße|strasse|weg|gasse|allee|platz)\s+\d{1,4}\b/;

/** Sensitivity from rules, for the obvious cases; null leaves the caller's (or the page's). */
export function classifyText(text: string): SensitivityValue | null {
  for (const r of RULES) if (r.test.test(text)) return r.kind ? { sensitivity: 'sensitive', kind: r.kind } : { sensitivity: 'sensitive' };
  if (ADDRESS.test(text)) return { sensitivity: 'personal' };
  return null;
}

/**
 * The label a text is stored with, set where it is written: the strictest of what it was made
 * from (`from`: the labels of its sources, a turn's taint), its own inline markers and the
 * rules. Personal when nothing says more. Every writer of stored text (the archive, replies,
 * summaries, DM rows) labels with this, and every reader of a stored entry reads it back with
 * `labelOf`, so text written before labels existed is judged by the same rules.
 */
export function labelText(text: string, ...from: (SensitivityValue | null | undefined)[]): SensitivityValue {
  let best: SensitivityValue | null = strictest(markedSensitivity(text), classifyText(text));
  for (const f of from) best = strictest(best, f);
  return best ?? { sensitivity: 'personal' };
}

/** A stored entry's label: its own (as stored), and what the rules and its markers say of its text. */
export function labelOf(entry: { text: string; sensitivity?: Sensitivity | undefined; kind?: SensitiveKind | undefined }): SensitivityValue {
  const stored: SensitivityValue | null = entry.sensitivity ? { sensitivity: entry.sensitivity, ...(entry.kind ? { kind: entry.kind } : {}) } : null;
  return labelText(entry.text, stored);
}

/** Whether text with this label may go to a service that runs at `locality`: only a local one receives what is sensitive. */
export function mayGo(label: SensitivityValue | null | undefined, locality: 'local' | 'hosted'): boolean {
  return locality === 'local' || label?.sensitivity !== 'sensitive';
}

/** The rules' verdict, as a spelling (`sensitive/phi`), or undefined. */
export function sensitivityOfText(text: string): string | undefined {
  const c = classifyText(text);
  return c && c.sensitivity === 'sensitive' ? formatSensitivity(c) : undefined;
}

/**
 * Every kind of text that carries a label from when it is written (or, for a tool's result,
 * from when it arrives), and its writer. The privacy test (test/integration/egress-labels.test.ts)
 * plants a canary in each, reworded, across a restart: a kind added here without a planting
 * there fails it.
 */
export const LABELLED_TEXTS = {
  'archive-message':
    "src/core/conversation.ts labels the message by the rules, and the memory lane's verdict raises it when it distils it (src/core/writing/sensitivity-verdict.ts); src/memory/archive-format.ts writes it as the entry's last line",
  reply: 'src/core/conversation.ts: the strictest label of what its turn drew on (its message, history, tool results)',
  summary: 'src/core/distill.ts: a summary, decision or quote made from a labelled message carries its label',
  'mcp-result':
    "src/core/turn/external-result.ts: an external tool's result, by the rules and (when the precheck applies) the lane or the judge by meaning, line by line, taints its turn and is withheld from a hosted chat model",
  'dm-message': "src/storage/private-store.ts: a DM row's sensitivity column",
  brief: "src/core/time/brief.ts: the strictest label of the events and reminders it quotes, kept with it in its place's archive when delivered",
  'calendar-event':
    "src/core/time/calendar-servers.ts (eventSensitivity): the rules on its title and place, or the calendar's CLASS, when it is read; kept with its record, the desk's copy and its reminder; an event Charlie writes after a yes carries its label as CLASS:PRIVATE (calendar.ts propose)",
  reminder:
    "src/core/time/reminder-desk.ts: the rules on its words, the strictest label of the turn that set it, and the memory lane's precheck (sensitive until it answers); kept with its job in data/schedule.db",
  'hand-line':
    'src/memory/graph/hand-labels.ts: a line written by hand into a page (no source, or source:: manual) is judged by the rules and the memory lane at its scan; the label is written onto the line',
} as const;
