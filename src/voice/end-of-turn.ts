/**
 * End of turn: has the speaker finished, or only paused? The port is one question asked at
 * each pause with what is known then (the speculative transcript, how long the pause is so
 * far, the energy at the end of the speech); the answer commits the turn or waits.
 *
 * `TextRulesDetector` is the plain-code answer: a finished sentence or question ends the
 * turn at the short pause; a trailing "and", "so", "um", "because", an open list ("…, and"),
 * a comma or an ellipsis waits for the long window; text without final punctuation ends at
 * a medium pause, or at the short one when the voice fell away at the end. A learned model
 * (`LearnedDetector`) can replace the middle of that table; the text vetoes stay.
 */
import { stripNonSpeech } from '../speech/stt/hallucinations.js';
import { classifyUtterance } from './intent.js';
import { words } from './text-normalize.js';
import { WakeNameMatcher } from './wake-name.js';
import { errorMessage } from '../util/error-text.js';
import type { TurnEvidence, TurnModel } from '../core/ports/index.js';

export type TurnReason =
  | 'question'
  | 'sentence'
  | 'stop_command'
  | 'closing'
  | 'model_complete'
  | 'unpunctuated_long_pause'
  | 'unpunctuated_voice_fell'
  | 'no_words'
  | 'wake_name_only'
  | 'hesitation'
  | 'trailing_conjunction'
  | 'open_word'
  | 'open_clause'
  | 'trailing_off'
  | 'unpunctuated'
  | 'model_incomplete';

export type TurnDecision =
  | { end: true; reason: TurnReason; probability?: number }
  /** `recheckAtPauseMs`: ask again (same transcript) when the pause has lasted this long; absent = wait for more speech or the long window. */
  | { end: false; reason: TurnReason; recheckAtPauseMs?: number; probability?: number };

export interface EndOfTurnDetector {
  /** Shown in `/voice status` and the log: `rules`, `model:<file>`. */
  readonly mode: string;
  decide(evidence: TurnEvidence, signal?: AbortSignal): Promise<TurnDecision>;
}

export interface TextRulesOptions {
  /** The short pause at which the detector is first asked (VOICE_TURN_PAUSE_MS). */
  pauseMs: number;
  /** The long window (VOICE_SILENCE_MS): the turn always ends there. */
  silenceMs: number;
  wakeName?: string;
  /** An end this many dB quieter than the utterance counts as falling away. Default 6. */
  fallDb?: number;
}

const HESITATIONS = new Set(['um', 'umm', 'uh', 'uhh', 'uhm', 'er', 'erm', 'hmm', 'mm', 'ah', 'eh']);
/** Words a finished sentence does not end on (a conservative list: a wrong "wait" costs one long window, a wrong "end" cuts someone off). */
const CONJUNCTIONS = new Set(['and', 'or', 'but', 'so', 'because', 'cause', 'cos', 'coz', 'then', 'if', 'unless', 'although', 'though', 'whereas', 'while', 'nor', 'plus', 'like']);
const OPEN_WORDS = new Set([
  'the',
  'a',
  'an',
  'my',
  'your',
  'our',
  'their',
  'his',
  'her',
  'to',
  'of',
  'for',
  'with',
  'without',
  'in',
  'on',
  'at',
  'from',
  'into',
  'about',
  'by',
  'than',
  'as',
  'which',
  'whose',
  'i',
  'im',
  'were',
  'weve',
  'id',
  'ill',
  'some',
  'any',
  'every',
  'also',
  'actually',
  'basically',
  'mean',
]);

