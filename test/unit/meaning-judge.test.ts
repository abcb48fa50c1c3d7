/**
 * The judge by meaning's rule (src/core/privacy/meaning-judge.ts), with a scripted encoder: each
 * text's vector counts the words of a few topics, so what is "near" is known. A text is labelled
 * with its nearest sensitive example's kind when that one is near enough and nearer than every
 * ordinary example; an example written without a kind takes the rules'; an encoder that fails
 * makes the judge reject (the precheck then fails closed).
 */
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/core/ports/index.js';
import { framed, MeaningJudge, isSensitiveNearness, THRESHOLD } from '../../src/core/privacy/meaning-judge.js';
import { ORDINARY_EXAMPLES, SENSITIVE_EXAMPLES } from '../../src/core/privacy/meaning-examples.js';
import { classifyText } from '../../src/core/privacy/sensitivity.js';
import { OTHER_LANGUAGES, readsAsEnglish } from '../../src/core/privacy/language.js';

const TOPICS = [
  ['clinic', 'pregnant', 'weeks', 'scan', 'tablets'],
  ['debt', 'owes', 'bailiffs', 'arrears'],
  ['passport', 'number', 'expires'],
  ['garden', 'tulips', 'shed', 'paint', 'weekend'],
  ['bread', 'milk', 'shop'],
];
/** A scripted encoder: one dimension a topic, the count of its words. */
function topicEncoder(): Embedder & { calls: number } {
  return {
    id: 'topics:5',
    dimensions: TOPICS.length,
    semantic: true,
    locality: 'local',
    calls: 0,
    embed(texts: string[]) {
      this.calls++;
      return Promise.resolve(texts.map((t) => Float32Array.from(TOPICS.map((words) => words.filter((w) => t.toLowerCase().includes(w)).length + 0.01))));
    },
  };
}

const examples = [
  ['She is pregnant, eight weeks, the clinic scan is Monday.', 'phi'],
  ['He owes the bailiffs and is in arrears.', 'financial'],
  ['My passport number is X123 and it expires soon.', null],
] as const;
const ordinary = ['We will paint the shed at the weekend.', 'Get bread and milk from the shop.'];

