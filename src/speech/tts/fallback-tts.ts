/**
 * Try the primary engine (Edge) under its timeout; on any failure speak with the local one.
 * After a failure the primary is skipped for `cooldownMs`, so a dead network costs one
 * timeout, not one per sentence.
 */
import type { Logger, SynthesizedAudio, TextToSpeech } from '../../core/ports/index.js';
import { silentLogger } from '../../core/ports/index.js';
import { withTimeout } from './timeout.js';

export interface FallbackOptions {
  timeoutMs: number;
  cooldownMs?: number;
  logger?: Logger;
  now?: () => number;
}

export class FallbackTts implements TextToSpeech {
  readonly id: string;
  /** Hosted while the primary is: callers that must stay private choose the local engine itself. */
  readonly locality;
  readonly localVoice?: TextToSpeech;
  private skipUntil = 0;

  constructor(
    private readonly primary: TextToSpeech,
    private readonly fallback: TextToSpeech,
    private readonly options: FallbackOptions,
  ) {
    this.id = `${primary.id}|${fallback.id}`;
    this.locality = primary.locality === 'local' && fallback.locality === 'local' ? ('local' as const) : ('hosted' as const);
    if (fallback.locality === 'local') this.localVoice = fallback;
  }

  /** Warms the engines that run here (the local fallback); a hosted one has nothing to warm. */
  async warmUp(): Promise<void> {
    await Promise.all([this.primary.warmUp?.(), this.fallback.warmUp?.()]);
  }

  async synthesize(text: string, options: { signal?: AbortSignal } = {}): Promise<SynthesizedAudio> {
    const now = this.options.now ?? Date.now;
    const log = this.options.logger ?? silentLogger;
    if (now() >= this.skipUntil) {
      try {
        return await withTimeout(this.primary.synthesize(text, options), this.options.timeoutMs, this.primary.id, options.signal);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        this.skipUntil = now() + (this.options.cooldownMs ?? 60_000);
        log.warn({ engine: this.primary.id, fallback: this.fallback.id, err: error }, 'text to speech failed, using the local engine');
      }
    }
    return this.fallback.synthesize(text, options);
  }
}
