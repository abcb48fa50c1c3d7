/**
 * The rules table, tested from its own rows: every form of every word is classified with its
 * row's kind, in several sentence shapes (start, middle, end, capitalised, before punctuation);
 * and innocent sentences that share letters or everyday meanings with those words are not.
 * A row added to SENSITIVE_WORDS is covered without touching this file.
 */
import { describe, expect, it } from 'vitest';
import { SENSITIVE_WORDS } from '../../src/core/privacy/sensitive-words.js';
import { classifyText } from '../../src/core/privacy/sensitivity.js';

/** Where a word may stand in a message or an event title. */
const SHAPES = [(w: string) => `${w} on Tuesday`, (w: string) => `Carol mentioned the ${w} yesterday.`, (w: string) => `Reminder: ${w}!`, (w: string) => `Note (${w.toUpperCase()})`];

const cases = SENSITIVE_WORDS.flatMap((row) => row.forms.map((form) => [form, row.kind ?? 'sensitive (no kind)', row] as const));

describe('every word of the table, in every shape', () => {
  it('has forms for every row, and a pattern that compiles', () => {
    for (const row of SENSITIVE_WORDS) {
      expect(row.forms.length, row.match).toBeGreaterThan(0);
      expect(() => new RegExp(row.match, 'i')).not.toThrow();
    }
  });

  it.each(cases)('%s → %s', (form, _label, row) => {
    for (const shape of SHAPES) {
      const text = shape(form);
      const c = classifyText(text);
      expect(c?.sensitivity, text).toBe('sensitive');
      // a stricter rule may win (a credential beats health), but never a laxer one
      if (row.kind) expect(c?.kind, text).toBeDefined();
      else expect(c?.sensitivity, text).toBe('sensitive');
    }
    // alone, the form gets its own row's kind (the table's order decides only between rows)
    const alone = classifyText(form);
    expect(alone?.sensitivity, form).toBe('sensitive');
    if (row.kind) expect(alone?.kind, form).toBe(row.kind);
  });

  it('each form is found inside a longer word only when the pattern says so', () => {
    // glued to letters on either side, a plain word no longer matches ("courtroom" is its own form)
    for (const row of SENSITIVE_WORDS)
      for (const form of row.forms.filter((f) => /^[a-z]+$/i.test(f) && !row.match.startsWith('\\w'))) {
        const glued = `x${form.toLowerCase()}q`;
        expect(classifyText(glued)?.sensitivity ?? 'none', glued).not.toBe('sensitive');
      }
  });
});

/** Everyday sentences that share letters or meanings with the table's words: none is sensitive. */
const INNOCENT = [
  'We played on the tennis court after lunch',
  'Meet me at the food court',
  'The basketball court is closed for painting',
  'Lunch in the courtyard, as a courtesy to the neighbours',
  'Sue is bringing the cake',
  'I might bail on the party tonight',
  'Can you bail out the canoe?',
  'Write it down with a BIC pen',
  'The chemistry homework is due Friday',
  'The therapod skeleton at the museum',
  'The kids built a sandcastle with a moat',
  'Sticky notes are in the drawer',
  'The stick is by the door',
  'Hand me the aids for the lecture slides',
  'Alice likes climbing at the Boulderhaus',
  'The tent costs €80',
  'Pin the message to the channel',
  'The code review went well',
  'Meet at 5 pm by the lake',
  'The team is on a winning streak',
  'She studied the history of the Roman court of law in class',
  'Let us plan the camping trip for August',
  'The loft has a great view',
  'Our cat is asleep on the sofa',
  'The court jester in the play was funny',
  'Attendance at the yoga class was high',
  'Counter the argument with facts',
  'The tax office is on Main Street', // an address, but not sensitive
  'Compost improves soil fertility',
  'The camp counselors took the kids canoeing',
  'We play in court 3 on Saturday',
  'Class inheritance in Java is confusing',
  // look-alikes of the rows added after the outside sweep
  'The colour combination is lovely',
  'What a combination of flavours',
  'Our passport photos are ready for the holiday',
  'We need a visa for the trip to India',
  'The key to the shed is under the mat',
  'She ran 5 km and drank 500 ml of water',
  'The museum seized the moment with a new exhibit',
  'The phrase of the day is carpe diem',
  // look-alikes of the rows added after the second sweep
  'The garden was sectioned off for the party',
  'There are no papers on the desk',
  'April showers bring May flowers',
  'The lease has a termination clause',
  'The bike lock is in the shed',
  'We keep twelve words of French on the fridge',
  'The judge at the baking contest loved the cake',
];

/** Each row's own everyday sentences (SensitiveWord.ordinary): what its words must leave alone. */
const ordinary = SENSITIVE_WORDS.flatMap((row) => (row.ordinary ?? []).map((text) => [text, row.match.slice(0, 60)] as const));

describe("each row's everyday look-alikes", () => {
  it('are listed for every row added since the third sweep (a new row says what it must not catch)', () => {
    expect(ordinary.length).toBeGreaterThanOrEqual(40);
  });
  it.each(ordinary)('%s → not sensitive (row %s…)', (text) => {
    expect(classifyText(text)?.sensitivity ?? 'none').not.toBe('sensitive');
  });
});

describe('innocent sentences', () => {
  it.each(INNOCENT)('%s → not sensitive', (text) => {
    expect(classifyText(text)?.sensitivity ?? 'none').not.toBe('sensitive');
  });
});

describe('the five the last sweep found', () => {
  // calendar titles that reached the hosted model unmarked
  it.each(['Carol oncology follow-up', 'Bob counselling session', 'Abortion clinic appointment', 'AA meeting at the church hall', 'Biopsy results with Dr Lee'])('%s', (title) => {
    expect(classifyText(title)).toEqual({ sensitivity: 'sensitive', kind: 'phi' });
  });
});
