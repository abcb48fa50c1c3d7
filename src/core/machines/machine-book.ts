/**
 * See and revoke: every machine and login memory knows in a place, each with its credential
 * badge (what the asking person's vault holds for it, never the secret); revoking a login deletes
 * its vault entry and marks the page; forgetting a machine tombstones its page like any other.
 * `/machines` in the terminal and on Discord reads and writes through this one book.
 */
import type { Place } from '../place.js';
import type { Note, NoteSummary } from '../ports/index.js';
import type { Asker } from '../time/reminder-desk.js';
import type { MachineDesk, MachineTurn } from './desk.js';
import { loginKey, type MachineInfo } from './machine-page.js';

export interface MachineBookDeps {
  desk: MachineDesk;
  /** The project of a place and its notes; null for a private place (no pages). */
  notesOf(place: Place): Promise<{ project: string; notes: { list(): Promise<NoteSummary[]>; read(path: string): Promise<Note | null> } } | null>;
  /** Forgets a page (a tombstone), as /memory forget does; false when there was none. */
  forgetPage(place: Place, path: string, by: string): Promise<boolean>;
}

export interface MachineListing {
  name: string;
  path: string;
  hostKey: string | null;
  logins: { login: string; handle: string | null; badge: string }[];
  revoked: string[];
}

export class MachineBook {
  constructor(private readonly deps: MachineBookDeps) {}

  async list(place: Place, asker: Asker): Promise<MachineListing[]> {
    const turn = await this.turn(place, asker);
    if (!turn) return [];
    const out: MachineListing[] = [];
    for (const m of await this.deps.desk.known(turn)) out.push(await this.listing(m, asker));
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  async revoke(place: Place, asker: Asker, machine: string): Promise<string> {
    const turn = await this.turn(place, asker);
    if (!turn) return 'Machines are kept in a project: there are none in a private conversation.';
    const { revoked, deleted } = await this.deps.desk.revoke(turn, machine);
    if (!revoked.length) return `No login is known for "${machine}" here (/machines lists them).`;
    return `Revoked ${revoked.join(', ')}: ${deleted} vault entr${deleted === 1 ? 'y' : 'ies'} deleted, and the page says so. To connect again, give the password or key once more.`;
  }

  async forget(place: Place, asker: Asker, machine: string): Promise<string> {
    const turn = await this.turn(place, asker);
    if (!turn) return 'Machines are kept in a project: there are none in a private conversation.';
    const known = await this.deps.desk.recall(turn, machine);
    if (!known) return `No machine "${machine}" is known here (/machines lists them).`;
    const { deleted } = await this.deps.desk.revoke(turn, machine);
    await this.deps.desk.forgetHostKey(turn, machine);
    const forgotten = await this.deps.forgetPage(place, known.path, asker.ownerName);
    return forgotten ? `Forgot ${known.name} (its page is tombstoned${deleted ? `, ${deleted} vault entr${deleted === 1 ? 'y' : 'ies'} deleted` : ''}).` : `${known.name} could not be forgotten.`;
  }

  async forgetHostKey(place: Place, asker: Asker, machine: string): Promise<string> {
    const turn = await this.turn(place, asker);
    if (!turn) return 'Machines are kept in a project: there are none in a private conversation.';
    const unpinned = await this.deps.desk.forgetHostKey(turn, machine);
    return unpinned.length ? `Unpinned the host key of ${unpinned.join(', ')}: the next connection pins the key it is offered, and shows its fingerprint.` : `No machine "${machine}" is known here.`;
  }

  private async listing(m: MachineInfo, asker: Asker): Promise<MachineListing> {
    const logins = [];
    for (const l of m.logins) logins.push({ login: loginKey(l), handle: l.handle ?? null, badge: await this.deps.desk.badge(asker.ownerId, l.handle) });
    return { name: m.name, path: m.path, hostKey: m.hostKey ? `${m.hostKey.algorithm} ${m.hostKey.fingerprint}` : null, logins, revoked: m.revoked };
  }

  private async turn(place: Place, asker: Asker): Promise<MachineTurn | null> {
    const where = await this.deps.notesOf(place);
    if (!where) return null;
    return { owner: asker.ownerId, ownerName: asker.ownerName, project: where.project, notes: where.notes, source: 'manual' };
  }
}

export const MACHINES_HELP = '/machines · /machines revoke NAME · /machines forget NAME · /machines forget-key NAME';

/** `/machines`, `/machines revoke NAME`, `/machines forget NAME`: the text a front door shows. */
export async function machinesCommand(args: string, book: MachineBook | undefined, place: Place, asker: Asker): Promise<string> {
  if (!book) return 'Machines (SSH) are off here (SSH_ENABLED=false).';
  const [verb = '', ...rest] = args.trim().split(/\s+/);
  const name = rest.join(' ').trim();
  const verbs: Record<string, (n: string) => Promise<string>> = {
    revoke: (n) => book.revoke(place, asker, n),
    forget: (n) => book.forget(place, asker, n),
    'forget-key': (n) => book.forgetHostKey(place, asker, n),
  };
  const run = verbs[verb];
  if (run) return name ? run(name) : `usage: ${MACHINES_HELP}`;
  if (verb && verb !== 'list') return `usage: ${MACHINES_HELP}`;
  return listingText(await book.list(place, asker));
}

export function listingText(list: MachineListing[]): string {
  if (!list.length) return 'No machine is known here yet. Ask me to connect to one ("connect to the NAS at 192.168.1.20, user admin").';
  return list
    .map((m) => {
      const logins = m.logins.map((l) => `  🔑 ${l.login} · ${l.badge}${l.handle ? ` · ${l.handle}` : ''}`);
      const revoked = m.revoked.map((r) => `  ⛔ ${r} · revoked`);
      return [`🖥 ${m.name} (notes/${m.path})${m.hostKey ? ` · host key ${m.hostKey}` : ''}`, ...logins, ...revoked].join('\n');
    })
    .join('\n');
}
