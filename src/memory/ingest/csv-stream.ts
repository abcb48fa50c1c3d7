/**
 * CSV sources of any size, in bounded memory (csv-parse's streaming parser over a file stream):
 *   - rows      read from a byte offset, a slice at a time, so a restart or the next round
 *               resumes where the last checkpoint left off without reading the file again;
 *   - summary   a bank export (a date, an amount and a payee or description column) is first
 *               summed into one item per month and payee — "2026-05 · Pret A Manger: 23 payments,
 *               total -96.60" — so the memory model sees a few hundred items, not a million rows.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Options, Parser } from 'csv-parse';
import type { SourceItem } from './parsers.js';
import { SourceParseError } from './parsers.js';
import { errorMessage } from '../../util/error-text.js';

/** csv-parse's streaming parser, loaded at the first CSV read (start what is used, docs/performance.md). */
const parse = async (options: Options): Promise<Parser> => (await import('csv-parse')).parse(options);

export interface BankColumns {
  date: string;
  amount: string;
  payee: string;
}

const DATE_COLUMN = /^(?:date|booking ?date|posted|posting ?date|transaction ?date|value ?date|valuta|datum)$/i;
const AMOUNT_COLUMN = /^(?:amount|value|sum|betrag|debit\/credit|amount \(\w+\))$/i;
const PAYEE_COLUMN = /^(?:payee|merchant|counterparty|beneficiary|recipient|name|description|details|memo|narrative)$/i;

/** The columns of a bank export, or null when the header is not one. */
export function bankColumns(header: readonly string[]): BankColumns | null {
  const find = (re: RegExp) => header.find((h) => re.test(h.trim()));
  const date = find(DATE_COLUMN);
  const amount = find(AMOUNT_COLUMN);
  // a named payee column wins over a free-text description
  const payee = header.find((h) => /^(?:payee|merchant|counterparty|beneficiary|recipient|name)$/i.test(h.trim())) ?? find(PAYEE_COLUMN);
  return date && amount && payee ? { date, amount, payee } : null;
}

const MAX_ITEM_CHARS = 2000;
const clip = (s: string) => (s.length > MAX_ITEM_CHARS ? `${s.slice(0, MAX_ITEM_CHARS)} …` : s);

