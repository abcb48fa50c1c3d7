/** LoCoMo helpers shared by the benchmark and its tests: dates, evidence, scoring. */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → 2023-05-08T13:56:00Z (the data carries no zone; UTC is used). */
export function parseLocomoDate(text: string): Date | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (!m) return null;
  const month = MONTHS.findIndex((name) => name.startsWith(m[5]!.toLowerCase().slice(0, 3)));
  if (month < 0) return null;
  let hour = Number(m[1]) % 12;
  if (m[3]?.toLowerCase() === 'pm') hour += 12;
  if (!m[3]) hour = Number(m[1]);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

/** The scorer's normalisation: split on `;`, `,`, spaces; `D:?s:0*t` → `Ds:t`; keep existing ids. */
export function normaliseEvidence(evidence: unknown[], validIds: Set<string>): string[] {
  const out = new Set<string>();
  for (const raw of evidence) {
    for (const tok of String(raw).split(/[\s;,]+/)) {
      const m = /^D:?(\d+):0*(\d+)$/.exec(tok);
      const id = m ? `D${m[1]}:${m[2]}` : null;
      if (id && validIds.has(id)) out.add(id);
    }
  }
  return [...out];
}

export interface ScoredItem {
  key: string;
  category: number;
  gold: string[];
}

const NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop', 5: 'adversarial' };

/** recall@5 / recall@10 per category and overall (1–4), as bm25-baseline.mjs prints them. */
export function scoreRuns(items: ScoredItem[], rankings: Record<string, string[]>, ks = [5, 10]): string {
  const agg = new Map<number, { n: number; sums: number[] }>();
  for (const it of items) {
    const b = agg.get(it.category) ?? { n: 0, sums: ks.map(() => 0) };
    agg.set(it.category, b);
    b.n++;
    const ranked = rankings[it.key] ?? [];
    ks.forEach((k, i) => {
      const top = new Set(ranked.slice(0, k));
      b.sums[i]! += it.gold.filter((g) => top.has(g)).length / it.gold.length;
    });
  }
  const row = (label: string, cats: number[]) => {
    let n = 0;
    const sums = ks.map(() => 0);
    for (const c of cats) {
      const b = agg.get(c);
      if (!b) continue;
      n += b.n;
      b.sums.forEach((s, i) => (sums[i]! += s));
    }
    return `${label.padEnd(26)}${String(n).padStart(6)}${sums.map((s) => (n ? ((100 * s) / n).toFixed(1) : '-').padStart(10)).join('')}`;
  };
  return [
    `${'category'.padEnd(26)}${'n'.padStart(6)}${ks.map((k) => `recall@${k}`.padStart(10)).join('')}`,
    ...[1, 2, 3, 4].map((c) => row(`${c} ${NAMES[c]}`, [c])),
    row('overall (1-4)', [1, 2, 3, 4]),
    '-- not part of the score --',
    row('5 adversarial', [5]),
  ].join('\n');
}

/** recall@k over categories 1–4 per conversation (key prefix before `#`), in first-seen order. */
export function scoreByConversation(items: ScoredItem[], rankings: Record<string, string[]>, ks = [5, 10]): string {
  const agg = new Map<string, { n: number; sums: number[] }>();
  for (const it of items) {
    if (it.category < 1 || it.category > 4) continue;
    const conv = it.key.slice(0, it.key.lastIndexOf('#'));
    const b = agg.get(conv) ?? { n: 0, sums: ks.map(() => 0) };
    agg.set(conv, b);
    b.n++;
    const ranked = rankings[it.key] ?? [];
    ks.forEach((k, i) => {
      const top = new Set(ranked.slice(0, k));
      b.sums[i]! += it.gold.filter((g) => top.has(g)).length / it.gold.length;
    });
  }
  return [
    `${'conversation (1-4)'.padEnd(26)}${'n'.padStart(6)}${ks.map((k) => `recall@${k}`.padStart(10)).join('')}`,
    ...[...agg].map(([conv, b]) => `${conv.padEnd(26)}${String(b.n).padStart(6)}${b.sums.map((s) => ((100 * s) / b.n).toFixed(1).padStart(10)).join('')}`),
  ].join('\n');
}

/** Mean recall@k of each item's rankings (the items given only). */
export function meanRecall(items: ScoredItem[], rankings: Record<string, string[]>, k: number): number {
  let sum = 0;
  for (const it of items) {
    const top = new Set((rankings[it.key] ?? []).slice(0, k));
    sum += it.gold.filter((g) => top.has(g)).length / it.gold.length;
  }
  return items.length > 0 ? sum / items.length : 0;
}

/**
 * Charlie's recall@5/@10 beside BM25's, with their ratio, per category (1–4), overall, and per
 * label in `groups` (e.g. BEAM's ability of each question) when given.
 */
export function compareRuns(items: ScoredItem[], charlie: Record<string, string[]>, bm25: Record<string, string[]>, groups?: Record<string, string>): string {
  const scored = items.filter((it) => it.category >= 1 && it.category <= 4);
  const cell = (x: number) => (100 * x).toFixed(1).padStart(8);
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : a > 0 ? 'inf' : '-').padStart(7);
  const row = (label: string, subset: ScoredItem[]) => {
    const [c5, b5, c10, b10] = [meanRecall(subset, charlie, 5), meanRecall(subset, bm25, 5), meanRecall(subset, charlie, 10), meanRecall(subset, bm25, 10)];
    return `${label.padEnd(26)}${String(subset.length).padStart(5)}${cell(c5)}${cell(b5)}${ratio(c5, b5)}${cell(c10)}${cell(b10)}${ratio(c10, b10)}`;
  };
  const head = ['Charlie', 'BM25'].map((h) => h.padStart(8)).join('') + 'ratio'.padStart(7);
  const lines = [`${''.padEnd(31)}${' recall@5'.padEnd(23)}${' recall@10'.padEnd(23)}`, `${'category'.padEnd(26)}${'n'.padStart(5)}${head}${head}`];
  for (const c of [1, 2, 3, 4]) {
    const subset = scored.filter((it) => it.category === c);
    if (subset.length > 0) lines.push(row(`${c} ${NAMES[c]}`, subset));
  }
  lines.push(row('overall (1-4)', scored));
  if (groups) {
    const labels = [...new Set(scored.map((it) => groups[it.key]).filter((g): g is string => g !== undefined))].sort();
    if (labels.length > 0) lines.push('by ability');
    for (const g of labels)
      lines.push(
        row(
          `  ${g}`,
          scored.filter((it) => groups[it.key] === g),
        ),
      );
  }
  return lines.join('\n');
}
