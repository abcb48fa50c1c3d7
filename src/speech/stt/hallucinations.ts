/**
 * Whisper invents text on near-silence: "Thank you.", "Thanks for watching!", "[BLANK_AUDIO]",
 * "(music)", "you". Such transcripts are discarded before anything else sees them.
 */

const KNOWN = new Set(
  [
    'thank you',
    'thank you very much',
    'thanks',
    'thanks for watching',
    'thank you for watching',
    'thanks for watching and see you next time',
    'please subscribe',
    'like and subscribe',
    'subscribe to my channel',
    'you',
    'bye',
    'the end',
    'so',
    'oh',
    'uh',
    'um',
    'hmm',
    'i',
    'a',
    'okay',
    'silence',
    'music',
    'applause',
    'laughter',
  ].map((s) => s),
);

/** Text in brackets/parentheses/asterisks that Whisper emits for non-speech. */
const NON_SPEECH = /\[[^\]]*\]|\([^)]*\)|\*[^*]*\*|♪+|♫+/g;

/** Remove non-speech tags and trim; returns '' when nothing is left. */
export function stripNonSpeech(transcript: string): string {
  return transcript.replace(NON_SPEECH, ' ').replace(/\s+/g, ' ').trim();
}

/** Whether a transcript is a known hallucination (or nothing but non-speech tags). */
export function isHallucination(transcript: string): boolean {
  const stripped = stripNonSpeech(transcript);
  if (!stripped) return true;
  const norm = stripped
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!norm) return true;
  if (KNOWN.has(norm)) return true;
  if (/^(subtitles|captions|transcribed|transcription) by\b/.test(norm)) return true;
  if (/amara\.org|www\./.test(stripped.toLowerCase())) return true;
  // the same short phrase looped ("you you you", "thank you thank you")
  const words = norm.split(' ');
  if (words.length >= 3 && new Set(words).size === 1) return true;
  return false;
}
