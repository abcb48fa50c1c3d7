/**
 * Turns the core's tool events into one compact status line, e.g.
 * `searched “jwt refresh” (3 hits) · opened Sarah-Chen`. Never shows raw tool JSON.
 */
import type { TurnEvent } from '../core/turn/events.js';
import { oneLine } from '../util/one-line.js';

interface Step {
  name: string;
  query?: string;
  done: boolean;
  ok: boolean;
  summary: string;
  pages: string[];
  /** Set for searches: how many hits the tool reported. */
  hits?: number;
  /** An MCP tool: `server › tool` and its arguments, shown like the built-in tools. */
  mcp?: { label: string; args: string };
}

const QUERY_KEYS = ['query', 'q', 'search', 'text', 'pattern', 'term'];

export class ToolTrace {
  private readonly steps = new Map<string, Step>();

  /** Feeds one event; returns true when the line changed. */
  onEvent(event: TurnEvent): boolean {
    if (event.type === 'tool_call') {
      const mcp = event.source ? { label: `${event.source.server} › ${event.source.tool}`, args: argsLine(event.args) } : undefined;
      this.steps.set(event.callId, { name: event.name, ...(mcp ? { mcp } : { query: queryOf(event.args) }), done: false, ok: true, summary: '', pages: [] });
      return true;
    }
    if (event.type === 'tool_result') {
      const step = this.steps.get(event.callId) ?? { name: event.name, done: false, ok: true, summary: '', pages: [] };
      Object.assign(step, { done: true, ok: event.ok, summary: oneLine(event.summary), pages: event.pages ?? [], hits: event.hits });
      this.steps.set(event.callId, step);
      return true;
    }
    return false;
  }

  get empty(): boolean {
    return this.steps.size === 0;
  }

  /** The status line (without markers), at most `max` characters; '' when no tool ran. */
  line(max = 300): string {
    const items = [...this.steps.values()].map(describe);
    let text = items.join(' · ');
    if (text.length > max) text = `${text.slice(0, max - 1).trimEnd()}…`;
    return text;
  }
}

function describe(step: Step): string {
  const pending = step.done ? '' : '…';
  if (step.mcp) return `${step.mcp.label}(${clip(step.mcp.args, 50)})${step.done ? `${step.ok ? ' →' : ' ⚠'} ${clip(step.summary, 50)}` : pending}`;
  if (!step.ok) return `⚠ ${humanName(step.name)} failed${step.summary ? `: ${clip(step.summary, 60)}` : ''}`;
  if (step.query !== undefined) {
    const hits = step.done && step.hits !== undefined ? ` (${step.hits === 0 ? 'no' : step.hits} ${step.hits === 1 ? 'hit' : 'hits'})` : '';
    return `searched “${clip(step.query, 40)}”${hits}${pending}`;
  }
  if (step.done && step.summary) return clip(shortenPages(step.summary, step.pages), 60);
  if (step.pages.length) return `opened ${step.pages.slice(0, 3).map(pageName).join(', ')}${step.pages.length > 3 ? ` +${step.pages.length - 3}` : ''}`;
  return `${humanName(step.name)}${pending}`;
}

/** `saved Topics/Tent.md` → `saved Tent`, for the pages the tool reported. */
function shortenPages(text: string, pages: string[]): string {
  return pages.reduce((out, page) => out.replaceAll(page.startsWith('notes/') ? page.slice('notes/'.length) : page, pageName(page)), text);
}

/** `path: "/a.txt", content: "…"` — the arguments on one line. */
function argsLine(args: unknown): string {
  if (!args || typeof args !== 'object') return oneLine(typeof args === 'string' ? args : '');
  return Object.entries(args as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${oneLine((JSON.stringify(v) as string | undefined) ?? '')}`)
    .join(', ');
}

function queryOf(args: unknown): string | undefined {
  if (!args || typeof args !== 'object') return undefined;
  for (const key of QUERY_KEYS) {
    const v = (args as Record<string, unknown>)[key];
    if (typeof v === 'string' && v.trim()) return oneLine(v);
  }
  return undefined;
}

export function pageName(page: string): string {
  const base = page.split('/').pop() ?? page;
  return base.replace(/\.md$/i, '');
}

function humanName(name: string): string {
  return name.replace(/[_-]+/g, ' ').trim();
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
