/** The voice session settings, taken from the parsed configuration (never from the environment directly). */
import type { Config } from '../config.js';
import type { VoiceSettings } from './session.js';

export function voiceSettings(
  config: Pick<
    Config,
    | 'VOICE_WAKE_NAME'
    | 'VOICE_WAKE_RULE'
    | 'VOICE_SILENCE_MS'
    | 'VOICE_MIN_SPEECH_MS'
    | 'VOICE_BARGE_IN'
    | 'VOICE_BARGE_IN_MS'
    | 'VOICE_EMPTY_LEAVE_MS'
    | 'STT_LANGUAGE'
    | 'VOICE_TURN_DETECTION'
    | 'VOICE_TURN_PAUSE_MS'
    | 'VOICE_TURN_MODEL_THRESHOLD'
    | 'VOICE_MAX_UTTERANCE_MS'
    | 'VOICE_MAX_NO_SPEECH_MS'
  >,
): VoiceSettings {
  return {
    wakeName: config.VOICE_WAKE_NAME,
    wakeRule: config.VOICE_WAKE_RULE,
    silenceMs: config.VOICE_SILENCE_MS,
    minSpeechMs: config.VOICE_MIN_SPEECH_MS,
    bargeIn: config.VOICE_BARGE_IN,
    bargeInMs: config.VOICE_BARGE_IN_MS,
    emptyLeaveMs: config.VOICE_EMPTY_LEAVE_MS,
    turnDetection: config.VOICE_TURN_DETECTION,
    turnPauseMs: config.VOICE_TURN_PAUSE_MS,
    turnModelThreshold: config.VOICE_TURN_MODEL_THRESHOLD,
    maxUtteranceMs: config.VOICE_MAX_UTTERANCE_MS,
    maxNoSpeechMs: config.VOICE_MAX_NO_SPEECH_MS,
    ...(config.STT_LANGUAGE ? { language: config.STT_LANGUAGE } : {}),
  };
}
