/**
 * Asking in the moment, in the terminal: before something marked sensitive goes to a hosted
 * service, a question names the service and the items (never their content) and reads one line:
 * `o` once, `a` always for these, anything else — or nothing before the time runs out, or Stop —
 * no. The terminal's person is Charlie's owner on this computer.
 */
import { DESTINATIONS } from '../core/privacy/destinations.js';
import { itemLabel, type ConsentAccess, type ConsentAnswer, type ConsentAsk } from '../core/privacy/consent.js';
import type { Palette } from './render.js';

/** The answer a typed line gives: once, always, or no. */
export function consentAnswerOf(line: string): ConsentAnswer {
  const t = line.trim().toLowerCase();
  if (/^(o|once|y|yes)$/.test(t)) return 'once';
  if (/^(a|always)$/.test(t)) return 'always';
  return 'no';
}

/**
 * The terminal's one reader of lines, shared by the chat, a tool's y/N and the consent question.
 * A question that ran out of time leaves its read waiting: the next line goes to whoever reads
 * next, and `lateAnswer` tells the chat that a bare answer ("o", "a", "n") was meant for the
 * question that is gone, so it is not taken as a message.
 */
export class LineReader {
  private pending: Promise<IteratorResult<string>> | null = null;
  private late = false;

  constructor(private readonly lines: AsyncIterator<string>) {}

  read(): Promise<IteratorResult<string>> {
    this.pending ??= this.lines.next().then((r) => {
      this.pending = null;
      return r;
    });
    return this.pending;
  }

  /** A question stopped waiting for the read in flight. */
  abandon(): void {
    this.late = true;
  }

  /** Whether `line` answers a question that ran out of time (then it is dropped, once). */
  lateAnswer(line: string): boolean {
    const late = this.late;
    this.late = false;
    return late && /^(o|once|a|always|y|yes|n|no)$/i.test(line.trim());
  }
}

/** The terminal's consent access: its person (by name, the owner here) and the question. */
export function terminalConsent(userName: string, reader: LineReader, p: Palette, write: (s: string) => void): ConsentAccess {
  const ask: ConsentAsk = async (request, signal) => {
    const what = DESTINATIONS[request.service.kind].what;
    write(
      p.warn(
        `  ? May I send ${request.items.length === 1 ? 'this' : `these ${request.items.length}`} to ${what} ${request.service.id} (hosted, leaves this machine)?\n` +
          request.items.map((i) => `    · ${itemLabel(i)}\n`).join('') +
          `    [o]nce · [a]lways for these · [N]o (no answer in ${Math.round(request.timeoutMs / 1000)} s is no) `,
      ),
    );
    const stopped = new Promise<null>((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true }));
    const got = await Promise.race([reader.read(), stopped]);
    if (!got) {
      reader.abandon();
      write(p.dim('\n    no answer in time: held back\n'));
      return 'no';
    }
    const answer = got.done ? 'no' : consentAnswerOf(got.value);
    write(p.dim(answer === 'no' ? '    held back\n' : answer === 'once' ? '    sent, this once\n' : '    sent, and from now on (/privacy consents)\n'));
    return answer;
  };
  return { person: { id: `terminal:${userName}`, name: userName, role: 'owner' }, ask, shared: false };
}
