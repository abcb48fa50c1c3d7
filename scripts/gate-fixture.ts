/**
 * The promotion gate's labelled set (test/fixtures/gate/candidates.txt, see its README): read
 * into log entries and graph writes as distillation and ingestion hand them to the gate, and
 * replayed cheaply for a weight sweep. Used by `npm run tune:gate` and the gate test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { askedToRemember, conversationOf, factors, rejection, scoreOf, type GateWeights } from '../src/core/writing/gate-factors.js';
import { type ScoreParts } from '../src/core/records/candidates.js';
import { comparable } from '../src/core/comparable.js';
import { candidateKey, CANDIDATE_TTL_DAYS } from '../src/core/writing/promotion.js';
import type { GraphWrite, LogEntry } from '../src/core/ports/index.js';

export interface GateRow {
  line: number;
  conversation: string;
  split: 'dev' | 'test';
  entry: LogEntry;
  entity: string;
  write: GraphWrite;
  label: boolean;
  kind: string;
}

export interface GateFixture {
  tracked: string[];
  lastReflection: Date;
  /** In time order (stable for equal times). */
  rows: GateRow[];
}

const EXT: Record<string, string> = { mail: 'eml', cal: 'ics', bank: 'csv', notes: 'md' };

export function readGateFixture(root = process.cwd()): GateFixture {
  const text = readFileSync(join(root, 'test', 'fixtures', 'gate', 'candidates.txt'), 'utf8');
  let tracked: string[] = [];
  let lastReflection = new Date(0);
  const rows: GateRow[] = [];
  text.split('\n').forEach((raw, i) => {
    const header = /^# (tracked|last reflection): (.*)$/.exec(raw);
    if (header?.[1] === 'tracked') tracked = (header[2] ?? '').split(',').map((s) => s.trim());
    if (header?.[1] === 'last reflection') lastReflection = new Date(`${header[2] ?? ''}:00.000Z`);
    if (!raw.trim() || raw.startsWith('#')) return;
    const cols = raw.split(' | ').map((c) => c.trim());
    if (cols.length !== 9) throw new Error(`candidates.txt:${String(i + 1)}: expected 9 columns, got ${String(cols.length)}`);
    const [conversation = '', time = '', speaker = '', message = '', entity = '', fact = '', type = '', label = '', kind = ''] = cols;
    const number = Number(/(\d+)$/.exec(conversation)?.[1] ?? '0');
    const iso = `${time}:00.000Z`;
    const via = conversation[0];
    const file = /^i-([a-z]+)(\d+)$/.exec(conversation);
    const source =
      via === 'c'
        ? `https://discord.com/channels/1/${String(number)}/${String(i + 1)}`
        : via === 'v'
          ? `voice:${String(Date.parse(iso))}`
          : `inbox/${conversation.slice(2)}.${EXT[file?.[1] ?? ''] ?? 'txt'}#item-${String(i + 1)}`;
    const entry: LogEntry = { time: iso, speaker, source, text: message.replace(/\\n/g, '\n'), role: speaker === 'Charlie' ? 'assistant' : 'user' };
    const write: GraphWrite = {
      origin: via === 'i' ? (source.split('#')[0] ?? 'inbox') : 'distillation',
      links: [],
      entities: [{ name: entity, create: true, facts: [{ text: fact, type, said: time.slice(0, 10), source }] }],
    };
    rows.push({ line: i + 1, conversation, split: number % 2 === 1 ? 'dev' : 'test', entry, entity, write, label: label === '1', kind });
  });
  rows.sort((a, b) => a.entry.time.localeCompare(b.entry.time) || a.line - b.line);
  return { tracked, lastReflection, rows };
}

interface Prepared {
  row: GateRow;
  rejected: boolean;
  salient: boolean;
  parts: ScoreParts;
  key: string;
  conversation: string;
}

/** The factors of every row, computed once (they do not depend on the weights). */
export function prepare(fixture: GateFixture): Prepared[] {
  const tracked = new Set(fixture.tracked.map(comparable));
  return fixture.rows.map((row) => {
    const fact = row.write.entities[0]?.facts[0] ?? { text: '', said: '', source: '' };
    return {
      row,
      rejected: rejection(row.entry, fact) !== null,
      salient: askedToRemember(row.entry),
      parts: factors(row.entity, fact, row.entry, { tracked, lastReflection: fixture.lastReflection }),
      key: candidateKey(row.entity, fact.text),
      conversation: conversationOf(row.entry),
    };
  });
}

/** Which rows the gate promotes with these weights and threshold (gateWrite's rules, replayed). */
export function replay(prepared: readonly Prepared[], weights: GateWeights, threshold: number): boolean[] {
  const waiting = new Map<string, { conversation: string; expires: number }>();
  return prepared.map((p) => {
    if (p.rejected) return false;
    const now = Date.parse(p.row.entry.time);
    const earlier = waiting.get(p.key);
    const live = earlier && earlier.expires > now ? earlier : undefined;
    if (p.salient || scoreOf(p.parts, weights) >= threshold || (live && live.conversation !== p.conversation)) {
      waiting.delete(p.key);
      return true;
    }
    if (!live) waiting.set(p.key, { conversation: p.conversation, expires: now + CANDIDATE_TTL_DAYS * 86_400_000 });
    return false;
  });
}

export interface Scores {
  precision: number;
  recall: number;
  f: number;
  tp: number;
  fp: number;
  fn: number;
}

/** Precision and recall of "promoted" over the rows `which` selects; `f` weighs precision twice (F0.5). */
export function scoresOf(rows: readonly GateRow[], promoted: readonly boolean[], which: (r: GateRow) => boolean = () => true): Scores {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  rows.forEach((r, i) => {
    if (!which(r)) return;
    if (promoted[i] && r.label) tp++;
    else if (promoted[i]) fp++;
    else if (r.label) fn++;
  });
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f = precision + recall === 0 ? 0 : (1.25 * precision * recall) / (0.25 * precision + recall);
  return { precision, recall, f, tp, fp, fn };
}
