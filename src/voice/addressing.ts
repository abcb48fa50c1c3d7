/**
 * Who is talking to Charlie: alone with one person, everything is for Charlie; with two or
 * more people (bots not counted) only utterances that start or end with the wake name are.
 * `VOICE_WAKE_RULE` forces the name on (`always`) or off (`never`).
 */
import { classifyUtterance, type UtteranceKind } from './intent.js';
import { WakeNameMatcher } from './wake-name.js';

export type WakeRule = 'auto' | 'always' | 'never';

export type AddressDecision = { action: 'ignore'; reason: 'not_addressed' | 'closing' | 'fragment' } | { action: 'stop' } | { action: 'answer'; text: string };

export class AddressingPolicy {
  private readonly matcher: WakeNameMatcher;

  constructor(
    wakeName: string,
    private readonly rule: WakeRule,
  ) {
    this.matcher = new WakeNameMatcher(wakeName);
  }

  needsWakeName(humansPresent: number): boolean {
    return this.rule === 'always' || (this.rule === 'auto' && humansPresent >= 2);
  }

  /**
   * `charlieSpeaking`: a bare "stop" while Charlie talks needs no wake name even in a group
   * (the reply is for the room, so anyone may stop it).
   */
  decide(transcript: string, humansPresent: number, charlieSpeaking = false): AddressDecision {
    const wake = this.matcher.match(transcript);
    const text = wake.addressed ? wake.rest : transcript.trim();
    const kind: UtteranceKind = classifyUtterance(text);
    if (kind === 'stop' && (wake.addressed || charlieSpeaking || !this.needsWakeName(humansPresent))) return { action: 'stop' };
    if (this.needsWakeName(humansPresent) && !wake.addressed) return { action: 'ignore', reason: 'not_addressed' };
    if (kind === 'closing') return { action: 'ignore', reason: 'closing' };
    if (kind === 'fragment' || kind === 'stop') return { action: 'ignore', reason: 'fragment' };
    return { action: 'answer', text };
  }
}
