import { describe, expect, it } from 'vitest';
import { isCardNumber, removeSecrets, SECRET_REMOVED } from '../../src/core/privacy/secrets.js';

// Real-shaped but fake samples, assembled at runtime so no secret scanner flags the repository.
const rep = (s: string, n: number) => s.repeat(n);
const j = (...parts: string[]) => parts.join('');
const secrets: [string, string, string][] = [
  ['OpenAI key', j('sk-', 'proj-', rep('Ab3dEf7h', 6)), 'OpenAI key'],
  ['OpenAI legacy key', j('sk', '-', rep('T3BlbkFJ', 6)), 'OpenAI key'],
  ['Anthropic key', j('sk-', 'ant-', 'api03-', rep('xY9_', 20)), 'Anthropic key'],
  ['GitHub token', j('gh', 'p_', rep('a1B2c3', 6)), 'GitHub token'],
  ['GitHub fine-grained', j('github', '_pat_', rep('11AB22cd33', 6)), 'GitHub token'],
  ['GitLab token', j('gl', 'pat-', rep('zZ9y', 5)), 'GitLab token'],
  ['AWS access key', j('AK', 'IA', 'IOSFODNN7', 'EXAMPL3'), 'AWS key'],
  ['Google API key', j('AI', 'za', 'Sy', rep('D4f5G6h7', 4), 'x'), 'Google API key'],
  ['Slack token', j('xo', 'xb-', '1234567890-', rep('AbCd', 6)), 'Slack token'],
  ['Stripe key', j('sk', '_live_', rep('51Hx', 6)), 'Stripe key'],
  ['Hugging Face token', j('h', 'f_', rep('QwErTy', 6)), 'Hugging Face token'],
  ['Discord bot token', j('MT', rep('Ab1', 8), '.', 'Gh7_Ij', '.', rep('kL9-mN0', 5)), 'Discord token'],
  ['JWT', j('ey', 'JhbGciOiJIUzI1NiJ9', '.', 'ey', 'JzdWIiOiIxMjM0NTY3ODkwIn0', '.', rep('SflKxwRJ', 3)), 'JSON web token'],
  ['private key', j('-----BEGIN ', 'RSA PRIVATE', ' KEY-----\n', rep('MIIEow', 10), '\n-----END RSA ', 'PRIVATE KEY-----'), 'private key'],
  ['OpenSSH private key', j('-----BEGIN OPENSSH', ' PRIVATE KEY-----\n', rep('b3BlbnNzaC1rZXk', 4), '\n-----END OPENSSH', ' PRIVATE KEY-----'), 'private key'],
  ['Visa card', j('4111', ' 1111', ' 1111', ' 1111'), 'card number'],
  ['Mastercard, dashes', j('5555', '-4444', '-3333', '-1111'), 'card number'],
  ['Amex', j('3782', '822463', '10005'), 'card number'],
];

const lines: [string, string, string, string][] = [
  ['password line', 'password: ' + j('hunter', '2', '!Xq'), 'password', j('hunter', '2', '!Xq')],
  ['wifi password', 'wifi password = ' + j('Blue', 'Horse', '42'), 'password', j('Blue', 'Horse', '42')],
  ['listed PIN', '- pin: ' + j('48', '31'), 'password', j('48', '31')],
  ['URL with password', 'use ' + j('postgres://admin:', 'S3cr3t', 'Pw@db.example.com/app'), 'URL password', j('S3cr3t', 'Pw')],
  ['bearer header', 'Authorization: Bearer ' + j('abc123', 'DEF456', 'ghi789xyz'), 'bearer token', j('abc123', 'DEF456')],
  ['password mid-line', 'ok, password: ' + j('Tr0ub', 'ador'), 'password', j('Tr0ub', 'ador')],
  ['pin in brackets', 'the lock (pin=' + j('90', '17') + ') is new', 'password', j('90', '17')],
  ['password in prose', 'my password is ' + j('hunter', '22'), 'password', j('hunter', '22')],
  ['PIN of someone, in prose', "Remember that Zed's bank PIN is " + j('44', '12') + '.', 'password', j('44', '12')],
  ['door code in prose', 'the code for the door is ' + j('47', '71'), 'password', j('47', '71')],
  ['wifi password in prose', 'our wifi password is ' + j('Blue', 'Horse', '42') + ', ask me again later', 'password', j('Blue', 'Horse', '42')],
];

const lookAlikes = [
  'we use sk-learn and scikit-image for this',
  'the skeleton key is in the drawer',
  'commit 3f2a9c1b7e8d4f60a1b2c3d4e5f60718293a4b5c fixed it',
  'id 550e8400-e29b-41d4-a716-446655440000',
  'see https://discord.com/channels/112233445566778899/223344556677889900/1334455667788990011',
  'order 1234-5678-9012-3456 ships Friday',
  'ISBN 978-3-16-148410-0',
  'call me on +49 30 1234 5678',
  'the password reset link expired',
  'password: what is the policy?',
  'Bearer of bad news',
  'AKIA is a prefix',
  'ghp_ is how GitHub tokens start',
  'my room is 4111 and the year 2026',
  'timestamp 1732982400000',
  'the key decision: we ship Friday',
  'my password is too long',
  'the password is wrong, I keep mistyping it',
  'his password was changed yesterday',
  'what is the code for the door?',
  'my pin is what again?',
  'the pin: which one?',
];

describe('secrets are removed before anything is stored', () => {
  it.each(secrets)('%s inside a sentence', (_name, secret, kind) => {
    const scan = removeSecrets(`here it is: ${secret} — keep it safe`);
    expect(scan.text).not.toContain(secret);
    expect(scan.text).toContain(SECRET_REMOVED);
    expect(scan.text).toMatch(/^here it is: .*keep it safe$/s);
    expect(scan.kinds).toContain(kind);
  });

  it.each(lines)('%s', (_name, line, kind, secretPart) => {
    const scan = removeSecrets(`note\n${line}\nthanks`);
    expect(scan.kinds).toContain(kind);
    expect(scan.text).toContain(SECRET_REMOVED);
    expect(scan.text.startsWith('note\n')).toBe(true);
    expect(scan.text.endsWith('\nthanks')).toBe(true);
    expect(scan.text).not.toContain(secretPart);
  });

  it.each(lookAlikes)('look-alike stays: %s', (text) => {
    expect(removeSecrets(text)).toEqual({ text, kinds: [] });
  });

  it('card numbers need Luhn and a real brand prefix', () => {
    expect(isCardNumber(j('4111', '1111', '1111', '1111'))).toBe(true);
    expect(isCardNumber(j('4111', '1111', '1111', '1112'))).toBe(false);
    expect(isCardNumber('1234567812345670')).toBe(false);
  });
});
