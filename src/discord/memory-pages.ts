/**
 * Pages of a memory view for `/memory show`: summary, decisions and quotes (and the style),
 * each page under Discord's message limit, with Previous / Next buttons.
 */
import { ButtonStyle, ComponentType } from 'discord.js';
import type { MemoryView } from '../core/assistant-api.js';
import { decisionsToText, quotesToText } from '../core/inspector/memory-edit.js';
import { splitMessage } from './split.js';
import { formatProblem } from '../util/error-text.js';

const PAGE_CHARS = 1700;

export function memoryPages(view: MemoryView, isPrivate: boolean): string[] {
  const title = isPrivate ? '🔒 **Your private memory** (only you can see this)' : `🧠 **Memory of ${view.config?.name ?? view.project}**`;
  const { summary, decisions, quotes } = view.layers;
  const sections = [
    `__Summary__\n${summary.trim() || '_Nothing yet — I write a summary after a few messages._'}`,
    `__Decisions__\n${decisions.length ? decisionsToText(decisions) : '_None recorded._'}`,
    `__Quotes__\n${quotes.length ? quotesToText(quotes) : '_None recorded._'}`,
    `__Style__\n${view.style.trim() || '_Default._'}`,
  ];
  if (view.problems.length) sections.push(`__Problems__\n${view.problems.map((p) => `⚠ ${formatProblem(p)}`).join('\n')}`);
  const bodies: string[] = [];
  let current = '';
  for (const section of sections) {
    for (const piece of splitMessage(section, PAGE_CHARS)) {
      if (current && current.length + piece.length + 2 > PAGE_CHARS) {
        bodies.push(current);
        current = '';
      }
      current = current ? `${current}\n\n${piece}` : piece;
    }
  }
  if (current) bodies.push(current);
  return bodies.map((b, i) => `${title}${bodies.length > 1 ? ` — page ${i + 1}/${bodies.length}` : ''}\n\n${b}`);
}

export function pagerRow(prefix: string, page: number, total: number) {
  if (total <= 1) return [];
  const button = (label: string, target: number, disabled: boolean) => ({
    type: ComponentType.Button as const,
    style: ButtonStyle.Secondary as const,
    label,
    custom_id: `${prefix}:${target}`,
    disabled,
  });
  return [{ type: ComponentType.ActionRow as const, components: [button('◀ Previous', page - 1, page <= 0), button('Next ▶', page + 1, page >= total - 1)] }];
}
