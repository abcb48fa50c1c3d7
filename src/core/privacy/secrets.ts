/**
 * Credentials never reach memory or logs. `removeSecrets` replaces API keys and tokens of the
 * common providers, private keys, URL passwords, `password: …` style lines and card numbers
 * that pass the Luhn check with `[secret removed]`, and says what kinds it found.
 *
 * Shapes, not entropy: a value must look like a real credential of a known provider (prefix,
 * alphabet, length) so ordinary text (git hashes, UUIDs, Discord ids, "sk-learn") stays.
 * Libraries such as secretlint or gitleaks carry the same patterns but scan files and pull
 * in a rule engine; this is the small runtime subset a chat message needs.
 */

export const SECRET_REMOVED = '[secret removed]';

interface SecretShape {
  kind: string;
  pattern: RegExp;
  /** Which capture group is the secret (default: the whole match). */
  group?: number;
  /** Extra check on the matched secret. */
  valid?: (secret: string) => boolean;
}

const SHAPES: SecretShape[] = [
  { kind: 'private key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'Anthropic key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'OpenAI key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}/g },
  { kind: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g },
  { kind: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { kind: 'AWS key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  { kind: 'Stripe key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,}\b/g },
  { kind: 'Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { kind: 'Discord token', pattern: /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}\b/g },
  { kind: 'JSON web token', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  { kind: 'bearer token', pattern: /\b(?:Bearer|Basic)\s+([A-Za-z0-9._~+/-]{16,}=*)/g, group: 1 },
  { kind: 'URL password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/([^\s/@:]*:[^\s/@]+)@/gi, group: 1 },
  {
    kind: 'password',
    pattern:
      /^([ \t]*(?:[-*][ \t]+)?(?:(?:my|the|our|wifi|wi-fi|db|database|admin|root|account)[ \t]+)*(?:password|passwort|passwd|passphrase|passcode|pwd|pin|api[ _-]?key|secret|token)[ \t]*[:=][ \t]*)(\S[^\n]*?)[ \t]*$/gim,
    group: 2,
    valid: (value) => !value.endsWith('?') && value.split(/\s+/).length <= 6,
  },
  // mid-line: "ok, password: X", "(pin=1234)"
  {
    kind: 'password',
    pattern: /(?<=[,;(]\s*|\s)((?:password|passwort|passwd|passphrase|passcode|pwd|pin|api[ _-]?key)\s*[:=]\s*)([^\s,;)]+)/gi,
    group: 2,
    valid: secretLike,
  },
  // prose: "my password is X", "the code for the door is X", "Zed's bank PIN is X"
  {
    kind: 'password',
    pattern:
      /(\b(?:my|the|our|his|her|their|[A-Z][a-z]+'s)\s+(?:[a-z-]+\s+){0,3}(?:password|passwort|passphrase|passcode|pin(?:\s+(?:code|number))?|PIN|(?:door|gate|alarm|safe|garage|lock|wifi|wi-fi)\s+code|code\s+(?:for|to|of)\s+the\s+(?:door|gate|alarm|safe|garage|lock(?:box)?))\s+(?:is|was|=|:)\s+)(\S+?)(?=[.,;!?)]?(?:\s|$))/gi,
    group: 2,
    valid: secretLike,
  },
  { kind: 'card number', pattern: /(?<![\w/=.-])(?:\d[ -]?){12,18}\d(?![\w/-])/g, valid: isCardNumber },
];

/** Words that follow "password is" in ordinary talk about passwords, not a password. */
const NOT_SECRETS = new Set(
  'a an the too not very so wrong right same different weak strong long short easy hard simple safe secure expired changed new old correct incorrect invalid required missing empty set reset written stored saved here there somewhere what which where who how on in at under my your his her our their it this that'.split(
    ' ',
  ),
);

/** A value that reads as a secret: not a question, not one of the ordinary words above. */
function secretLike(value: string): boolean {
  const v = value.replace(/[.,;!?)]+$/, '');
  return v.length >= 3 && !value.endsWith('?') && !NOT_SECRETS.has(v.toLowerCase()) && !v.includes(SECRET_REMOVED);
}

/** Luhn check plus the brand prefixes and lengths of real card numbers. */
export function isCardNumber(text: string): boolean {
  const digits = text.replace(/[ -]/g, '');
  if (!/^\d{13,19}$/.test(digits)) return false;
  const brand =
    (/^4/.test(digits) && [13, 16, 19].includes(digits.length)) ||
    (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits) && digits.length === 16) ||
    (/^3[47]/.test(digits) && digits.length === 15) ||
    (/^(6011|65|64[4-9])/.test(digits) && [16, 19].includes(digits.length)) ||
    (/^35(2[89]|[3-8]\d)/.test(digits) && digits.length === 16);
  if (!brand) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface SecretScan {
  text: string;
  /** Kinds of secret removed, e.g. ["OpenAI key", "password"]; empty when the text was clean. */
  kinds: string[];
}

/** Replaces every credential in `text` with `[secret removed]`. */
export function removeSecrets(text: string): SecretScan {
  const kinds = new Set<string>();
  let out = text;
  for (const shape of SHAPES) {
    out = out.replace(shape.pattern, (match: string, ...groups: unknown[]) => {
      const secret = shape.group ? groups[shape.group - 1] : match;
      // a vault handle (`vault:ssh/admin@nas`) is where a secret went, not a secret
      if (typeof secret !== 'string' || secret.includes(SECRET_REMOVED) || secret.startsWith('vault:')) return match;
      if (shape.valid && !shape.valid(secret)) return match;
      kinds.add(shape.kind);
      return shape.group ? match.replace(secret, SECRET_REMOVED) : SECRET_REMOVED;
    });
  }
  return { text: out, kinds: [...kinds] };
}

/** What to tell the author, once per message. */
export function secretNotice(kinds: string[]): string {
  return `I removed ${kinds.length === 1 ? `a secret (${kinds[0]})` : `secrets (${kinds.join(', ')})`} from your message before saving it: it is not in my memory or search. If it was real, consider changing it.`;
}
