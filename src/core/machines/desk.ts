/**
 * The machine desk: connects to a person's machines over SSH (the SshConnector port) with what
 * memory knows, and records what it learns. First contact needs one hint (a host and a user);
 * the host key is pinned on first use and a changed one stops the connection; a successful
 * connection writes the machine page `Machines/<name>` through the knowledge graph (host, port,
 * user, host-key fingerprint, OS, disks, who uses it, with the message as provenance). The
 * credential is resolved from the asking person's vault at the moment of connection and never
 * leaves this module: tool results, pages and logs carry only its handle.
 */
import { comparable } from '../comparable.js';
import type { Clock, GraphEntity, GraphFact, GraphLink, KnowledgeGraph, Note, NoteSummary } from '../ports/index.js';
import { USERS_CATEGORY } from '../writing/graph-distill.js';
import { SshError, type Bounds, type HostKey, type HostKeyPins, type SshConnector, type SshSession, type SshTarget } from '../ports/machines.js';
import { handleName, type Credential, type Vault } from '../ports/vault.js';
import { loginName } from './message-secrets.js';
import { hostKeyFact, learnedFacts, loginFact, loginKey, machineTitle, MACHINES_FOLDER, parseMachinePage, revokedFact, validTarget, type MachineInfo, type MachineLogin } from './machine-page.js';

export interface MachineSettings {
  /** Every connection and every command ends after this long (SSH_TIMEOUT_MS). */
  timeoutMs: number;
  /** Output kept of one command or file (SSH_MAX_OUTPUT_BYTES). */
  maxOutputBytes: number;
}

export interface MachineDeskDeps {
  connector: SshConnector;
  pins: HostKeyPins;
  vault: Vault;
  graph: Pick<KnowledgeGraph, 'write'>;
  clock: Clock;
  settings: MachineSettings;
}

/** Who asks, and where: machine pages live in the turn's project (none in a private conversation). */
export interface MachineTurn {
  /** The asking person's stable id: the only vault their handles resolve in. */
  owner: string;
  ownerName: string;
  /** The project whose pages hold the machines; null in a DM (nothing is recorded there). */
  project: string | null;
  notes: { list(): Promise<NoteSummary[]>; read(path: string): Promise<Note | null> } | null;
  /** Provenance of what is recorded (the message link). */
  source: string;
  signal?: AbortSignal | undefined;
}

/** A hint from the person or the model: a machine's name, and what is not known yet. */
export interface MachineHint {
  machine: string;
  host?: string | undefined;
  user?: string | undefined;
  port?: number | undefined;
  credential?: string | undefined;
}

export interface Connected {
  session: SshSession;
  info: { name: string; login: MachineLogin; hostKey: HostKey; firstUse: boolean };
}

export class MachineError extends Error {}

/** A Discord user id (a snowflake): the asker's id names their centre page's `discord_id`. */
const DISCORD_ID = /^\d{15,22}$/;

/**
 * Why sending a handle's credential to this login is unusual, or null: a handle is for the login
 * it was given for (`ssh/admin@nas` → user admin, host nas or the machine called NAS) or one the
 * machine's page already records with it. Anything else — the NAS's password to another host —
 * needs the person's yes first.
 */
export function credentialElsewhere(login: MachineLogin, name: string, known: MachineInfo | null): string | null {
  const handle = login.handle ?? '';
  if (known?.logins.some((l) => l.handle === handle && l.host === login.host && l.user === login.user)) return null;
  const bound = /^ssh\/([^@]+)@(.+)$/.exec(handleName(handle) ?? '');
  const userOk = !bound || bound[1] === 'login' || bound[1] === login.user;
  const where = bound?.[2] ?? '';
  const hostOk = !bound || where === login.host || where === 'unnamed' || comparable(where) === comparable(name);
  const recordedElsewhere = known?.logins.find((l) => l.handle === handle && l.host !== login.host);
  if (userOk && hostOk && !recordedElsewhere) return null;
  return `${handle} was given for ${recordedElsewhere ? loginKey(recordedElsewhere) : (bound?.[0] ?? 'another login')}, not for ${loginKey(login)}`;
}

export class MachineDesk {
  constructor(private readonly deps: MachineDeskDeps) {}

  get settings(): MachineSettings {
    return this.deps.settings;
  }

  /** The machine page of a name (title, alias-free match on the file name too), read back; null when memory has none. */
  async recall(turn: MachineTurn, machine: string): Promise<MachineInfo | null> {
    if (!turn.notes) return null;
    const want = comparable(machineTitle(machine));
    const pages = (await turn.notes.list()).filter((n) => n.path.startsWith(`${MACHINES_FOLDER}/`));
    const hit = pages.find((p) => comparable(p.title) === want) ?? pages.find((p) => comparable(p.path.slice(MACHINES_FOLDER.length + 1).replace(/\.md$/, '')) === want);
    if (!hit) return null;
    const note = await turn.notes.read(hit.path);
    return note ? parseMachinePage(note.title, note.path, note.body) : null;
  }

