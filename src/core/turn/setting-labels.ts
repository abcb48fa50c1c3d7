/**
 * A project's name and its response style go into every system prompt, so they are judged like
 * any text a person wrote (sixth outside sweep: a project named "Kit's court case", and a style
 * that said what someone was going through, reached the hosted chat model in every turn): by the
 * rules, and by the precheck when it applies (the memory lane, or the judge by meaning). A verdict
 * is remembered by the words it was given, so the lane is asked once for each wording; what could
 * not be judged is sensitive for that turn and asked again at the next.
 */
import { isSensitive, labelText, type SensitivityValue } from '../privacy/sensitivity.js';
import type { TextPrecheck } from './precheck.js';

/** Wordings remembered at most (a household has a few projects; the oldest are asked again). */
const KEEP = 500;

export class SettingLabels {
  private readonly known = new Map<string, SensitivityValue>();

  /** Each text's label, in order. Never throws: the precheck fails closed. */
  async labels(texts: readonly string[], precheck: TextPrecheck | null, signal?: AbortSignal): Promise<SensitivityValue[]> {
    const out = texts.map((t) => this.known.get(t) ?? labelText(t));
    if (!precheck?.applies()) return out;
    const open = texts.map((_t, i) => i).filter((i) => !isSensitive(out[i]) && texts[i]!.trim() !== '' && !this.known.has(texts[i]!));
    if (open.length === 0) return out;
    const judged = await precheck.labels(
      open.map((i) => texts[i]!),
      signal,
    );
    open.forEach((i, k) => {
      const label = judged[k];
      if (!label) return;
      out[i] = label;
      if (!label.unjudged) this.known.set(texts[i]!, label);
    });
    while (this.known.size > KEEP) this.known.delete(this.known.keys().next().value!);
    return out;
  }
}