/** The last meaningful punctuation of a transcript, after quotes and brackets. */
function ending(text: string): 'question' | 'full_stop' | 'ellipsis' | 'open' | 'none' {
  const t = text.replace(/["'”’)\]\s]+$/u, '');
  if (/(\.\.\.|…)$/.test(t)) return 'ellipsis';
  if (/[?？]$/.test(t)) return 'question';
  if (/[.!。！]$/.test(t)) return 'full_stop';
  if (/[,;:\-–—]$/.test(t)) return 'open';
  return 'none';
}

export class TextRulesDetector implements EndOfTurnDetector {
  readonly mode: string = 'rules';
  private readonly wake: WakeNameMatcher | null;
  private readonly fallDb: number;
  /** Unpunctuated text ends here: halfway-ish between the short pause and the long window. */
  readonly unpunctuatedMs: number;

  constructor(private readonly options: TextRulesOptions) {
    this.wake = options.wakeName ? new WakeNameMatcher(options.wakeName) : null;
    this.fallDb = options.fallDb ?? 6;
    this.unpunctuatedMs = Math.max(options.pauseMs, Math.min(options.silenceMs - 100, 2 * options.pauseMs));
  }

  /** The text vetoes and the sure ends; `null` when the text alone cannot tell. */
  judgeText(raw: string): TurnDecision | null {
    const transcript = stripNonSpeech(raw);
    const w = words(transcript);
    if (!w.length) return { end: false, reason: 'no_words' };
    if (this.wake) {
      const m = this.wake.match(transcript);
      if (m.addressed && !words(m.rest).length) return { end: false, reason: 'wake_name_only' };
    }
    const kind = classifyUtterance(this.wake?.match(transcript).rest ?? transcript);
    if (kind === 'stop') return { end: true, reason: 'stop_command' };
    const last = w.at(-1)!;
    const end = ending(transcript);
    if (HESITATIONS.has(last)) return { end: false, reason: 'hesitation' };
    if (end === 'ellipsis') return { end: false, reason: 'trailing_off' };
    if (end === 'open') return { end: false, reason: 'open_clause' };
    if (CONJUNCTIONS.has(last)) return { end: false, reason: 'trailing_conjunction' };
    if (kind === 'closing') return { end: true, reason: 'closing' };
    if (end === 'question') return { end: true, reason: 'question' };
    if (OPEN_WORDS.has(last)) return { end: false, reason: 'open_word' };
    if (end === 'full_stop') return { end: true, reason: 'sentence' };
    return null;
  }

  decide(evidence: TurnEvidence): Promise<TurnDecision> {
    return Promise.resolve(this.decideNow(evidence));
  }

  decideNow(evidence: TurnEvidence): TurnDecision {
    const byText = this.judgeText(evidence.transcript);
    if (byText) return byText;
    // no final punctuation (some recognisers never punctuate): let the pause and the voice decide
    if (evidence.pauseMs + 1 >= this.unpunctuatedMs) return { end: true, reason: 'unpunctuated_long_pause' };
    if (evidence.endFallDb >= this.fallDb) return { end: true, reason: 'unpunctuated_voice_fell' };
    return { end: false, reason: 'unpunctuated', recheckAtPauseMs: this.unpunctuatedMs };
  }
}

/**
 * A learned model behind the text vetoes: a trailing "and"/"um", an open list and a stop
 * command are still decided by the rules (cheap and never wrong in the costly direction);
 * everything else by the model's probability. A model that fails is dropped for the rules
 * (and `mode` says so), so a broken file costs no turn.
 */
export class LearnedDetector implements EndOfTurnDetector {
  private failure: string | null = null;

  constructor(
    private readonly model: TurnModel,
    private readonly rules: TextRulesDetector,
    private readonly threshold = 0.5,
  ) {}

  get mode(): string {
    return this.failure ? `rules (model ${this.model.id} failed: ${this.failure})` : `model:${this.model.id}`;
  }

  async decide(evidence: TurnEvidence, signal?: AbortSignal): Promise<TurnDecision> {
    const byText = this.rules.judgeText(evidence.transcript);
    if (byText && (!byText.end || byText.reason === 'stop_command')) return byText;
    if (this.failure) return this.rules.decideNow(evidence);
    let probability: number;
    try {
      probability = await this.model.probability(evidence, signal);
    } catch (error) {
      signal?.throwIfAborted();
      this.failure = errorMessage(error);
      return this.rules.decideNow(evidence);
    }
    return probability >= this.threshold ? { end: true, reason: 'model_complete', probability } : { end: false, reason: 'model_incomplete', probability };
  }
}

/**
 * How far the voice fell at the end: the mean level (dBFS) of the last `tailFrames` voiced
 * 20 ms frames against the median level of all voiced frames. Cheap (one pass of RMS).
 */
export function endFallDb(pcm: Int16Array, options: { frameSamples?: number; minDbfs?: number; tailFrames?: number } = {}): number {
  const n = options.frameSamples ?? 320;
  const floor = options.minDbfs ?? -45;
  const levels: number[] = [];
  for (let o = 0; o + n <= pcm.length; o += n) {
    let sum = 0;
    for (let i = o; i < o + n; i++) sum += pcm[i]! * pcm[i]!;
    const rms = Math.sqrt(sum / n) / 32768;
    const db = rms > 0 ? 20 * Math.log10(rms) : -Infinity;
    if (db >= floor) levels.push(db);
  }
  const tail = options.tailFrames ?? 5;
  if (levels.length < tail * 2) return 0;
  const sorted = [...levels].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const end = levels.slice(-tail).reduce((a, b) => a + b, 0) / tail;
  return median - end;
}

export type TurnDetection = 'auto' | 'rules' | 'model' | 'off';

/** The detector for a setting: `off` = none (the long window only); a model only when one was loaded. */
export function chooseDetector(detection: TurnDetection, options: TextRulesOptions & { model?: TurnModel | null; threshold?: number }): EndOfTurnDetector | null {
  if (detection === 'off') return null;
  const rules = new TextRulesDetector(options);
  if (detection !== 'rules' && options.model) return new LearnedDetector(options.model, rules, options.threshold);
  return rules;
}
