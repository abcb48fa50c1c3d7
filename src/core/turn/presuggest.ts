/**
 * The light pre-suggestion pass: no model call, just cheap cues in the message, picking the
 * tool categories the model is offered first. The model can ask for the others itself.
 */
import type { SourceCategory, ToolCategory } from '../tools/tool.js';
import type { ToolGroup } from './tool-source.js';

const CUES: Record<ToolCategory, RegExp> = {
  time: /\b(time|date|today|tonight|tomorrow|yesterday|weekday|week|month|year|now|o'?clock|deadline|schedule|when|remind\w*|every|minutes?|hours?)\b/i,
  notes: /\b(note|notes|remember|save|write (it |that )?down|jot|record|page|wiki|who is|who's|about (him|her|them)|contact|links?|linked|related|connected)\b/i,
  machines: /\b(ssh|sftp|servers?|nas|machines?|raspberry|vps|disks?|uptime|docker|systemctl|log ?in(to)?|connect)\b/i,
  memory: /\b(remember|recall|decid\w*|decision|agreed|said|say|summary|summari[sz]e|earlier|before|last time|previous|history|discuss\w*|quote|mention\w*|told|what did|did (we|i|you)|our|we)\b/i,
};

export function presuggest(text: string, available: readonly ToolCategory[]): ToolCategory[] {
  const picked = available.filter((c) => CUES[c].test(text));
  // Questions are usually about something remembered: memory is the safe default.
  if (picked.length === 0 && available.includes('memory')) picked.push('memory');
  return picked;
}

/**
 * Source categories (MCP servers) whose cues the message names: the server's name or one of its
 * tools' names, or two distinct words of its tools' descriptions.
 */
export function presuggestGroups(text: string, groups: readonly ToolGroup[]): SourceCategory[] {
  const words = new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return groups
    .filter((g) => {
      const named = g.names.some((name) => {
        const parts = name
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean);
        return parts.length > 0 && parts.every((part) => words.has(part));
      });
      return named || g.words.filter((w) => words.has(w)).length >= 2;
    })
    .map((g) => g.category);
}
