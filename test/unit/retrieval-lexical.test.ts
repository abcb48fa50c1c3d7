import { describe, expect, it } from 'vitest';
import { LexicalIndex } from '../../src/memory/index/lexical.js';
import { terms } from '../../src/memory/index/text.js';

type Tokenised = { id: number; text: string[]; context: string[] };

/** BM25 of text plus weight × BM25 of context, computed document by document (the definition, no posting lists, nothing skipped). */
function bruteForce(tok: Tokenised[], query: string, limit: number, weight: number, accept: (id: number) => boolean = () => true) {
  const K1 = 1.2;
  const B = 0.75;
  const n = tok.length;
  const avgText = tok.reduce((a, d) => a + d.text.length, 0) / n || 1;
  const avgContext = tok.reduce((a, d) => a + d.context.length, 0) / n || 1;
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const field = (list: string[], t: string, avg: number, df: number) => {
    const f = list.filter((w) => w === t).length;
    return f === 0 ? 0 : (idf(df) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * list.length) / avg));
  };
  const qs = [...new Set(terms(query))].map((t) => ({ t, df: tok.filter((o) => o.text.includes(t)).length, cdf: tok.filter((o) => o.context.includes(t)).length }));
  const scored = tok
    .filter((d) => accept(d.id))
    .map((d) => {
      let score = 0;
      for (const { t, df, cdf } of qs) {
        score += field(d.text, t, avgText, df);
        if (cdf > 0 && weight > 0) score += weight * field(d.context, t, avgContext, cdf);
      }
      return { id: d.id, score };
    })
    .filter((h) => h.score > 0);
  return scored.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}

