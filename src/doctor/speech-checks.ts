/**
 * Speech, used in Discord voice channels and for voice messages: the recogniser (local Whisper
 * or a transcription server) with one transcription of a short clip, and the voice (Edge TTS
 * and its local fallback) with one synthesis each, under a time limit — Edge TTS never settles
 * when the network is down.
 */
import type { Config } from '../config.js';
import { silentLogger, type TextToSpeech } from '../core/ports/index.js';
import { decodeAudio } from '../speech/audio/decode.js';
import { floatToInt16, RECOGNISER_RATE, resampleMono } from '../speech/audio/pcm.js';
import { createSpeechToText } from '../speech/stt/create.js';
import { TransformersWhisper } from '../speech/stt/transformers-whisper.js';
import { EdgeTts } from '../speech/tts/edge-tts.js';
import { EspeakTts } from '../speech/tts/espeak-tts.js';
import { fail, ok, skip, warn, type Check, type Part } from './check.js';
import { errorWithCause } from '../util/error-text.js';

/** The clip: made by the local voice at check time, so no audio file has to ship. */
const CLIP_TEXT = 'Hello Charlie, what is the weather today?';

async function clip(local: EspeakTts): Promise<Int16Array> {
  const audio = await local.synthesize(CLIP_TEXT);
  return floatToInt16(resampleMono(await decodeAudio(audio.data, audio.mime), RECOGNISER_RATE));
}

function recogniserCheck(config: Config, local: EspeakTts): Check {
  return {
    name: 'speech to text',
    timeoutMs: 60_000,
    async run(signal) {
      const stt = createSpeechToText(config, silentLogger);
      if (stt instanceof TransformersWhisper) {
        const found = stt.locate();
        if (!found.present) {
          const detail = `Whisper model ${config.STT_MODEL} is not at ${found.where}`;
          return config.STT_ALLOW_DOWNLOAD
            ? warn(
                `${detail}; it is downloaded (≈ 80 MB) the first time someone speaks`,
                `run Charlie once online, or copy the model folder there / set STT_MODEL_DIR; or use a server with STT_BASE_URL`,
              )
            : fail(`${detail} and STT_ALLOW_DOWNLOAD=false: voice cannot be transcribed`, 'copy the model folder there or set STT_MODEL_DIR, or set STT_BASE_URL to a transcription server');
        }
      }
      const text = await stt.transcribe(await clip(local), { language: 'en', signal });
      const heard = /weather|charlie|hello/i.test(text);
      return heard
        ? ok(`${stt.id} transcribed a short clip: "${text.trim().slice(0, 60)}"`)
        : warn(`${stt.id} transcribed a short clip as "${text.trim().slice(0, 60)}"`, 'try a larger model (STT_MODEL=Xenova/whisper-small) or a transcription server (STT_BASE_URL)');
    },
  };
}

async function synthesize(tts: TextToSpeech, signal: AbortSignal): Promise<string> {
  const started = performance.now();
  const audio = await tts.synthesize('Hello, this is Charlie.', { signal });
  return `${String(audio.data.length)} bytes of ${audio.mime} in ${String(Math.round(performance.now() - started))} ms`;
}

function edgeCheck(config: Config): Check {
  const limit = Math.min(config.TTS_TIMEOUT_MS, 6000);
  return {
    name: 'text to speech: Edge',
    timeoutMs: limit + 1000,
    async run(signal) {
      if (config.TTS !== 'edge') return skip('TTS=local: the private local voice only, nothing is sent to Microsoft');
      const edge = new EdgeTts({ voice: config.TTS_VOICE, timeoutMs: limit });
      try {
        return ok(`${edge.id}: ${await synthesize(edge, signal)} (the reply text is sent to Microsoft)`);
      } catch (err) {
        return warn(
          `${edge.id} did not answer (${errorWithCause(err).slice(0, 100)}): voice replies will use the local engine`,
          'check internet access, or set TTS=local to use the private local voice only',
        );
      }
    },
  };
}

function localVoiceCheck(local: EspeakTts): Check {
  return {
    name: 'text to speech: local voice (fallback)',
    timeoutMs: 15_000,
    async run(signal) {
      try {
        return ok(`${local.id}: ${await synthesize(local, signal)}`);
      } catch (err) {
        return fail(`${local.id} failed: ${errorWithCause(err)}`, 'reinstall with `npm ci` (the espeak-ng package ships the engine as WebAssembly)');
      }
    },
  };
}

export function speechPart(config: Config): Part {
  const local = new EspeakTts({ voice: config.TTS_LOCAL_VOICE });
  return { name: 'speech', parallel: true, checks: [localVoiceCheck(local), edgeCheck(config), recogniserCheck(config, local)] };
}
