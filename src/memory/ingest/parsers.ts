/**
 * Source files from a project's `inbox/`, read with well-kept parsers into items: one line of
 * text or Markdown, one calendar event (ical.js, Mozilla's iCalendar parser), one e-mail
 * (mailparser, from the Nodemailer project), one CSV row (csv-parse), a passage of a PDF page
 * (unpdf: Mozilla's PDF.js for servers). A file that cannot be parsed throws, so nothing of it is
 * ingested.
 */
// the parsers are loaded by the first file of their kind put into an inbox, not at start-up
import type ICAL from 'ical.js';
import type { AddressObject } from 'mailparser';
import { errorMessage } from '../../util/error-text.js';

export interface SourceItem {
  /** Where in the file: `L12` (line), `event-3`, `row-7`, `mail`. */
  ref: string;
  text: string;
  /** ISO date the item is from, when the file says (an e-mail's Date). */
  date?: string;
}

export class SourceParseError extends Error {}

import { READABLE_FILES as SUPPORTED } from '../../core/writing/ingest-status.js';

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

const MAX_ITEM_CHARS = 2000;
const clip = (s: string) => (s.length > MAX_ITEM_CHARS ? `${s.slice(0, MAX_ITEM_CHARS)} …` : s);

function lines(text: string): SourceItem[] {
  const out: SourceItem[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim()) out.push({ ref: `L${i + 1}`, text: clip(line.trim()) });
  });
  return out;
}

/* eslint-disable @typescript-eslint/no-unnecessary-condition -- ical.js's types say every value is there; real .ics files leave many out */
async function calendar(text: string): Promise<SourceItem[]> {
  const { default: ical } = await import('ical.js');
  let root: InstanceType<typeof ICAL.Component>;
  try {
    root = new ical.Component(ical.parse(text) as unknown[]);
  } catch (err) {
    throw new SourceParseError(`not a valid iCalendar file: ${errorMessage(err)}`);
  }
  if (root.name !== 'vcalendar') throw new SourceParseError('not a VCALENDAR');
  return root.getAllSubcomponents('vevent').map((vevent, i) => {
    const e = new ical.Event(vevent);
    const who = vevent
      .getAllProperties('attendee')
      .map((p) => String(p.getParameter('cn') ?? p.getFirstValue() ?? '').replace(/^mailto:/i, ''))
      .filter(Boolean);
    const organizer = vevent.getFirstProperty('organizer');
    const parts = [
      `Event: ${e.summary || '(no title)'}`,
      e.startDate ? `starts ${e.startDate.toString()}` : '',
      e.endDate ? `ends ${e.endDate.toString()}` : '',
      e.location ? `at ${e.location}` : '',
      organizer ? `organised by ${String(organizer.getParameter('cn') ?? organizer.getFirstValue() ?? '').replace(/^mailto:/i, '')}` : '',
      who.length ? `with ${who.join(', ')}` : '',
      e.description ? `— ${e.description.replace(/\s+/g, ' ')}` : '',
    ];
    return { ref: `event-${i + 1}`, text: clip(parts.filter(Boolean).join('; ')) };
  });
}
/* eslint-enable @typescript-eslint/no-unnecessary-condition */

function names(a: AddressObject | AddressObject[] | undefined): string {
  if (!a) return '';
  return (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', ');
}

async function email(bytes: Buffer): Promise<SourceItem[]> {
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(bytes);
  const from = names(mail.from);
  if (!from && !mail.subject && !mail.date) throw new SourceParseError('not an e-mail: no From, Subject or Date header');
  const body = (mail.text ?? '').replace(/\n{3,}/g, '\n\n').trim();
  const head = [
    `E-mail from ${from || 'unknown'}`,
    names(mail.to) ? `to ${names(mail.to)}` : '',
    mail.date ? `on ${mail.date.toISOString().slice(0, 10)}` : '',
    `subject: ${mail.subject ?? '(none)'}`,
  ];
  return [{ ref: 'mail', text: clip(`${head.filter(Boolean).join(', ')}\n${body}`), ...(mail.date ? { date: mail.date.toISOString() } : {}) }];
}

async function csv(text: string): Promise<SourceItem[]> {
  const { parse: parseCsv } = await import('csv-parse/sync');
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  try {
    rows = parseCsv<{ record: Record<string, string>; info: { lines: number } }>(text, { columns: true, bom: true, skip_empty_lines: true, trim: true, info: true });
  } catch (err) {
    throw new SourceParseError(`not a valid CSV file: ${errorMessage(err)}`);
  }
  return rows.map((r) => ({
    ref: `L${r.info.lines}`,
    text: clip(
      Object.entries(r.record)
        .filter(([, v]) => v !== '')
        .map(([k, v]) => `${k}: ${v}`)
        .join('; '),
    ),
  }));
}

/** A PDF page's lines, gathered into passages of up to this many characters (a line is never split). */
const PDF_PASSAGE_CHARS = 800;

/** The text of each page, in passages (`p2.1`: page 2, first passage); a PDF with no text (a scan) says so. */
async function pdf(bytes: Buffer): Promise<SourceItem[]> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  let pages: string[];
  try {
    // verbosity 0: PDF.js's own warnings about a damaged file are not printed to the terminal
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    pages = (await extractText(doc, { mergePages: false })).text;
    await doc.cleanup();
  } catch (err) {
    throw new SourceParseError(`not a readable PDF: ${errorMessage(err)}`);
  }
  const out: SourceItem[] = [];
  pages.forEach((page, p) => {
    let passage = '';
    let n = 0;
    const flush = () => {
      if (passage.trim()) out.push({ ref: `p${p + 1}.${++n}`, text: clip(passage.trim()) });
      passage = '';
    };
    for (const line of page.split(/\r?\n/).map((l) => l.replace(/\s+/g, ' ').trim())) {
      if (!line) flush();
      else {
        if (passage && passage.length + line.length > PDF_PASSAGE_CHARS) flush();
        passage += `${passage ? ' ' : ''}${line}`;
      }
    }
    flush();
  });
  if (!out.length) throw new SourceParseError('the PDF has no text in it (a scanned page is a picture; Charlie does not read text from pictures)');
  return out;
}

export async function parseSource(name: string, bytes: Buffer): Promise<SourceItem[]> {
  const ext = extensionOf(name);
  if (ext === '.eml') return email(bytes);
  if (ext === '.pdf') return pdf(bytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SourceParseError('not UTF-8 text');
  }
  if (ext === '.ics') return calendar(text);
  if (ext === '.csv') return csv(text);
  if (ext === '.md' || ext === '.markdown' || ext === '.txt') return lines(text);
  throw new SourceParseError(`unsupported file type ${ext || '(none)'}: Charlie reads ${SUPPORTED.join(' ')}`);
}
