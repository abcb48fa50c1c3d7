/** Choose the text-to-speech engine from the configuration. */
import type { Logger, TextToSpeech } from '../../core/ports/index.js';
import type { Config } from '../../config.js';
import { EdgeTts } from './edge-tts.js';
import { EspeakTts } from './espeak-tts.js';
import { FallbackTts } from './fallback-tts.js';

export type TtsConfig = Pick<Config, 'TTS' | 'TTS_VOICE' | 'TTS_TIMEOUT_MS' | 'TTS_LOCAL_VOICE'>;

/**
 * `TTS=local` (private mode): only the offline engine, no text leaves the machine.
 * `TTS=edge`: Edge-TTS under `TTS_TIMEOUT_MS`, falling back to the offline engine.
 */
export function createTextToSpeech(config: TtsConfig, logger: Logger): TextToSpeech {
  const local = new EspeakTts({ voice: config.TTS_LOCAL_VOICE });
  if (config.TTS === 'local') {
    logger.info({ tts: local.id }, 'text to speech: local engine only (private)');
    return local;
  }
  const edge = new EdgeTts({ voice: config.TTS_VOICE, timeoutMs: config.TTS_TIMEOUT_MS });
  logger.info({ tts: edge.id, fallback: local.id }, 'text to speech: Edge-TTS (text is sent to Microsoft), local fallback');
  return new FallbackTts(edge, local, { timeoutMs: config.TTS_TIMEOUT_MS, logger });
}
