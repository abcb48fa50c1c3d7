import { CharlieError } from '../../core/errors.js';

/** Speech recognition failed; the message says what to do. */
export class SttError extends CharlieError {}

/** The Whisper model is not on disk and may not (or could not) be downloaded. */
export class SpeechModelMissingError extends SttError {}
