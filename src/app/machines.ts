/**
 * Machines over SSH, as the composition root builds them: the vault (data/vault), the host-key
 * pins (data/known_hosts), the ssh2 connector and the desk the tools use, and the book `/machines`
 * reads (only main.ts imports this).
 */
import { type Config } from '../config.js';
import { dataFiles } from '../data-files.js';
import type { Place } from '../core/place.js';
import { MachineDesk } from '../core/machines/desk.js';
import { MachineBook } from '../core/machines/machine-book.js';
import type { Clock, KnowledgeGraph, ProjectStore } from '../core/ports/index.js';
import type { SshConnector } from '../core/ports/machines.js';
import { AgeVault } from '../machines/age-vault.js';
import { KnownHostsFile } from '../machines/known-hosts.js';

/** ssh2 loads at the first connection, not at start-up (start what is used, docs/performance.md). */
const ssh2OnFirstUse: SshConnector = {
  connect: async (request) => new (await import('../machines/ssh2-connector.js')).Ssh2Connector().connect(request),
};

/** The vault (always: secrets typed about a machine are kept even when SSH is off) and the desk (SSH_ENABLED). */
export function buildMachines(config: Config, graph: Pick<KnowledgeGraph, 'write'>, clock: Clock): { vault: AgeVault; desk: MachineDesk | undefined } {
  const files = dataFiles(config.dataDir);
  const vault = new AgeVault(files.vault, () => clock.now());
  const desk = config.SSH_ENABLED
    ? new MachineDesk({
        connector: ssh2OnFirstUse,
        pins: new KnownHostsFile(files.knownHosts, () => clock.now()),
        vault,
        graph,
        clock,
        settings: { timeoutMs: config.SSH_TIMEOUT_MS, maxOutputBytes: config.SSH_MAX_OUTPUT_BYTES },
      })
    : undefined;
  return { vault, desk };
}

/** `/machines` over the project's pages; forgetting a machine tombstones its page as /memory forget does. */
export function buildMachineBook(desk: MachineDesk, store: ProjectStore, forgetNote: (place: Place, path: string, by: string) => Promise<boolean>): MachineBook {
  return new MachineBook({
    desk,
    notesOf: async (place) => {
      if (place.kind !== 'project') return null;
      const { slug } = await store.ensureProject(place.origin);
      return { project: slug, notes: { list: () => store.listNotes(slug), read: (path) => store.readNote(slug, path) } };
    },
    forgetPage: forgetNote,
  });
}
