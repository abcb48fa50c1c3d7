/** Scripted fakes of the voice ports (no mocks): they record what they were given. */
import type { SpeechToText, SynthesizedAudio, TextToSpeech } from '../../src/core/ports/index.js';
import { sleep } from './sleep.js';

export class ScriptedStt implements SpeechToText {
  readonly id = 'scripted-stt';
  readonly calls: { samples: number; at: number }[] = [];
  constructor(private readonly answer: (pcm: Int16Array, call: number) => string | Promise<string>) {}
  async transcribe(pcm16k: Int16Array): Promise<string> {
    this.calls.push({ samples: pcm16k.length, at: performance.now() });
    return this.answer(pcm16k, this.calls.length - 1);
  }
}

/** "Synthesises" text as its own bytes (mime text/plain) after `delayMs`; `hang` never answers. */
export class FakeTts implements TextToSpeech {
  readonly locality = 'local' as const;
  readonly calls: string[] = [];
  constructor(
    readonly id = 'fake-tts',
    private readonly behaviour: { delayMs?: number; hang?: boolean; fail?: boolean } = {},
  ) {}
  async synthesize(text: string, options: { signal?: AbortSignal } = {}): Promise<SynthesizedAudio> {
    this.calls.push(text);
    if (this.behaviour.hang) return new Promise<never>(() => {});
    await sleep(this.behaviour.delayMs ?? 1, options.signal);
    if (this.behaviour.fail) throw new Error(`${this.id} failed`);
    return { mime: 'text/plain', data: new TextEncoder().encode(text) };
  }
}