describe('the judge by meaning', () => {
  it('reads what a request frames apart from the frame: a request about ordinary things pulls a sensitive line out of reach (tenth sweep)', async () => {
    // the frame's words are ordinary talk's (shop, weekend, garden): the whole text lands nearer them
    const frame = 'add tulips, paint, shed, bread and milk to the weekend garden shop list';
    const line = 'the clinic scan, eight weeks pregnant';
    const whole = `${frame}: ${line}`;
    const judge = new MeaningJudge(topicEncoder(), examples, ordinary);
    const [near] = await judge.nearness([whole]);
    expect(isSensitiveNearness(near!)).toBe(false);
    expect(await judge.labels([whole])).toEqual([{ sensitivity: 'sensitive', kind: 'phi' }]);
    // the same frame around an ordinary line stays ordinary
    expect(await judge.labels([`${frame}: bread and milk from the shop please`])).toEqual([null]);
  });

  it('takes a frame only where a short request introduces a sentence', () => {
    expect(framed('can you put this in the family calendar for tomorrow: Ann is at the clinic on Friday')).toEqual(['Ann is at the clinic on Friday']);
    expect(framed('Meet at 10:30 by the gate with the kids')).toEqual([]);
    expect(framed('Note: ok then')).toEqual([]);
    expect(framed('Shopping list: milk, bread, eggs and butter')).toEqual(['milk, bread, eggs and butter']);
    expect(framed('no colon here at all in this sentence')).toEqual([]);
  });

  it('labels a text by its nearest sensitive example, and leaves one nearer ordinary talk', async () => {
    const judge = new MeaningJudge(topicEncoder(), examples, ordinary);
    const labels = await judge.labels([
      'Her tablets from the clinic, and a scan at twelve weeks',
      'the bailiffs came about the arrears',
      'tulips by the shed this weekend',
      'the shop is out of bread',
    ]);
    expect(labels).toEqual([{ sensitivity: 'sensitive', kind: 'phi' }, { sensitivity: 'sensitive', kind: 'financial' }, null, null]);
  });

  it('a single word is not judged: it has no sentence to read (the rules judge words)', async () => {
    const encoder = topicEncoder();
    const judge = new MeaningJudge(encoder, examples, ordinary);
    // "clinic" alone lands on the pregnancy example by its one word; a name would land by its letters
    expect(await judge.labels(['clinic', ' Alice ', '"bailiffs"', 'the clinic'])).toEqual([null, null, null, { sensitivity: 'sensitive', kind: 'phi' }]);
  });

  it("an example written without a kind takes the rules' kind (a passport number: credential)", async () => {
    const judge = new MeaningJudge(topicEncoder(), examples, ordinary);
    expect(classifyText(examples[2][0])?.sensitivity).toBe('sensitive');
    expect(await judge.labels(['when the passport number expires'])).toEqual([classifyText(examples[2][0])]);
  });

  it('near enough is not enough: nearer an ordinary example, or below the threshold, is ordinary', () => {
    expect(isSensitiveNearness({ sensitive: THRESHOLD, ordinary: THRESHOLD - 0.1, example: 0 })).toBe(true);
    expect(isSensitiveNearness({ sensitive: THRESHOLD - 0.01, ordinary: 0, example: 0 })).toBe(false);
    expect(isSensitiveNearness({ sensitive: 0.9, ordinary: 0.95, example: 0 })).toBe(false);
  });

  it('an encoder that fails makes it reject (the precheck then fails closed), and the examples are embedded again at the next text', async () => {
    const encoder = topicEncoder();
    const embed = encoder.embed.bind(encoder);
    let failing = true;
    encoder.embed = (texts: string[]) => (failing ? Promise.reject(new Error('no wasm')) : embed(texts));
    const judge = new MeaningJudge(encoder, examples, ordinary);
    await expect(judge.labels(['the clinic scan'])).rejects.toThrow('no wasm');
    failing = false;
    expect(await judge.labels(['the clinic scan at eight weeks'])).toEqual([{ sensitivity: 'sensitive', kind: 'phi' }]);
  });

  it('its shipped examples: sensitive ones are sensitive by kind, none is repeated, ordinary ones are not sensitive by the rules', () => {
    const texts = SENSITIVE_EXAMPLES.map(([t]) => t);
    expect(new Set(texts).size).toBe(texts.length);
    expect(new Set(ORDINARY_EXAMPLES).size).toBe(ORDINARY_EXAMPLES.length);
    for (const t of ORDINARY_EXAMPLES) expect(classifyText(t)?.sensitivity, t).not.toBe('sensitive');
    expect(SENSITIVE_EXAMPLES.length).toBeGreaterThan(50);
  });

  it('does not read another language: such a text is unjudged (kept from hosted services), and is not embedded', async () => {
    const encoder = topicEncoder();
    const judge = new MeaningJudge(encoder, examples, ordinary);
    await judge.warm();
    const seen: string[] = [];
    const embed = encoder.embed.bind(encoder);
    encoder.embed = (texts: string[]) => {
      seen.push(...texts);
      return embed(texts);
    };
    const labels = await judge.labels(['Kannst du Milch und Brot kaufen?', 'the clinic scan at eight weeks']);
    expect(labels).toEqual([
      { sensitivity: 'sensitive', unjudged: true },
      { sensitivity: 'sensitive', kind: 'phi' },
    ]);
    expect(seen).toEqual(['the clinic scan at eight weeks']);
  });
});

describe('which texts the judge by meaning reads', () => {
  it('ordinary talk in German, French, Spanish, Italian, Portuguese, Dutch, Polish and other scripts reads as another language', () => {
    for (const t of [
      'Kannst du Milch und Brot kaufen? Wir fahren morgen.',
      'On se retrouve à la gare à huit heures, je pense.',
      'Mañana voy al mercado a comprar fruta con mi hermana.',
      'La nonna ha preparato le lasagne per domenica.',
      'Amanhã vamos à praia com os meninos, está calor.',
      'Morgen gaan we met de kinderen naar het strand.',
      'Jutro idziemy do kina, ale nie wiem jak.',
      'Завтра мы идём в кино с детьми.',
      '明天我们带孩子去看电影。',
    ])
      expect(readsAsEnglish(t), t).toBe(false);
  });

  it('English reads as English, with a foreign name or phrase in it, and so do short calendar titles', () => {
    for (const t of [
      'We had coq au vin at the bistro in Le Mans.',
      'Ambrose - NA home group',
      'StepChange call re the DMP',
      'The dentist appointment moved to Thursday.',
      'Zoë and Björn are coming for dinner with their kids.',
      'ok',
    ])
      expect(readsAsEnglish(t), t).toBe(true);
  });

  it('no function word of another language is also an English one (the lists are built so)', () => {
    const english = ['a', 'an', 'in', 'on', 'is', 'as', 'to', 'do', 'no', 'die', 'was', 'at', 'be', 'me', 'we', 'he', 'so', 'it', 'i', 'us', 'or', 'and', 'the', 'of', 'for', 'but', 'not'];
    for (const [language, words] of Object.entries(OTHER_LANGUAGES)) for (const w of english) expect(words.has(w), `${language}: ${w}`).toBe(false);
  });
});