  /** Every machine page of the turn's project. */
  async known(turn: MachineTurn): Promise<MachineInfo[]> {
    if (!turn.notes) return [];
    const pages = (await turn.notes.list()).filter((n) => n.path.startsWith(`${MACHINES_FOLDER}/`));
    const out: MachineInfo[] = [];
    for (const p of pages) {
      const note = await turn.notes.read(p.path);
      if (note) out.push(parseMachinePage(note.title, note.path, note.body));
    }
    return out;
  }

  /** The login to use: the hint's fields over what the page says; the credential handle from the hint, the page or the vault's usual name. */
  async resolve(turn: MachineTurn, hint: MachineHint): Promise<{ name: string; login: MachineLogin; known: MachineInfo | null }> {
    const known = await this.recall(turn, hint.machine);
    const name = known?.name ?? machineTitle(hint.machine);
    const fromPage = known?.logins.find((l) => (!hint.user || l.user === hint.user) && (!hint.host || l.host === hint.host)) ?? known?.logins[0];
    const host = hint.host ?? fromPage?.host;
    const user = hint.user ?? fromPage?.user;
    if (!host || !user) throw new MachineError(`I do not know how to reach ${name} yet: tell me its host (name or address) and the user to log in as, once.`);
    const login: MachineLogin = { host: host.toLowerCase(), user, port: hint.port ?? fromPage?.port ?? 22 };
    if (!validTarget(login)) throw new MachineError(`${loginKey(login)} is not a host, user and port I can connect to`);
    const handle = hint.credential ?? (fromPage && fromPage.host === login.host && fromPage.user === login.user ? fromPage.handle : undefined) ?? (await this.defaultHandle(turn.owner, login, name));
    if (handle) login.handle = handle;
    return { name, login, known };
  }

  /** Connects with the resolved login; pins the host key on first use and refuses a changed one. */
  async connect(turn: MachineTurn, hint: MachineHint, askToSend?: (question: string) => Promise<boolean>): Promise<Connected> {
    const { name, login, known } = await this.resolve(turn, hint);
    const unusual = login.handle ? credentialElsewhere(login, name, known) : null;
    // a handle sent to a host it was not given for (a hint in memory text could ask for that): only with the person's yes
    if (unusual && !(await (askToSend?.(unusual) ?? Promise.resolve(false)))) throw new MachineError(`not connected: ${unusual}, and the person did not allow it`);
    const credential = login.handle ? await this.credentialOf(turn.owner, login.handle) : {};
    const pinned = await this.deps.pins.get(login.host, login.port);
    const seen: { key: HostKey | null } = { key: null };
    const session = await this.deps.connector
      .connect({
        target: login,
        credential,
        timeoutMs: this.deps.settings.timeoutMs,
        signal: turn.signal,
        acceptHostKey: (key) => {
          seen.key = key;
          return Promise.resolve(!pinned || (pinned.algorithm === key.algorithm && pinned.fingerprint === key.fingerprint));
        },
      })
      .catch((err: unknown) => {
        const got = seen.key;
        if (pinned && got && got.fingerprint !== pinned.fingerprint) {
          throw new SshError(
            'host_key',
            `STOPPED: the host key of ${name} (${login.host}:${login.port}) changed. Pinned: ${pinned.algorithm} ${pinned.fingerprint}; offered now: ${got.algorithm} ${got.fingerprint}. Someone may be in the middle, or the machine was reinstalled. I did not send any credential. If the person knows why it changed, they can forget the old key with /machines forget-key ${name}.`,
            { cause: err },
          );
        }
        throw err;
      });
    const hostKey = seen.key;
    if (!hostKey) {
      session.close();
      throw new SshError('host_key', 'the server offered no host key');
    }
    if (!pinned) await this.deps.pins.pin(login.host, login.port, hostKey);
    // the last contact (/machines, the MCP listing) is the day the host-key record was last restated:
    // a connection to a machine memory knows restates it (a page write at most once a day)
    else if (known && turn.project) await this.write(turn, name, [hostKeyFact(hostKey)]).catch(() => null);
    return { session, info: { name, login, hostKey, firstUse: !pinned } };
  }

