/**
 * Local, offline text to speech: eSpeak NG compiled to WebAssembly (npm `espeak-ng`, GPL-3.0),
 * its voice data embedded in the module. No network, no system packages. Robotic, but private
 * and always there: the fallback when Edge fails and the engine of private mode.
 */
import { readFile } from 'node:fs/promises';
import type { SynthesizedAudio, TextToSpeech } from '../../core/ports/index.js';
import { TtsError } from './errors.js';

export interface EspeakOptions {
  /** eSpeak voice, e.g. `en-us`, `en-gb`, `de`, `fr`. */
  voice?: string;
  /** Words per minute (80–450). */
  wordsPerMinute?: number;
}

type EspeakInstance = { FS: { readFile(path: string): Uint8Array } };
type EspeakFactory = (options: Record<string, unknown>) => Promise<EspeakInstance>;
/** The slice of the WebAssembly API used here (the project's lib settings carry no DOM types). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export class EspeakTts implements TextToSpeech {
  readonly id: string;
  readonly locality = 'local' as const;
  /** Compiled once per engine instance and reused: saves ~35 ms a sentence. */
  private compiled: Promise<{ factory: EspeakFactory; module: object }> | null = null;

  constructor(private readonly options: EspeakOptions = {}) {
    this.id = `espeak-ng:${options.voice ?? 'en-us'}`;
  }

  private load(): Promise<{ factory: EspeakFactory; module: object }> {
    this.compiled ??= (async () => {
      const entry = import.meta.resolve('espeak-ng');
      const imported: { default: EspeakFactory } = await import('espeak-ng');
      const module = await wasm.compile(await readFile(new URL('./espeak-ng.wasm', entry)));
      return { factory: imported.default, module };
    })().catch((cause: unknown) => {
      this.compiled = null;
      throw new TtsError(`the local speech engine (espeak-ng) could not load — reinstall dependencies with npm install`, { cause });
    });
    return this.compiled;
  }

  /** Compile the engine and speak one word into nothing, so the first real sentence pays neither. */
  async warmUp(): Promise<void> {
    await this.synthesize('ready');
  }

  async synthesize(text: string, options: { signal?: AbortSignal } = {}): Promise<SynthesizedAudio> {
    options.signal?.throwIfAborted();
    const clean = text.replace(/\s+/g, ' ').trim();
    if (!clean) throw new TtsError('nothing to say: empty text');
    const { factory, module } = await this.load();
    const args = ['-v', this.options.voice ?? 'en-us', '-s', String(this.options.wordsPerMinute ?? 175), '-w', '/out.wav', '--', clean];
    let instance: EspeakInstance;
    try {
      instance = await factory({
        arguments: args,
        print() {},
        printErr() {},
        instantiateWasm(imports: object, done: (instance: object) => void) {
          void wasm.instantiate(module, imports).then(done);
          return {};
        },
      });
    } catch (cause) {
      throw new TtsError(`espeak-ng failed to synthesise (voice ${this.options.voice ?? 'en-us'})`, { cause });
    }
    options.signal?.throwIfAborted();
    const data = instance.FS.readFile('/out.wav');
    return { mime: 'audio/wav', data: new Uint8Array(data) };
  }
}
