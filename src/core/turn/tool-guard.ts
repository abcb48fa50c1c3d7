/**
 * The boundary before an external tool runs. A tool with side effects runs only after the person
 * said yes to the exact arguments. A hosted tool server is decided by label, not by text: a turn
 * that drew on sensitive context (its message, its history, what its tools found is labelled
 * sensitive) never calls one with arguments, in any wording; nor do arguments the rules call
 * sensitive — unless, asked in the moment, the person lets what the chat model was given go on
 * to this server too. What does go has the sensitive lines of the scope withheld (the egress
 * guard's scrub, leaving what was released to the server) as a second net.
 */
import type { Tool, ToolContext } from '../tools/tool.js';
import { classifyText, isSensitive } from '../privacy/sensitivity.js';

export type GuardedCall = { ok: true; args: unknown } | { ok: false; content: string; summary: string };

export async function guardToolCall(tool: Tool, args: unknown, ctx: ToolContext): Promise<GuardedCall> {
  const origin = tool.origin;
  if (!origin) return { ok: true, args };
  let sent = args;
  if (origin.locality === 'hosted') {
    const scrub = ctx.scrubForHosted;
    if (!scrub)
      return { ok: false, content: `error: ${origin.server} is a hosted tool server and this turn cannot check what is sensitive; it was not called`, summary: 'not run (hosted, unchecked)' };
    const sensitive = hasArguments(args) && (ctx.tainted?.() === true || isSensitive(classifyText(JSON.stringify(args))));
    // asked in the moment: the items the chat model was given may go on to this server only by their person's yes
    const released = sensitive && (await ctx.releaseToTool?.(origin.server)) === true;
    if (sensitive && !released)
      return {
        ok: false,
        content: `not run: ${origin.server} is a hosted tool server and this turn drew on memory marked sensitive, so nothing from it is sent there. Answer without it.`,
        summary: 'not run (hosted, sensitive turn)',
      };
    sent = await scrubStrings(args, (text) => scrub(text, origin.server));
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

/** Whether a call carries any argument text (an empty object or no value carries none). */
function hasArguments(args: unknown): boolean {
  if (args === null || args === undefined) return false;
  if (typeof args === 'object') return Object.values(args).some(hasArguments);
  return typeof args === 'string' ? args.trim() !== '' : true;
}
