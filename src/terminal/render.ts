/** Terminal rendering of turn events and memory views. */
import type { TurnEvent } from '../core/turn/events.js';
import type { MemoryView } from '../core/assistant-api.js';
import { decisionsToText, quotesToText } from '../core/inspector/memory-edit.js';
import { formatProblem } from '../util/error-text.js';

export interface Palette {
  dim(s: string): string;
  warn(s: string): string;
  bold(s: string): string;
}

export function palette(color: boolean): Palette {
  const wrap = (code: string) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { dim: wrap('2'), warn: wrap('33'), bold: wrap('1') };
}

function shortArgs(args: unknown): string {
  if (typeof args === 'string') return args.slice(0, 80);
  const entries = Object.entries((args ?? {}) as Record<string, unknown>);
  return entries.map(([k, v]) => `${k}: ${JSON.stringify(v).slice(0, 60)}`).join(', ');
}

/** Returns the line to print for a non-text event (text deltas are written as they come). */
export function eventLine(event: TurnEvent, p: Palette): string | null {
  switch (event.type) {
    case 'tool_call':
      return p.dim(`  ↳ ${event.source ? `${event.source.server} › ${event.source.tool}` : event.name}(${shortArgs(event.args)})`);
    case 'tool_result':
      return p.dim(`    ${event.ok ? '✓' : '✗'} ${event.summary}${event.pages?.length ? ` — ${event.pages.slice(0, 4).join(', ')}` : ''}`);
    case 'notice':
      return p.warn(`  ! ${event.text}`);
    default:
      return null;
  }
}

export function renderMemory(view: MemoryView, p: Palette): string {
  const out = [
    p.bold(`Memory of ${view.project}`) + (view.style ? p.dim(` (style: ${view.style})`) : ''),
    '',
    p.bold('Summary'),
    view.layers.summary.trim() || p.dim('(none yet — it is written after a few messages)'),
    '',
    p.bold('Key decisions'),
    decisionsToText(view.layers.decisions) || p.dim('(none)'),
    '',
    p.bold('Recent quotes'),
    quotesToText(view.layers.quotes) || p.dim('(none)'),
  ];
  for (const problem of view.problems) out.push(p.warn(`! ${formatProblem(problem)} (left untouched)`));
  return out.join('\n');
}
