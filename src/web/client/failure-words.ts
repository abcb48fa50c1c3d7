/**
 * Why a reply failed, in plain words for anyone in the household: what happened and the next step
 * a person can take. Each cause has its own words — the model not answering at all is not the
 * model stopping halfway, nor the model's own error (said in its own words), nor this device
 * being offline. Server paths, addresses and setting names are only in the owner's Details.
 */
import type { FailureWire } from './api.js';

/** Causes the app finds itself: the device is offline, Charlie's server cannot be reached, or the stream ended early. */
export type ClientFailure = 'offline' | 'charlie_unreachable' | 'lost' | 'charlie_said';

export interface FailureWords {
  title: string;
  words: string;
  next: string;
}

const OWNER_HELP = 'If it keeps happening, tell the person who runs Charlie.';

/** `said`: Charlie's own answer to a request it refused (`charlie_said`), which is written for people. */
export function failureWords(failure: FailureWire | undefined, client?: ClientFailure, said = ''): FailureWords {
  if (client === 'offline') return { title: 'You are offline.', words: 'The connection dropped before the answer arrived.', next: 'Charlie carries on by itself when the network is back.' };
  if (client === 'charlie_unreachable') return { title: 'Charlie cannot be reached.', words: 'The computer Charlie runs on did not answer.', next: `Press Retry in a moment. ${OWNER_HELP}` };
  if (client === 'charlie_said') return { title: 'Charlie could not take this message.', words: said ? `It said: “${said}”` : '', next: 'Press Retry, or reload the page.' };
  if (client === 'lost') return { title: 'The connection to Charlie was lost.', words: 'The answer may have finished anyway.', next: 'Press Retry, or reload the page to see it.' };
  const own = failure?.modelMessage;
  switch (failure?.kind) {
    case 'unreachable':
      return { title: 'Charlie cannot reach its model.', words: 'The program that writes the answers is not running or not reachable.', next: `Try again in a few minutes. ${OWNER_HELP}` };
    case 'cut':
      return { title: 'The answer stopped halfway.', words: 'The model stopped in the middle of this answer; what it wrote so far is above.', next: 'Press Retry to ask again.' };
    case 'timeout':
      return { title: 'The model took too long.', words: 'It may be busy or still starting up.', next: 'Press Retry in a moment.' };
    case 'rate_limited':
      return { title: 'The model is busy.', words: 'It is answering too many questions at once.', next: 'Wait a minute, then press Retry.' };
    case 'context_too_long':
      return { title: 'This conversation is too long for the model.', words: 'It cannot read this much at once.', next: 'Send a shorter message, or ask in a new project.' };
    case 'auth':
      return { title: 'The model refused Charlie.', words: 'Its key was not accepted.', next: 'Tell the person who runs Charlie.' };
    case 'server_error':
    case 'refused':
    case 'bad_response':
      return own
        ? { title: 'The model reported a problem.', words: `It said: “${own}”`, next: `Press Retry. ${OWNER_HELP}` }
        : { title: 'The model ran into a problem.', words: 'It could not write this answer.', next: `Press Retry. ${OWNER_HELP}` };
    case 'memory':
      return { title: 'Charlie could not read or save its memory.', words: 'The answer could not be made.', next: 'Tell the person who runs Charlie.' };
    default:
      return { title: 'Something went wrong inside Charlie.', words: 'The answer could not be made.', next: `Press Retry. ${OWNER_HELP}` };
  }
}

/** Why a request from this page failed: offline, Charlie's server not answering, or an answer (with its status). */
export function clientFailure(err: unknown): ClientFailure {
  if (!navigator.onLine) return 'offline';
  return err instanceof TypeError ? 'charlie_unreachable' : 'lost';
}

/**
 * A reply cut in the middle of a Markdown table ends with a row half drawn (`| Mon | til`), or
 * with a header not yet followed by its rows: that line goes, so no stray `|` is left.
 */
export function withoutHalfRow(text: string): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  const last = lines[lines.length - 1] ?? '';
  if (!/^\s*\|/.test(last)) return text;
  let first = lines.length - 1;
  while (first > 0 && /^\s*\|/.test(lines[first - 1] ?? '')) first--;
  const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').length;
  const header = lines[first] ?? '';
  const half = !/\|\s*$/.test(last) || cells(last) < cells(header) || first === lines.length - 1;
  return half ? lines.slice(0, -1).join('\n').replace(/\s+$/, '') : text;
}
