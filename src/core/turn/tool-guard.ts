/**
 * The boundary before an external tool runs. A tool with side effects runs only after the person
 * said yes to the exact arguments; arguments bound for a hosted tool server have what is
 * sensitive in the turn's scope withheld (the egress guard's scrub), so private memory the model
 * read never leaves the machine through a tool call.
 */
import type { Tool, ToolContext } from '../tools/tool.js';

export type GuardedCall = { ok: true; args: unknown } | { ok: false; content: string; summary: string };

export async function guardToolCall(tool: Tool, args: unknown, ctx: ToolContext): Promise<GuardedCall> {
  const origin = tool.origin;
  if (!origin) return { ok: true, args };
  let sent = args;
  if (origin.locality === 'hosted') {
    const scrub = ctx.scrubForHosted;
    if (!scrub)
      return { ok: false, content: `error: ${origin.server} is a hosted tool server and this turn cannot check what is sensitive; it was not called`, summary: 'not run (hosted, unchecked)' };
    sent = await scrubStrings(args, scrub);
  }
  if (origin.confirm) {
    if (!ctx.confirm) {
      return {
        ok: false,
        content: `not run: ${origin.tool} on ${origin.server} needs the person's confirmation (${origin.confirm}) and this conversation cannot ask. Tell them.`,
        summary: 'not run (needs confirmation)',
      };
    }
    const allowed = await ctx.confirm({ server: origin.server, tool: origin.tool, args: sent, reason: origin.confirm }, ctx.signal).catch(() => false);
    if (!allowed) return { ok: false, content: `not run: the person declined ${origin.tool} on ${origin.server}. Do not try it again in this answer.`, summary: 'declined' };
  }
  return { ok: true, args: sent };
}

/** Every string inside a JSON value, scrubbed; structure and other values kept. */
async function scrubStrings(value: unknown, scrub: (text: string) => Promise<string>): Promise<unknown> {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return Promise.all(value.map((v) => scrubStrings(v, scrub)));
  if (value && typeof value === 'object') {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [await scrub(k), await scrubStrings(v, scrub)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}
