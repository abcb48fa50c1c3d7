/**
 * One definition of "sensitive": every spelling the parser accepts reads the same in every
 * reader (inline markers, front matter of both page readers, the index, DM rows), and the
 * classification rules hold on a table of samples and look-alikes.
 */
import { describe, expect, it } from 'vitest';
import { markedBlocks } from '../../src/core/privacy/sensitive-records.js';
import { withoutSensitiveRecords } from '../../src/core/inspector/record-view.js';
import { isSensitiveRecord } from '../../src/core/private/private-records.js';
import { classifyText, isSensitive, markedSensitivity, parseSensitivity, SENSITIVE_KINDS, sensitiveSpellings, sensitivityOf, stricter, UNJUDGED_LABEL } from '../../src/core/privacy/sensitivity.js';
import { parseNote } from '../../src/memory/markdown/note-format.js';
import { readPage } from '../../src/memory/graph/page.js';
import { chunkPage } from '../../src/memory/index/chunker.js';
import { applyToPage, type PagePlan } from '../../src/memory/graph/graph-write.js';

describe('one parser for every spelling', () => {
  it('reads every generated spelling as sensitive, and each kind as its kind', () => {
    for (const s of sensitiveSpellings()) expect(parseSensitivity(s)?.sensitivity, s).toBe('sensitive');
    for (const k of SENSITIVE_KINDS) {
      expect(parseSensitivity(`sensitive/${k}`)).toEqual({ sensitivity: 'sensitive', kind: k });
      expect(parseSensitivity(k.toUpperCase())).toEqual({ sensitivity: 'sensitive', kind: k });
    }
    expect(parseSensitivity('personal')).toEqual({ sensitivity: 'personal' });
    expect(parseSensitivity(' Public ')).toEqual({ sensitivity: 'public' });
    expect(parseSensitivity('')).toBeNull();
    // fails closed: a value it does not know is sensitive, never personal
    expect(parseSensitivity('secret-ish')?.sensitivity).toBe('sensitive');
  });

  it('every reader agrees on every spelling', () => {
    for (const s of sensitiveSpellings()) {
      const line = `- Alice takes pills for it. [type:: identity] [sensitivity:: ${s}] ^r-1234`;
      expect(markedSensitivity(line)?.sensitivity, s).toBe('sensitive');
      expect(sensitivityOf(`entry text [sensitivity:: ${s}]`), s).toBe('sensitive');
      expect(withoutSensitiveRecords(`- plain fact\n${line}`), s).toBe('- plain fact');
      expect(markedBlocks(`Intro.\n\n${line}\n- other`).join('\n'), s).toContain('Alice takes pills');
      expect(isSensitiveRecord({ sensitivity: s }), s).toBe(true);
      const page = `---\ntitle: Carol\nsensitivity: "${s}"\n---\n\nCarol's notes.\n`;
      // a spelling the page readers do not know is reported as a problem to fix (never read as personal);
      // the provisional label is an archive entry's only, never a page's
      const known = s !== 'confidential' && s !== UNJUDGED_LABEL;
      const note = parseNote(page, 'People/Carol.md', 'People/Carol.md');
      expect(note.ok ? note.note.sensitivity : 'reported', `note-format ${s}`).toBe(known ? 'sensitive' : 'reported');
      const wiki = readPage(page, 'People/Carol.md', 'People/Carol.md');
      expect(wiki.ok ? wiki.page.sensitivity : 'reported', `graph page ${s}`).toBe(known ? 'sensitive' : 'reported');
      const chunks = chunkPage('notes/People/Carol.md', page);
      expect(chunks.length, s).toBeGreaterThan(0);
      for (const c of chunks) expect(c.sensitivity, `chunker ${s}`).toBe('sensitive');
    }
  });

  it('a front matter that does not parse but names a sensitivity is read as sensitive by the index', () => {
    const page = `---\ntitle: Carol\nsensitivity: sensitive: phi\n---\n\nCarol's notes.\n`;
    for (const c of chunkPage('notes/People/Carol.md', page)) expect(c.sensitivity).toBe('sensitive');
  });

  it('a kind field alone makes a page sensitive', () => {
    const page = `---\ntitle: Carol\nkind: phi\n---\n\nCarol's notes.\n`;
    const note = parseNote(page, 'People/Carol.md', 'People/Carol.md');
    expect(note.ok && note.note.sensitivity).toBe('sensitive');
  });

  it('stricter keeps the kind', () => {
    expect(stricter('sensitive', 'phi')).toBe('sensitive/phi');
    expect(stricter('personal', 'public')).toBe('personal');
    expect(isSensitive('personal')).toBe(false);
  });
});

