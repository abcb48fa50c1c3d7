/**
 * Where a sync remote (SYNC_REMOTE) is, decided from how git names it: a folder on this machine
 * (a path, `file://`, a USB disk, a mount) or a host, by git's own rules — a URL (`ssh://`,
 * `https://`, `git://`) or the scp-like `[user@]host:path` (a colon before any slash). A
 * transport prefix (`gcrypt::`) is looked through. The host is then judged like every other
 * service's (src/llm/locality.ts); an explicit SYNC_LOCALITY wins.
 */
import { isLocalHost } from '../llm/locality.js';

/** The host a git remote names; null for a folder on this machine; '' when no host can be read (counts as hosted). */
export function remoteHost(remote: string): string | null {
  const r = remote.trim().replace(/^[A-Za-z][\w+.-]*::/, '');
  const scheme = /^([A-Za-z][\w+.-]*):\/\//.exec(r);
  if (scheme) {
    if (scheme[1]?.toLowerCase() === 'file') return null;
    try {
      return new URL(r).hostname;
    } catch {
      return '';
    }
  }
  // a Windows drive (C:\ or C:/) is a path, not a host called C
  if (/^[A-Za-z]:[\\/]/.test(r)) return null;
  const scp = /^(?:[^@/:]+@)?(\[[^\]]+\]|[^:/]+):/.exec(r);
  return scp ? (scp[1] ?? '') : null;
}

/** Whether the remote is on this machine or the household's own network. */
export function remoteIsLocal(remote: string, setting: 'auto' | 'local' | 'hosted'): boolean {
  if (setting !== 'auto') return setting === 'local';
  const host = remoteHost(remote);
  return host === null || (host !== '' && isLocalHost(host));
}