/** sha256 of a file, streamed. */
export async function hashFile(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** The header row of a CSV file (read from its start only). */
export async function csvHeader(path: string): Promise<string[]> {
  const parsing = await parse({ bom: true, trim: true, to_line: 1, relax_column_count: true });
  const parser = createReadStream(path, { end: 1_048_575 }).pipe(parsing);
  for await (const row of parser) return (row as string[]).map(String);
  return [];
}

function rowText(record: Record<string, string>): string {
  return clip(
    Object.entries(record)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${v}`)
      .join('; '),
  );
}

export interface RowSlice {
  items: SourceItem[];
  /** Byte offset just past the last row read, and its line: where the next slice starts. */
  offset: number;
  line: number;
  done: boolean;
}

/** Up to `max` rows from `offset` (0 = the start, with its header); `columns` from the header. */
export async function readRows(path: string, from: { offset: number; line: number; columns: string[] }, max: number): Promise<RowSlice> {
  const parsing = await parse({ columns: from.offset === 0 ? true : from.columns, bom: from.offset === 0, skip_empty_lines: true, trim: true, info: true, relax_column_count: false });
  const stream = createReadStream(path, { start: from.offset });
  const parser = stream.pipe(parsing);
  const items: SourceItem[] = [];
  let offset = from.offset;
  let line = from.line;
  try {
    for await (const r of parser as AsyncIterable<{ record: Record<string, string>; info: { bytes: number; lines: number } }>) {
      items.push({ ref: `L${String(from.line + r.info.lines)}`, text: rowText(r.record) });
      offset = from.offset + r.info.bytes;
      line = from.line + r.info.lines;
      if (items.length >= max) {
        stream.destroy();
        return { items, offset, line, done: false };
      }
    }
  } catch (err) {
    if (items.length >= max) return { items, offset, line, done: false };
    throw new SourceParseError(`not a valid CSV file: ${errorMessage(err)}`);
  }
  return { items, offset, line, done: true };
}

/** "2026-05-03", "03/05/2026", "03.05.2026" → "2026-05"; "" when it is not a date. */
function monthOf(value: string): string {
  const v = value.trim();
  const iso = /^(\d{4})-(\d{2})/.exec(v);
  if (iso) return `${iso[1] ?? ''}-${iso[2] ?? ''}`;
  const dmy = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})/.exec(v);
  if (dmy) return `${dmy[3] ?? ''}-${(dmy[2] ?? '').padStart(2, '0')}`;
  return '';
}

/** "-1.234,56 €", "1,234.56", "-3.50" → a number; NaN when it is none. */
function amountOf(value: string): number {
  let v = value.replace(/[^\d.,-]/g, '');
  if (/,\d{1,2}$/.test(v)) v = v.replace(/\./g, '').replace(',', '.');
  else v = v.replace(/,/g, '');
  return v === '' ? NaN : Number(v);
}

/** The payee a description names, for grouping: card numbers, references and dates left out. */
function payeeKey(value: string): string {
  return value
    .toLowerCase()
    .replace(/\b(?:card payment|direct debit|standing order|transfer|pos|contactless|ref\.?|reference)\b/g, ' ')
    .replace(/[\d#*/.:-]+/g, ' ')
    .replace(/[^\p{L}&' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

interface Group {
  month: string;
  payee: string;
  names: Map<string, number>;
  count: number;
  total: number;
  min: number;
  max: number;
  last: string;
}

const cents = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

/** One item per month and payee of a bank export, streamed (memory grows with payees × months, not rows). */
export async function summariseBank(path: string, cols: BankColumns): Promise<{ items: SourceItem[]; rows: number }> {
  const groups = new Map<string, Group>();
  let rows = 0;
  const parsing = await parse({ columns: true, bom: true, skip_empty_lines: true, trim: true, relax_column_count: true });
  const parser = createReadStream(path).pipe(parsing);
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      rows++;
      const month = monthOf(record[cols.date] ?? '');
      const amount = amountOf(record[cols.amount] ?? '');
      const raw = (record[cols.payee] ?? '').trim();
      const payee = payeeKey(raw) || '(no payee)';
      if (!month || Number.isNaN(amount)) continue;
      const key = `${month}\n${payee}`;
      const g = groups.get(key) ?? { month, payee, names: new Map<string, number>(), count: 0, total: 0, min: amount, max: amount, last: '' };
      g.count++;
      g.total += amount;
      g.min = Math.min(g.min, amount);
      g.max = Math.max(g.max, amount);
      g.last = (record[cols.date] ?? '').trim() > g.last ? (record[cols.date] ?? '').trim() : g.last;
      // the spelling shown is the most frequent one (a bounded tally: the first 20 spellings)
      if (g.names.has(raw) || g.names.size < 20) g.names.set(raw, (g.names.get(raw) ?? 0) + 1);
      groups.set(key, g);
    }
  } catch (err) {
    throw new SourceParseError(`not a valid CSV file: ${errorMessage(err)}`);
  }
  const items = [...groups.values()]
    .sort((a, b) => a.month.localeCompare(b.month) || a.payee.localeCompare(b.payee))
    .map((g) => {
      const name = [...g.names.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] || g.payee;
      const range = g.count > 1 ? ` (from ${cents(g.min)} to ${cents(g.max)})` : '';
      const text = `Bank export, ${g.month}: ${name} — ${String(g.count)} payment${g.count === 1 ? '' : 's'}, total ${cents(g.total)}${range}`;
      // a bank export is someone's finances, whatever a payee is called
      return {
        ref: `month-${g.month}-${g.payee.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 60)}`,
        text: clip(text),
        sensitivity: 'sensitive/financial',
        ...(/^\d{4}-\d{2}-\d{2}/.test(g.last) ? { date: g.last.slice(0, 10) } : {}),
      };
    });
  return { items, rows };
}
