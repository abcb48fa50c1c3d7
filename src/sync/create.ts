/**
 * The sync engine built from the settings (SYNC_*), this device's distillation cursor, and what follows a sync that brought files:
 * the changed pages re-indexed and their generated files rebuilt through the normal path (the
 * graph's reconcile, the search index's `changed`), as the watcher does for a hand edit.
 */
import { type Config } from '../config.js';
import { dataFiles } from '../data-files.js';
import { GENERATED_FILES } from '../memory/graph/generated.js';
import { syncGrammar } from '../memory/graph/sync-grammar.js';
import { GitSync } from './git-sync.js';
import { FileDistillLedger } from './distill-ledger.js';

export function createSync(config: Config, now: () => Date = () => new Date()): GitSync {
  return new GitSync({
    projectsDir: config.projectsDir,
    dataDir: config.dataDir,
    device: config.SYNC_DEVICE,
    ...(config.SYNC_REMOTE ? { remote: config.SYNC_REMOTE } : {}),
    ...(config.SYNC_ENCRYPT_TO ? { encryptTo: config.SYNC_ENCRYPT_TO } : {}),
    ...(config.SYNC_SSH_COMMAND ? { sshCommand: config.SYNC_SSH_COMMAND } : {}),
    background: config.SYNC_BACKGROUND,
    timeoutMs: config.SYNC_TIMEOUT_MS,
    grammar: syncGrammar,
    generated: GENERATED_FILES,
    now,
  });
}

/** This device's own distillation cursor (the messages it archived and has not distilled), for a device that syncs. */
export function createDistillLedger(config: Config): FileDistillLedger {
  return new FileDistillLedger(dataFiles(config.dataDir).distillLedger);
}

export interface Reindexer {
  reconcile(project: string, changed?: readonly string[]): Promise<void>;
  changed(project: string, paths: readonly string[]): Promise<unknown>;
}

/** Re-indexes the files a sync changed (paths relative to the projects folder), project by project. */
export async function reindexChanged(changed: readonly string[], r: Reindexer): Promise<string[]> {
  const byProject = new Map<string, string[]>();
  for (const path of changed) {
    const [project, ...rest] = path.split('/');
    if (!project || !rest.length) continue;
    byProject.set(project, [...(byProject.get(project) ?? []), rest.join('/')]);
  }
  for (const [project, paths] of byProject) {
    const notes = paths.filter((p) => p.startsWith('notes/')).map((p) => p.slice('notes/'.length));
    await r.reconcile(project, notes);
    await r.changed(project, paths);
  }
  return [...byProject.keys()];
}
