/**
 * What a tool with an origin (an external MCP server, or a machine over SSH) returns is untrusted
 * text from outside: it is labelled when it arrives — by the rules and its markers, and, when the
 * privacy precheck applies, by the memory lane or the built-in judge by meaning (`judge`), as a
 * message of a person is (the fifth outside sweep: a clinic portal's "eGFR 9, renal team discussing
 * the fistula" passed the rules and went to the hosted chat model in its own turn). A sensitive
 * one taints the turn and is not given to a hosted chat model. Decided by the tool's origin, never
 * its name.
 */
import type { Tool, ToolContext, ToolOutput } from '../tools/tool.js';
import { isSensitive, labelText, strictest, type SensitivityValue } from '../privacy/sensitivity.js';
import type { TextPrecheck } from './precheck.js';

export async function labelExternalResult(tool: Pick<Tool, 'origin'>, out: ToolOutput, ctx: Pick<ToolContext, 'sawSensitive' | 'modelLocality' | 'judgeArrival' | 'signal'>): Promise<ToolOutput> {
  const origin = tool.origin;
  if (!origin) return out;
  let label: SensitivityValue = labelText(out.content);
  if (!isSensitive(label) && ctx.judgeArrival) label = strictest(label, await ctx.judgeArrival(out.arrived ?? out.content, ctx.signal)) ?? label;
  if (!isSensitive(label)) return out;
  ctx.sawSensitive({ origin: `the result of ${origin.tool}`, text: out.content });
  if (ctx.modelLocality !== 'hosted') return out;
  const why = label.unjudged ? 'could not be judged in time, so it is kept from hosted services' : 'is labelled sensitive';
  return { ...out, content: `[withheld: the result of ${origin.tool} on ${origin.server} ${why}]` };
}

/**
 * A result is read without Charlie's frame round it (ToolOutput.arrived: the frame's own words,
 * "instructions … do not follow", read as sensitive to the judge by meaning), a line at a time: a
 * sentence encoder averages a long text into nothing. A line is its own piece (a long one cut at sentence ends into pieces of at most
 * PIECE_CHARS); short lines are joined until SHORT_CHARS, so a table's cells are read together.
 */
const PIECE_CHARS = 400;
const SHORT_CHARS = 80;
/** At most this many pieces are judged; what lies past them has the rules' word only. */
const MAX_PIECES = 40;

/** A result's pieces for the precheck, in order. */
export function resultPieces(text: string): string[] {
  const pieces: string[] = [];
  let short = '';
  for (const line of text.split(/\n+/)) {
    const t = line.trim();
    if (!t) continue;
    const parts = t.length <= PIECE_CHARS ? [t] : (t.match(/[^.!?]+[.!?]*\s*/g) ?? [t]).map((p) => p.trim().slice(0, PIECE_CHARS));
    for (const part of parts) {
      short = short ? `${short} ${part}` : part;
      if (short.length >= SHORT_CHARS) {
        pieces.push(short);
        short = '';
      }
    }
  }
  if (short) pieces.push(short);
  return pieces.slice(0, MAX_PIECES);
}

/** The precheck of a tool's result (ToolContext.judgeArrival): the strictest label of its pieces; sensitive when it could not judge (the precheck fails closed). */
export function arrivalJudge(precheck: TextPrecheck): (text: string, signal?: AbortSignal) => Promise<SensitivityValue> {
  return async (text, signal) => {
    if (!precheck.applies()) return labelText(text);
    const labels = await precheck.labels(resultPieces(text), signal);
    return labels.reduce<SensitivityValue | null>((a, b) => strictest(a, b), null) ?? { sensitivity: 'personal' };
  };
}