  /** Looks around once (OS, disks) and writes what was learned, with the login, to the machine page. */
  async record(turn: MachineTurn, c: Connected): Promise<{ page: string | null; learned: string[] }> {
    const bounds = this.bounds(turn.signal);
    const run = (cmd: string) =>
      c.session
        .exec(cmd, { ...bounds, maxBytes: 8000 })
        .then((r) => r.stdout)
        .catch(() => '');
    const learned = learnedFacts({ uname: await run('uname -srm'), osRelease: await run('cat /etc/os-release'), df: await run('df -hP') });
    if (!turn.project) return { page: null, learned };
    const known = await this.recall(turn, c.info.name);
    const facts = [hostKeyFact(c.info.hostKey), ...learned, `Used by ${turn.ownerName}.`];
    if (!known?.logins.some((l) => loginKey(l) === loginKey(c.info.login) && l.handle === c.info.login.handle)) facts.unshift(loginFact(c.info.login));
    // who uses the machine, as a labelled link both ways: on the machine's page and on the person's own page
    const person: GraphEntity = { name: turn.ownerName, category: USERS_CATEGORY, centre: true, create: true, facts: [], ...(DISCORD_ID.test(turn.owner) ? { discordId: turn.owner } : {}) };
    const uses: GraphLink = { from: c.info.name, to: turn.ownerName, label: 'used by', reverseLabel: 'uses', evidence: { kind: 'message', source: turn.source } };
    const report = await this.write(turn, c.info.name, facts, { people: [person], links: [uses] });
    return { page: report, learned };
  }

  /** Deletes a login's vault entry (the asking person's) and marks the page; false when memory has no such login. */
  async revoke(turn: MachineTurn, machine: string): Promise<{ revoked: string[]; deleted: number }> {
    const known = await this.recall(turn, machine);
    if (!known) return { revoked: [], deleted: 0 };
    let deleted = 0;
    const date = this.deps.clock.now().toISOString().slice(0, 10);
    for (const login of known.logins) if (login.handle && (await this.deps.vault.remove(turn.owner, login.handle))) deleted++;
    if (known.logins.length)
      await this.write(
        turn,
        known.name,
        known.logins.map((l) => revokedFact(l, date)),
      );
    return { revoked: known.logins.map(loginKey), deleted };
  }

  /** Unpins the host keys of a machine's logins: the next connection pins what it is offered (after a reinstall). */
  async forgetHostKey(turn: MachineTurn, machine: string): Promise<string[]> {
    const known = await this.recall(turn, machine);
    const targets = [...new Map((known?.logins ?? []).map((l) => [`${l.host}:${l.port}`, l])).values()];
    for (const t of targets) await this.deps.pins.forget(t.host, t.port);
    return targets.map((t) => `${t.host}:${t.port}`);
  }

  /** Whether the asking person's vault holds the handle (a badge; the secret is not read out). */
  async badge(owner: string, handle: string | undefined): Promise<string> {
    if (!handle) return 'no credential';
    const entry = (await this.deps.vault.list(owner)).find((e) => e.handle === handle);
    if (!entry) return 'credential not in your vault';
    return entry.kinds.map((k) => (k === 'privateKey' ? 'key' : k)).join(' + ');
  }

  bounds(signal: AbortSignal | undefined): Bounds {
    return { timeoutMs: this.deps.settings.timeoutMs, signal };
  }

  private async write(turn: MachineTurn, name: string, facts: string[], also: { people: GraphEntity[]; links: GraphLink[] } = { people: [], links: [] }): Promise<string | null> {
    if (!turn.project) return null;
    const said = this.deps.clock.now().toISOString().slice(0, 10);
    const records: GraphFact[] = facts.map((text) => ({ text, said, source: turn.source, via: 'ssh', staleness: 4 }));
    const report = await this.deps.graph.write(turn.project, {
      origin: 'ssh',
      links: also.links,
      entities: [{ name, category: MACHINES_FOLDER, description: `A machine Charlie connects to over SSH.`, staleness: 4, create: true, facts: records }, ...also.people],
    });
    // the machine's page (the write may also have made or linked the person's)
    return [...report.created, ...report.updated].find((p) => p.startsWith(`${MACHINES_FOLDER}/`)) ?? null;
  }

  private async credentialOf(owner: string, handle: string): Promise<Credential> {
    if (!handleName(handle)) throw new MachineError(`${handle} is not a vault handle`);
    const credential = await this.deps.vault.resolve(owner, handle);
    // one person's handle resolves only in their own turn: to anyone else it does not exist
    if (!credential) throw new MachineError(`${handle} is not in the vault of the person asking; they can give the password or key once (it goes into their vault).`);
    return credential;
  }

  /** The handle the vault would have given a secret typed for this login (`ssh/admin@nas` or `ssh/admin@10.0.0.5`), when it holds one. */
  private async defaultHandle(owner: string, login: SshTarget, name: string): Promise<string | undefined> {
    const entries = await this.deps.vault.list(owner);
    const names = [loginName({ user: login.user, host: login.host }), loginName({ user: login.user, host: name.toLowerCase() })];
    return entries.find((e) => names.includes(handleName(e.handle) ?? ''))?.handle;
  }
}
