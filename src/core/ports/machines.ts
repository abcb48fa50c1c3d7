/**
 * The SSH port: what the core needs from a connection to a machine. The adapter (src/machines,
 * over ssh2) connects, reports the host key for the core to check against its pin, and runs
 * commands and file operations, each bounded by a deadline and the turn's signal, with output
 * cut at a byte cap. Host-key pins are a port too (a known_hosts-like file in the data folder).
 */
import type { Credential } from './vault.js';

export interface SshTarget {
  host: string;
  port: number;
  user: string;
}

export interface HostKey {
  /** e.g. `ssh-ed25519`. */
  algorithm: string;
  /** OpenSSH's form: `SHA256:` + unpadded base64 of the key blob's SHA-256. */
  fingerprint: string;
}

export interface Bounds {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  /** Exit code; null when the command was ended by a signal or the deadline. */
  code: number | null;
  /** Output beyond the cap was not kept. */
  truncated: boolean;
}

export interface RemoteEntry {
  name: string;
  kind: 'file' | 'folder' | 'link' | 'other';
  size: number;
}

export interface SshSession {
  exec(command: string, bounds: Bounds & { maxBytes: number }): Promise<CommandResult>;
  readFile(path: string, bounds: Bounds & { maxBytes: number }): Promise<{ text: string; truncated: boolean }>;
  list(path: string, bounds: Bounds): Promise<RemoteEntry[]>;
  /** Copies a file on the machine (SFTP read, then write): `to` is created or replaced. */
  copy(from: string, to: string, bounds: Bounds & { maxBytes: number }): Promise<{ bytes: number }>;
  close(): void;
}

export interface ConnectRequest extends Bounds {
  target: SshTarget;
  credential: Credential;
  /** Called with the key the server offered, before any secret is sent: false ends the connection. */
  acceptHostKey(key: HostKey): Promise<boolean>;
}

/** Why a connection failed, by property (callers never parse message text). */
export type SshFailure = 'host_key' | 'auth' | 'unreachable' | 'timeout' | 'cancelled' | 'other';

export class SshError extends Error {
  constructor(
    readonly failure: SshFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SshError';
  }
}

export interface SshConnector {
  connect(request: ConnectRequest): Promise<SshSession>;
}

export interface HostKeyPins {
  get(host: string, port: number): Promise<HostKey | null>;
  pin(host: string, port: number, key: HostKey): Promise<void>;
  forget(host: string, port: number): Promise<void>;
}
