/**
 * Host keys pinned on first use, in `<DATA_DIR>/known_hosts` (0600): one line per host and port,
 * `[host]:port algorithm SHA256:… pinned-at`, like OpenSSH's file but keeping the fingerprint.
 * Rewritten whole (temp file + rename) on a change; a line that does not parse is kept as it is.
 */
import { writeFileReplacing } from '../files/atomic-write.js';
import { readFile } from 'node:fs/promises';
import type { HostKey, HostKeyPins } from '../core/ports/machines.js';

const LINE = /^\[([^\]\s]+)\]:(\d+) ([a-z0-9@.-]+) (SHA256:[A-Za-z0-9+/]{43})(?: (\S+))?$/i;

export class KnownHostsFile implements HostKeyPins {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(host: string, port: number): Promise<HostKey | null> {
    await this.queue;
    for (const line of await this.lines()) {
      const m = LINE.exec(line);
      if (m?.[1] === host.toLowerCase() && Number(m[2]) === port && m[3] && m[4]) return { algorithm: m[3], fingerprint: m[4] };
    }
    return null;
  }

  pin(host: string, port: number, key: HostKey): Promise<void> {
    return this.change((lines) => [...without(lines, host, port), `[${host.toLowerCase()}]:${port} ${key.algorithm} ${key.fingerprint} ${this.now().toISOString()}`]);
  }

  forget(host: string, port: number): Promise<void> {
    return this.change((lines) => without(lines, host, port));
  }

  private change(edit: (lines: string[]) => string[]): Promise<void> {
    const next = this.queue.catch(() => undefined).then(async () => writePrivate(this.path, `${edit(await this.lines()).join('\n')}\n`));
    this.queue = next;
    return next;
  }

  private async lines(): Promise<string[]> {
    try {
      return (await readFile(this.path, 'utf8')).split('\n').filter((l) => l.trim());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }
}

function without(lines: string[], host: string, port: number): string[] {
  return lines.filter((l) => {
    const m = LINE.exec(l);
    return !(m?.[1] === host.toLowerCase() && Number(m[2]) === port);
  });
}

async function writePrivate(path: string, text: string): Promise<void> {
  await writeFileReplacing(path, text, { mode: 0o600 });
}
