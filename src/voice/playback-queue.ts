/**
 * Charlie's mouth: sentences are synthesised ahead (so the next one is ready when the
 * current one ends) and played strictly one after another, so answers queue and never
 * overlap or cut each other off. `interrupt()` (barge-in, "stop") stops the current
 * sentence and drops everything queued.
 */
import type { Logger, SynthesizedAudio, TextToSpeech } from '../core/ports/index.js';
import { silentLogger } from '../core/ports/index.js';

/** Where audio goes (the Discord AudioPlayer in production, a recorder in tests). */
export interface AudioSink {
  /** Play synthesised audio; resolves when it finished or was stopped. */
  play(audio: SynthesizedAudio, signal: AbortSignal): Promise<void>;
}

export interface PlaybackQueueOptions {
  tts: TextToSpeech;
  sink: AudioSink;
  /** Sentences synthesised ahead of the one playing. Default 2. */
  prefetch?: number;
  logger?: Logger;
}

interface Item {
  text: string;
  controller: AbortController;
  audio: Promise<SynthesizedAudio | null> | null;
}

export class PlaybackQueue {
  private items: Item[] = [];
  private running: Promise<void> | null = null;
  private playing = false;
  private readonly log: Logger;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: PlaybackQueueOptions) {
    this.log = options.logger ?? silentLogger;
  }

  /** True while Charlie is talking or has something queued. */
  get speaking(): boolean {
    return this.playing || this.items.length > 0;
  }

  get pending(): number {
    return this.items.length;
  }

  enqueue(text: string): void {
    if (!text.trim()) return;
    this.items.push({ text, controller: new AbortController(), audio: null });
    this.prefetch();
    this.running ??= this.run().finally(() => {
      this.running = null;
      for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  /** Stop the sentence being spoken and drop the queued ones. Returns how many were dropped. */
  interrupt(): number {
    const dropped = this.items.splice(0);
    for (const item of dropped) item.controller.abort(new Error('interrupted'));
    return dropped.length;
  }

  /** Resolves when nothing is queued or playing. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private prefetch(): void {
    const ahead = (this.options.prefetch ?? 2) + 1;
    for (const item of this.items.slice(0, ahead)) item.audio ??= this.synthesize(item);
  }

  private async synthesize(item: Item): Promise<SynthesizedAudio | null> {
    try {
      return await this.options.tts.synthesize(item.text, { signal: item.controller.signal });
    } catch (error) {
      if (!item.controller.signal.aborted) this.log.warn({ err: error, tts: this.options.tts.id }, 'could not synthesise a sentence; skipping it');
      return null;
    }
  }

  private async run(): Promise<void> {
    while (this.items.length) {
      const item = this.items[0]!;
      item.audio ??= this.synthesize(item);
      const audio = await item.audio;
      if (audio && !item.controller.signal.aborted) {
        this.playing = true;
        try {
          await this.options.sink.play(audio, item.controller.signal);
        } catch (error) {
          this.log.warn({ err: error }, 'playback failed');
        } finally {
          this.playing = false;
        }
      }
      if (this.items[0] === item) this.items.shift();
      this.prefetch();
    }
  }
}
