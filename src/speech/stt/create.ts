/** Choose the speech-to-text adapter from the configuration. */
import { join } from 'node:path';
import type { Logger, SpeechToText } from '../../core/ports/index.js';
import type { Config } from '../../config.js';
import { OpenAITranscriber } from './openai-transcriber.js';
import { TransformersWhisper } from './transformers-whisper.js';

export type SttConfig = Pick<Config, 'STT' | 'STT_MODEL' | 'STT_MODEL_DIR' | 'STT_BASE_URL' | 'STT_TIMEOUT_MS' | 'STT_API_KEY' | 'STT_SERVER_MODEL' | 'STT_ALLOW_DOWNLOAD' | 'STT_DTYPE' | 'dataDir'>;

/**
 * `STT=openai`, or `auto` with `STT_BASE_URL` set → the server; otherwise local Whisper via
 * transformers.js, cached in `<DATA_DIR>/models`. A missing model is reported (with what to
 * do) when voice first needs it; call `load()` on the TransformersWhisper to fetch it at start.
 */
export function createSpeechToText(config: SttConfig, logger: Logger): SpeechToText {
  const useServer = config.STT === 'openai' || (config.STT === 'auto' && !!config.STT_BASE_URL);
  if (useServer) {
    if (!config.STT_BASE_URL) throw new Error('STT=openai needs STT_BASE_URL (e.g. http://localhost:8080/v1 for a whisper.cpp server)');
    logger.info({ stt: 'openai', baseUrl: config.STT_BASE_URL }, 'speech to text: OpenAI-compatible server');
    return new OpenAITranscriber({
      baseUrl: config.STT_BASE_URL,
      model: config.STT_SERVER_MODEL,
      timeoutMs: config.STT_TIMEOUT_MS,
      ...(config.STT_API_KEY ? { apiKey: config.STT_API_KEY } : {}),
    });
  }
  const whisper = localWhisper(config, { allowDownload: config.STT_ALLOW_DOWNLOAD, logger });
  const where = whisper.locate();
  logger.info({ stt: 'transformers', model: config.STT_MODEL, at: where.where, present: where.present }, 'speech to text: local Whisper');
  return whisper;
}

/** Local Whisper as configured (model, folder, weights), cached in `<DATA_DIR>/models`; `npm run models` uses the same. */
export function localWhisper(config: Pick<Config, 'STT_MODEL' | 'STT_MODEL_DIR' | 'STT_DTYPE' | 'dataDir'>, options: { allowDownload: boolean; logger?: Logger }): TransformersWhisper {
  return new TransformersWhisper({
    model: config.STT_MODEL,
    cacheDir: join(config.dataDir, 'models'),
    ...(config.STT_MODEL_DIR ? { localDir: config.STT_MODEL_DIR } : {}),
    dtype: config.STT_DTYPE,
    ...options,
  });
}
