/**
 * The one recording sink of the tests: whatever a front door or the logger writes out goes
 * here and is kept in order. It serves the three sink ports: Discord replies (`ReplySink`:
 * send / edit), spoken audio (`AudioSink`: play, which takes `playMs` or until stopped), and
 * log lines (a pino destination: write).
 */
import type { SynthesizedAudio } from '../../src/core/ports/index.js';
import type { ComponentRows, ReplySink } from '../../src/discord/reply-renderer.js';
import type { AudioSink } from '../../src/voice/playback-queue.js';
import { sleep } from './sleep.js';

export class RecordingSink implements ReplySink<number>, AudioSink {
  /** Discord: the current content of each posted message, by handle. */
  readonly messages: string[] = [];
  readonly components: (ComponentRows | undefined)[] = [];
  /** Discord: `send N` / `edit N`, in order. */
  readonly ops: string[] = [];
  /** Audio: texts whose playback started, finished, or was stopped. */
  readonly started: string[] = [];
  readonly finished: string[] = [];
  readonly stopped: string[] = [];
  active = 0;
  maxActive = 0;
  /** Log: one parsed JSON object per line written. */
  readonly lines: Record<string, unknown>[] = [];

  constructor(private readonly playMs = 30) {}

  async send(content: string, components?: ComponentRows): Promise<number> {
    this.messages.push(content);
    this.components.push(components);
    this.ops.push(`send ${this.messages.length - 1}`);
    return this.messages.length - 1;
  }

  async edit(handle: number, content: string, components?: ComponentRows): Promise<void> {
    this.messages[handle] = content;
    this.components[handle] = components;
    this.ops.push(`edit ${handle}`);
  }

  async play(audio: SynthesizedAudio, signal: AbortSignal): Promise<void> {
    const text = new TextDecoder().decode(audio.data);
    this.started.push(text);
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      await sleep(this.playMs, signal);
      this.finished.push(text);
    } catch {
      this.stopped.push(text);
    } finally {
      this.active--;
    }
  }

  write(line: string): void {
    for (const l of line.split('\n')) if (l.trim()) this.lines.push(JSON.parse(l) as Record<string, unknown>);
  }

  /** Everything logged, as text (for "does not contain" checks). */
  get logText(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n');
  }
}