describe('in-memory keyword index', () => {
  it('stops walking common words once no other chunk can enter the top, and finds the same chunks with the same scores as scoring every chunk', () => {
    // Zipf-like words: a few in most chunks, most in a few; queries mix both, in every order
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i}x`);
    const word = () => vocabulary[Math.floor(Math.pow(random(), 2.5) * vocabulary.length)]!;
    const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
    const docs = Array.from({ length: 1500 }, (_, id) => ({ id, text: sentence(5 + Math.floor(random() * 30)), context: id % 3 === 0 ? sentence(4) : '' }));
    const ix = new LexicalIndex<number>();
    for (const d of docs) ix.add(`page-${d.id % 100}`, d.id, d.text, d.context);
    ix.trim(); // pooled, then more added after the pool (the lists' second part)
    for (let id = 1500; id < 1700; id++) {
      const d = { id, text: sentence(5 + Math.floor(random() * 30)), context: '' };
      docs.push(d);
      ix.add(`page-${id % 100}`, id, d.text, d.context);
    }
    const tok = docs.map((d) => ({ id: d.id, text: terms(d.text), context: terms(d.context) }));
    let pruned = 0;
    for (let q = 0; q < 40; q++) {
      const query = [word(), word(), vocabulary[150 + q * 5]!, q % 2 ? word() : ''].join(' ');
      for (const weight of [0, 0.4]) {
        const even = (id: number) => id % 2 === 0;
        for (const filter of [undefined, even]) {
          const seen = new Set<number>();
          const hits = ix.search(query, 10, weight, (v) => (seen.add(v), filter ? filter(v) : true));
          const expected = bruteForce(tok, query, 10, weight, filter);
          expect(hits.map((h) => h.value)).toEqual(expected.map((h) => h.id));
          hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 9));
          // chunks holding a query word that the search never looked at: it stopped early
          const holding = tok.filter((d) => terms(query).some((t) => d.text.includes(t) || (weight > 0 && d.context.includes(t)))).length;
          if (seen.size < holding) pruned++;
        }
      }
    }
    // of the 160 searches, those with a rare word and a common one stopped early
    expect(pruned).toBeGreaterThan(30);
  });

  it('ranks by BM25 on stemmed terms, ignoring stop words', () => {
    const ix = new LexicalIndex<string>();
    ix.add('a', 'a1', 'We went hiking in the mountains');
    ix.add('a', 'a2', 'The weather was nice and the food was good');
    ix.add('b', 'b1', 'I hike every weekend');
    const hits = ix.search('Who hikes?', 10, 0).map((h) => h.value);
    expect(hits.sort()).toEqual(['a1', 'b1']);
    expect(ix.search('the and was', 10, 0)).toEqual([]);
  });

  it('scores the context field only by its weight', () => {
    const ix = new LexicalIndex<string>();
    ix.add('p', 'reply', 'Yes, every morning before work', 'Do you go running?');
    ix.add('p', 'other', 'I like tea');
    expect(ix.search('running', 10, 0)).toEqual([]);
    expect(ix.search('running', 10, 0.5).map((h) => h.value)).toEqual(['reply']);
  });

  it('scores each search afresh: what an earlier search scored, one that throws in its filter included, does not carry over', () => {
    const ix = new LexicalIndex<string>();
    const texts = ['the garden shed roof', 'the garden party', 'a leaking roof', 'the boiler and the roof', 'school run'];
    texts.forEach((t, i) => ix.add(`p${i}`, `d${i}`, t));
    const first = ix.search('garden roof', 10, 0);
    expect(ix.search('roof boiler', 10, 0).length).toBeGreaterThan(0);
    expect(() =>
      ix.search('garden', 10, 0, () => {
        throw new Error('filter failed');
      }),
    ).toThrow('filter failed');
    expect(ix.search('garden roof', 10, 0)).toEqual(first);
    ix.add('p5', 'd5', 'the garden gate');
    const fresh = new LexicalIndex<string>();
    [...texts, 'the garden gate'].forEach((t, i) => fresh.add(`p${i}`, `d${i}`, t));
    expect(ix.search('garden roof', 10, 0)).toEqual(fresh.search('garden roof', 10, 0));
  });

  it('forgets removed documents, also after compacting', () => {
    const ix = new LexicalIndex<{ line: number }>();
    for (let i = 0; i < 100; i++) ix.add(i < 90 ? 'old' : 'kept', { line: i }, `entry ${i} about gardening`);
    ix.remove('kept', (v) => v.line === 95);
    expect(ix.search('gardening', 200, 0)).toHaveLength(99);
    ix.remove('old');
    expect(ix.size).toBe(9);
    const lines = ix.search('gardening', 200, 0).map((h) => h.value.line);
    expect(lines).toEqual([90, 91, 92, 93, 94, 96, 97, 98, 99]);
  });
  it('after removals and a compaction, ranks and scores exactly as an index of only the live documents', () => {
    const words = ['garden', 'quince', 'pruned', 'hiking', 'tea', 'morning', 'dentist', 'school'];
    const text = (i: number, n: number) => Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ');
    const ix = new LexicalIndex<number>();
    const fresh = new LexicalIndex<number>();
    for (let i = 0; i < 200; i++) {
      const key = `page-${i % 10}`;
      ix.add(key, i, text(i, 1 + (i % 9)), i % 4 === 0 ? text(i + 1, 3) : '');
      if (i % 10 >= 7) fresh.add(key, i, text(i, 1 + (i % 9)), i % 4 === 0 ? text(i + 1, 3) : '');
    }
    for (let k = 0; k < 7; k++) ix.remove(`page-${k}`);
    expect(ix.size).toBe(fresh.size);
    for (const q of ['quince garden', 'tea', 'dentist school morning', 'hiking']) expect(ix.search(q, 20, 0.4)).toEqual(fresh.search(q, 20, 0.4));
    ix.add('page-0', 1000, 'quince quince quince');
    expect(ix.search('quince', 1, 0)[0]!.value).toBe(1000);
  });

  it('pooled posting lists (built at trim, again past an eighth of additions, and at a compaction) rank and score exactly as lists never pooled', () => {
    const words = ['garden', 'quince', 'pruned', 'hiking', 'tea', 'morning', 'dentist', 'school', 'boiler', 'invoice', 'sarah', 'globex'];
    const text = (i: number, n: number) => Array.from({ length: n }, (_, j) => `${words[(i * 7 + j * 3) % words.length]}${(i + j) % 50}`).join(' ');
    const pooled = new LexicalIndex<number>();
    const plain = new LexicalIndex<number>();
    const both = (f: (ix: LexicalIndex<number>) => void) => [pooled, plain].forEach(f);
    const queries = ['quince3 garden4', 'tea9', 'dentist2 school7 morning1', 'hiking0 boiler5', 'sarah11 globex12 invoice10'];
    const same = () => {
      expect(pooled.size).toBe(plain.size);
      for (const q of queries) for (const w of [0, 0.4]) expect(pooled.search(q, 50, w)).toEqual(plain.search(q, 50, w));
    };
    // a table read, then pooled (plain is never trimmed, so it keeps every term's own list)
    for (let i = 0; i < 3000; i++) both((ix) => ix.add(`page-${i % 300}`, i, text(i, 2 + (i % 7)), i % 3 === 0 ? text(i + 1, 3) : ''));
    pooled.trim();
    same();
    // appends after the pool: enough pairs to pass its share, so it is built again while searched between
    for (let i = 3000; i < 12000; i++) {
      both((ix) => ix.add(`page-${i % 300}`, i, text(i, 2 + (i % 7)), i % 5 === 0 ? text(i + 2, 2) : ''));
      if (i % 1500 === 0) same();
    }
    same();
    // removals (some of the pool, some of the additions), then a compaction, then more appends
    for (let k = 0; k < 200; k++) both((ix) => ix.remove(`page-${k}`, (v) => v % 2 === 0 || k < 120));
    same();
    for (let k = 200; k < 290; k++) both((ix) => ix.remove(`page-${k}`));
    same();
    for (let i = 12000; i < 12100; i++) both((ix) => ix.add(`page-${i % 300}`, i, text(i, 3), ''));
    same();
  });

  it('a document whose text is read again from its value (no term list kept) is removed as exactly as one with its list', () => {
    const words = ['garden', 'quince', 'pruned', 'hiking', 'tea', 'morning', 'dentist', 'school', 'boiler', 'invoice'];
    const text = (i: number, n: number) => Array.from({ length: n }, (_, j) => `${words[(i * 7 + j * 3) % words.length]}${(i + j) % 40}`).join(' ');
    type Doc = { i: number; text: string };
    const reread = new LexicalIndex<Doc>((d) => d.text);
    const listed = new LexicalIndex<Doc>();
    const both = (f: (ix: LexicalIndex<Doc>) => void) => [reread, listed].forEach(f);
    const queries = ['quince3 garden4', 'tea9', 'dentist2 school7 morning1', 'hiking0 boiler5', 'invoice9 pruned2'];
    const same = () => {
      expect(reread.size).toBe(listed.size);
      for (const q of queries) for (const w of [0, 0.4]) expect(reread.search(q, 50, w)).toEqual(listed.search(q, 50, w));
    };
    // most documents have no context and are added with their value's text; some have a context, and
    // some are added with another text than their value gives (those keep their list)
    const add = (i: number) => {
      const doc = { i, text: text(i, 2 + (i % 6)) };
      const keywords = i % 11 === 0 ? `${doc.text} ${text(i + 3, 2)}` : doc.text;
      both((ix) => ix.add(`page-${i % 200}`, doc, keywords, i % 4 === 0 ? text(i + 1, 3) : ''));
    };
    for (let i = 0; i < 2000; i++) add(i);
    reread.trim();
    listed.trim();
    same();
    for (let k = 0; k < 120; k++) both((ix) => ix.remove(`page-${k}`, (d) => d.i % 3 !== 0 || k < 60));
    same();
    for (let i = 2000; i < 2600; i++) add(i);
    for (let k = 120; k < 190; k++) both((ix) => ix.remove(`page-${k}`));
    same();
    // every document gone: nothing is left counted
    for (let k = 0; k < 200; k++) both((ix) => ix.remove(`page-${k}`));
    expect(reread.size).toBe(0);
    add(5000);
    expect(reread.search('tea', 5, 0.4)).toEqual(listed.search('tea', 5, 0.4));
  });

  it('a pooled pair keeps frequencies past a byte (254, 255, 256, 70,000) exact', () => {
    const pooled = new LexicalIndex<number>();
    const plain = new LexicalIndex<number>();
    const many = (word: string, n: number) => Array.from({ length: n }, () => word).join(' ');
    const counts = [1, 254, 255, 256, 300, 70_000];
    counts.forEach((n, i) =>
      [pooled, plain].forEach((ix) => {
        ix.add(`page-${i}`, i, `${many('quince', n)} garden`, many('quince', counts[(i + 2) % counts.length]!));
        ix.add(`page-${i}`, 100 + i, 'garden tea', many('quince', n));
      }),
    );
    pooled.trim();
    for (const q of ['quince', 'garden', 'quince tea'])
      for (const w of [0, 0.4]) {
        const hits = pooled.search(q, 20, w);
        expect(hits).toEqual(plain.search(q, 20, w));
        expect(hits.length).toBeGreaterThan(0);
      }
    // removals and a compaction build the pool again from itself
    for (let i = 0; i < 4; i++) [pooled, plain].forEach((ix) => ix.remove(`page-${i}`, (v) => v >= 100));
    for (let i = 0; i < 80; i++) [pooled, plain].forEach((ix) => ix.add(`filler-${i}`, 1000 + i, 'tea', ''));
    for (let i = 0; i < 80; i++) [pooled, plain].forEach((ix) => ix.remove(`filler-${i}`));
    for (const q of ['quince', 'garden']) for (const w of [0, 0.4]) expect(pooled.search(q, 20, w)).toEqual(plain.search(q, 20, w));
  });
});
