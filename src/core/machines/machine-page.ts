/**
 * A machine is a page like a person: `Machines/<name>`, written through the knowledge graph with
 * provenance. Its records say how to reach it — `SSH login: admin@10.0.0.5:22, credential
 * vault:ssh/admin@nas.` — its host key and what was learned (OS, disks). The credential appears
 * only as its handle. Reading a page back gives the logins memory knows, each checked (a page is
 * memory text: untrusted) before it is used.
 */
import { handleName } from '../ports/vault.js';
import type { HostKey, SshTarget } from '../ports/machines.js';

export const MACHINES_FOLDER = 'Machines';

export interface MachineLogin extends SshTarget {
  /** `vault:ssh/admin@nas`, or absent for a login without a kept credential. */
  handle?: string;
}

export interface MachineInfo {
  name: string;
  /** Path under notes/, e.g. `Machines/NAS.md`. */
  path: string;
  logins: MachineLogin[];
  hostKey?: HostKey;
  /** Logins that were revoked (`user@host:port`). */
  revoked: string[];
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9-]{1,63})*|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])$/i;
const USER = /^[a-z_][a-z0-9_.-]{0,31}$/i;

/** A host, user and port that may be used (not memory text that merely looks like one). */
export function validTarget(t: { host: string; user: string; port: number }): boolean {
  return HOST.test(t.host) && USER.test(t.user) && Number.isInteger(t.port) && t.port > 0 && t.port < 65536;
}

export function loginKey(t: SshTarget): string {
  return `${t.user}@${t.host}:${t.port}`;
}

export function loginFact(login: MachineLogin): string {
  return `SSH login: ${loginKey(login)}${login.handle ? `, credential ${login.handle}` : ', no kept credential'}.`;
}

export function revokedFact(login: SshTarget, date: string): string {
  return `SSH login revoked: ${loginKey(login)} (its vault entry was deleted on ${date}).`;
}

export function hostKeyFact(key: HostKey): string {
  return `Host key: ${key.algorithm} ${key.fingerprint}.`;
}

/** The page title of a machine name ("the NAS" → "NAS", "pi" → "Pi"). */
export function machineTitle(name: string): string {
  const t = name
    .trim()
    .replace(/^(?:the|my|our)\s+/i, '')
    .replace(/[^\p{L}\p{N} ._-]/gu, '')
    .trim()
    .slice(0, 60);
  // as the person wrote it, but a lower-case short name reads as an acronym (nas → NAS) and a longer one is capitalised
  if (t !== t.toLowerCase()) return t;
  return t.length <= 3 ? t.toUpperCase() : `${t.charAt(0).toUpperCase()}${t.slice(1)}`;
}

const LOGIN_LINE = /SSH login: ([^\s@]+)@([^\s:]+|\[[0-9a-f:]+\]):(\d{1,5})(?:, credential (vault:[^\s,]+?))?[.,]?(?:\s|$|\[)/gi;
const REVOKED_LINE = /SSH login revoked: ([^\s@]+)@([^\s:]+|\[[0-9a-f:]+\]):(\d{1,5})/gi;
const HOST_KEY_LINE = /Host key: ([a-z0-9@.-]+) (SHA256:[A-Za-z0-9+/]{43})/i;

/** What a machine page says about reaching it; logins that do not check out are left out. */
export function parseMachinePage(name: string, path: string, body: string): MachineInfo {
  const revoked = [...body.matchAll(REVOKED_LINE)].map((m) => `${m[1]}@${m[2]}:${m[3]}`);
  const logins: MachineLogin[] = [];
  for (const m of body.matchAll(LOGIN_LINE)) {
    const login: MachineLogin = { user: m[1] ?? '', host: m[2] ?? '', port: Number(m[3]) };
    if (!validTarget(login) || revoked.includes(loginKey(login)) || logins.some((l) => loginKey(l) === loginKey(login))) continue;
    if (m[4] && handleName(m[4])) login.handle = m[4];
    logins.push(login);
  }
  const key = HOST_KEY_LINE.exec(body);
  return { name, path, logins, revoked, ...(key?.[1] && key[2] ? { hostKey: { algorithm: key[1], fingerprint: key[2] } } : {}) };
}

/** One line of what a first look at the machine found: OS (uname, os-release) and disks (df -hP). */
export function learnedFacts(probe: { uname?: string; osRelease?: string; df?: string }): string[] {
  const facts: string[] = [];
  const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(probe.osRelease ?? '')?.[1];
  const uname = probe.uname?.trim().split('\n')[0];
  if (uname || pretty) facts.push(`OS: ${[pretty, uname].filter(Boolean).join(', ')}.`);
  const disks = (probe.df ?? '')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length >= 6 && c[0]?.startsWith('/dev/'))
    .map((c) => `${c[5]} ${c[1]} (${c[4]} used)`)
    .slice(0, 8);
  if (disks.length) facts.push(`Disks: ${disks.join('; ')}.`);
  return facts.map((f) => f.replace(/\s+/g, ' ').slice(0, 300));
}

/**
 * A machine as a listing outside Charlie shows it (the MCP server's `list_machines`): how to reach
 * it, its host key and the day of the last connection memory recorded — never a handle or a badge.
 */
export interface MachineSummary {
  name: string;
  path: string;
  /** `user@host:port` of each login that was not revoked. */
  logins: string[];
  hostKey: string | null;
  /** YYYY-MM-DD: the newest `said` of the page's host-key record (restated at every connection), or null. */
  lastContact: string | null;
}

export function machineSummary(info: MachineInfo, records: readonly { statement: string; said: string }[]): MachineSummary {
  const fingerprint = info.hostKey?.fingerprint ?? '';
  const days = records.filter((r) => r.said && r.statement.startsWith('Host key: ') && r.statement.includes(fingerprint)).map((r) => r.said);
  return {
    name: info.name,
    path: info.path,
    logins: info.logins.map(loginKey),
    hostKey: info.hostKey ? `${info.hostKey.algorithm} ${info.hostKey.fingerprint}` : null,
    lastContact: days.sort().at(-1) ?? null,
  };
}

export function summaryLine(m: MachineSummary): string {
  return [
    `${m.name} (notes/${m.path})`,
    m.logins.length ? m.logins.join(', ') : 'no login known',
    m.hostKey ? `host key ${m.hostKey}` : 'no host key pinned',
    `last contact ${m.lastContact ?? 'never recorded'}`,
  ].join(' · ');
}
