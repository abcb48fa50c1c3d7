/**
 * The SSH connector over ssh2 (a maintained pure-JavaScript SSH client; no system ssh is run).
 * The host key is handed to the core's check before authentication, so no secret is sent to a
 * server whose key does not match its pin. Every connection and every operation ends at its
 * deadline or when the turn's signal fires; command output stops being kept at the byte cap.
 */
import { createHash } from 'node:crypto';
import { Client, type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { SshError, type Bounds, type CommandResult, type ConnectRequest, type HostKey, type RemoteEntry, type SshConnector, type SshSession } from '../core/ports/machines.js';

/** OpenSSH's fingerprint of a key blob, and its algorithm (the blob's first string). */
export function hostKeyOf(blob: Buffer): HostKey {
  const n = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  const algorithm = n > 0 && n < 64 && blob.length >= 4 + n ? blob.subarray(4, 4 + n).toString('latin1') : 'unknown';
  return { algorithm, fingerprint: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}` };
}

function classify(err: unknown): SshError {
  if (err instanceof SshError) return err;
  const e = err as { level?: string; code?: string; message?: string };
  const message = e.message ?? String(err);
  if (e.level === 'client-authentication') return new SshError('auth', 'the machine refused the login (wrong user, key or password)', { cause: err });
  if (e.level === 'client-timeout' || /timed out/i.test(message)) return new SshError('timeout', 'the machine did not answer in time (SSH_TIMEOUT_MS)', { cause: err });
  if (e.code && ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNRESET'].includes(e.code))
    return new SshError('unreachable', `the machine cannot be reached (${e.code})`, { cause: err });
  if (/verification failed|host denied/i.test(message)) return new SshError('host_key', 'the host key was not accepted', { cause: err });
  return new SshError('other', message, { cause: err });
}

/** Rejects when `bounds` end (deadline or signal) before `work` settles; `onEnd` stops the work. */
function bounded<T>(bounds: Bounds, onEnd: () => void, work: (settle: { resolve: (v: T) => void; reject: (e: unknown) => void }) => void, onTimeout?: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      bounds.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const timer = setTimeout(() => {
      onEnd();
      finish(() => (onTimeout ? resolve(onTimeout()) : reject(new SshError('timeout', `the machine did not answer within ${bounds.timeoutMs} ms (SSH_TIMEOUT_MS)`))));
    }, bounds.timeoutMs);
    const onAbort = () => {
      onEnd();
      finish(() => reject(new SshError('cancelled', 'stopped: the turn was cancelled or ran out of time')));
    };
    if (bounds.signal?.aborted) {
      onAbort();
      return;
    }
    bounds.signal?.addEventListener('abort', onAbort, { once: true });
    work({ resolve: (v) => finish(() => resolve(v)), reject: (e) => finish(() => reject(classify(e))) });
  });
}

export class Ssh2Connector implements SshConnector {
  connect(request: ConnectRequest): Promise<SshSession> {
    const client = new Client();
    const { credential, target } = request;
    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.user,
      readyTimeout: request.timeoutMs,
      keepaliveInterval: 0,
      tryKeyboard: Boolean(credential.password),
      hostVerifier: (key: Buffer, verify: (valid: boolean) => void) => {
        request.acceptHostKey(hostKeyOf(key)).then(verify, () => verify(false));
      },
      ...(credential.privateKey ? { privateKey: credential.privateKey } : {}),
      ...(credential.passphrase ? { passphrase: credential.passphrase } : {}),
      ...(credential.password ? { password: credential.password } : {}),
    };
    if (credential.password) {
      const password = credential.password;
      client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) => finish(prompts.map(() => password)));
    }
    return bounded<SshSession>(
      request,
      () => client.destroy(),
      ({ resolve, reject }) => {
        client.once('ready', () => resolve(new Ssh2Session(client)));
        // `on`, not `once`: ssh2 may emit a second error after a deadline or a Stop destroyed the
        // connection ("Connection lost before handshake"); with no listener it would end the process
        client.on('error', reject);
        client.once('close', () => reject(new SshError('unreachable', 'the machine closed the connection')));
        try {
          client.connect(config);
        } catch (err) {
          reject(err);
        }
      },
    ).catch((err: unknown) => {
      client.destroy();
      throw classify(err);
    });
  }
}

class Ssh2Session implements SshSession {
  private sftpChannel: Promise<SFTPWrapper> | null = null;

  constructor(private readonly client: Client) {}

  exec(command: string, bounds: Bounds & { maxBytes: number }): Promise<CommandResult> {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let close = () => {};
    const keep = (into: Buffer[], chunk: Buffer) => {
      const room = bounds.maxBytes - kept;
      if (room <= 0) {
        truncated = true;
        close();
        return;
      }
      into.push(chunk.subarray(0, room));
      kept += Math.min(room, chunk.length);
      if (chunk.length > room) {
        truncated = true;
        close();
      }
    };
    const result = (code: number | null, note = ''): CommandResult => ({
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8') + note,
      code,
      truncated,
    });
    return bounded<CommandResult>(
      bounds,
      () => close(),
      ({ resolve, reject }) => {
        this.client.exec(command, (e, stream) => {
          if (e) {
            reject(e);
            return;
          }
          close = () => stream.close();
          stream.on('data', (c: Buffer) => keep(out, c));
          stream.stderr.on('data', (c: Buffer) => keep(err, c));
          stream.on('close', (code: number | null) => resolve(result(truncated ? null : typeof code === 'number' ? code : null)));
        });
      },
      () => result(null, `\n(stopped after ${bounds.timeoutMs} ms: SSH_TIMEOUT_MS)`),
    );
  }

  async readFile(path: string, bounds: Bounds & { maxBytes: number }): Promise<{ text: string; truncated: boolean }> {
    const bytes = await this.readBytes(path, bounds);
    return { text: bytes.data.toString('utf8'), truncated: bytes.truncated };
  }

  async list(path: string, bounds: Bounds): Promise<RemoteEntry[]> {
    const sftp = await this.sftp(bounds);
    return bounded<RemoteEntry[]>(
      bounds,
      () => sftp.end(),
      ({ resolve, reject }) => {
        sftp.readdir(path, (e, list) => {
          if (e) {
            reject(new SshError('other', `cannot list ${path}: ${e.message}`));
            return;
          }
          resolve(
            list
              .map((f) => ({
                name: f.filename,
                kind: f.attrs.isDirectory() ? ('folder' as const) : f.attrs.isSymbolicLink() ? ('link' as const) : f.attrs.isFile() ? ('file' as const) : ('other' as const),
                size: f.attrs.size,
              }))
              .sort((a, b) => a.name.localeCompare(b.name)),
          );
        });
      },
    );
  }

  async copy(from: string, to: string, bounds: Bounds & { maxBytes: number }): Promise<{ bytes: number }> {
    const { data, truncated } = await this.readBytes(from, bounds);
    if (truncated) throw new SshError('other', `${from} is larger than ${bounds.maxBytes} bytes; not copied`);
    const sftp = await this.sftp(bounds);
    return bounded<{ bytes: number }>(
      bounds,
      () => sftp.end(),
      ({ resolve, reject }) => sftp.writeFile(to, data, (e) => (e ? reject(new SshError('other', `cannot write ${to}: ${e.message}`)) : resolve({ bytes: data.length }))),
    );
  }

  close(): void {
    this.client.end();
  }

  private async readBytes(path: string, bounds: Bounds & { maxBytes: number }): Promise<{ data: Buffer; truncated: boolean }> {
    const sftp = await this.sftp(bounds);
    return bounded(
      bounds,
      () => sftp.end(),
      ({ resolve, reject }) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const stream = sftp.createReadStream(path, { start: 0, end: bounds.maxBytes }); // one byte more than the cap says whether there was more
        stream.on('data', (c: Buffer) => {
          chunks.push(c);
          size += c.length;
        });
        stream.on('error', (e: Error) => reject(new SshError('other', `cannot read ${path}: ${e.message}`)));
        stream.on('end', () => {
          const all = Buffer.concat(chunks, size);
          resolve({ data: all.subarray(0, bounds.maxBytes), truncated: all.length > bounds.maxBytes });
        });
      },
    );
  }

  private sftp(bounds: Bounds): Promise<SFTPWrapper> {
    this.sftpChannel ??= bounded<SFTPWrapper>(
      bounds,
      () => {},
      ({ resolve, reject }) => this.client.sftp((e, s) => (e ? reject(e) : resolve(s))),
    );
    return this.sftpChannel;
  }
}
