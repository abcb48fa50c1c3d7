/**
 * What a tool with an origin (an external MCP server, or a machine over SSH) returns is untrusted
 * text from outside: it is labelled when it arrives (the rules, its markers). A sensitive one taints
 * the turn and is not given to a hosted chat model. Decided by the tool's origin, never its name.
 */
import type { Tool, ToolContext, ToolOutput } from '../tools/tool.js';
import { isSensitive, labelText } from '../privacy/sensitivity.js';

export function labelExternalResult(tool: Pick<Tool, 'origin'>, out: ToolOutput, ctx: Pick<ToolContext, 'sawSensitive' | 'modelLocality'>): ToolOutput {
  const origin = tool.origin;
  if (!origin || !isSensitive(labelText(out.content))) return out;
  ctx.sawSensitive({ origin: `the result of ${origin.tool}`, text: out.content });
  if (ctx.modelLocality !== 'hosted') return out;
  return { ...out, content: `[withheld: the result of ${origin.tool} on ${origin.server} is labelled sensitive]` };
}