/** Samples that the rules must classify, and look-alikes that must stay as they are. */
const SAMPLES: [string, string | null][] = [
  ["Zed's bank PIN is 4412", 'credential'],
  ['the code for the door is 1234', 'credential'],
  ['Our wifi password is hunter2', 'credential'],
  ['The alarm code changed last week', 'credential'],
  ['Alice takes sumatriptan for migraines', 'phi'],
  ['Carol told me about her HIV status', 'phi'],
  ['Dad is on insulin now', 'phi'],
  ['Bob got his blood test results back', 'phi'],
  ['Rent of €1,250 paid to Acme Properties', 'financial'],
  ['My salary is 91k', 'financial'],
  ['IBAN DE89 3704 0044 0532 0130 00', 'financial'],
  ['Sam owes me $40', 'financial'],
  ['date: 2026-11-01; payee: Acme Properties; amount: -1250.00; memo: November', 'financial'],
  ['E-mail from HR, subject: Your new salary from January', 'financial'],
  // shapes added after the third outside sweep
  ['Front door keypad: seven three nine one, then hash', 'credential'],
  ['The gate code is four four one nine', 'credential'],
  ['Bram is on PrEP now', 'phi'],
  // shapes added after the fifth outside sweep: a made-up password with no word that says so, a key read out in groups
  ['u need 2 type Gooseberry!!42 when the telly asks', 'credential'],
  ['the laptop wants Marigold#2019 at login', 'credential'],
  ['The authenticator secret is JBSW Y3DP EHPK 3PXP.', 'credential'],
  ['Claim code AQ7K-9PLM-33RT for the gift card', 'credential'],
  ['Email me at sam.lee99@example.com!', null],
  ['Follow @bakery_2024 for the new menu!!', null],
  ['Tickets are $49.99! Book now', null],
  ['Flight BA 2490 lands at 7', null],
  ['Our postcode is SW1A 1AA', null],
  ['Call 0161 496 0000 after six', null],
  ['The Wi-Fi works again!! 5 bars now', null],
  ['ssh pi@raspberrypi4 and run app.run(port=5000)', null],
  ['Use **Argon2** and **Jinja2**: both are fine', null],
  ['Meal prep on Sunday for the week', null],
  ['PREP TIME: 10 minutes', null],
  ['Count one two three four and jump', null],
  ['Alice likes climbing', null],
  ['The tent costs €80', null],
  ['Pin the message to the channel', null],
  ['We watched a documentary about pins and needles', null],
  ['The code review went well', null],
  ['Meet at 5 pm by the lake', null],
];

describe('classification rules', () => {
  it.each(SAMPLES)('%s → %s', (text, kind) => {
    const c = classifyText(text);
    if (kind === null) expect(c?.sensitivity ?? 'none').not.toBe('sensitive');
    else expect(c).toEqual({ sensitivity: 'sensitive', kind });
  });
});

describe('a page whose records are sensitive', () => {
  const plan = (sensitivities: (string | undefined)[]): PagePlan => ({
    path: 'People/Carol-HIV-status.md',
    isNew: true,
    title: 'Carol HIV status',
    category: 'People',
    aliases: [],
    description: 'Carol told me about her HIV status.',
    staleness: 3,
    facts: sensitivities.map((s, i) => ({ text: `Fact ${i}.`, said: '2026-11-20', source: 'manual', ...(s ? { sensitivity: s } : {}) })),
    links: [],
  });
  it('starts sensitive, so its title cannot repeat them in a list or a link', () => {
    const page = applyToPage(null, plan(['sensitive/phi', 'sensitive']), '2026-11-20', () => null)!.content;
    expect(page).toMatch(/^sensitivity: sensitive$/m);
    expect(page).toMatch(/^kind: phi$/m);
    // one ordinary record among them: the page stays personal, its sensitive records marked one by one
    expect(applyToPage(null, plan(['sensitive/phi', undefined]), '2026-11-20', () => null)!.content).toMatch(/^sensitivity: personal$/m);
  });
});
