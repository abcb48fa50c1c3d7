/**
 * Where things live under DATA_DIR, in one place for the app and the scripts (the settings
 * themselves are in src/config.ts).
 */
import { resolve } from 'node:path';

export function dataFiles(dataDir: string) {
  return {
    /** Derived ranking hint; may be set aside when corrupt. */
    usage: resolve(dataDir, 'usage.db'),
    /** DM history and private memory: the only thing under data/ that is not derived. */
    private: resolve(dataDir, 'private.db'),
    log: resolve(dataDir, 'logs', 'charlie.log'),
    /** The web app's owner token (when WEB_TOKEN is empty) and cookie-signing secret. */
    webToken: resolve(dataDir, 'web', 'owner-token'),
    webSecret: resolve(dataDir, 'web', 'session-secret'),
    /** The built web client (rebuilt by `npm start` when its sources are newer). */
    webClient: resolve(dataDir, 'web', 'client'),
    /** What a hosted chat model asked to remember, waiting for the memory lane. */
    writeRequests: resolve(dataDir, 'write-requests'),
    /** MCP servers Charlie may use (Claude Desktop's `mcpServers` format), unless MCP_CONFIG names another file. */
    mcp: resolve(dataDir, 'mcp.json'),
    /** What each MCP server's tools are called and do, learnt when it listed them (derived). */
    mcpTools: resolve(dataDir, 'mcp-tools.json'),
    /** The scheduler's jobs (reminders, follow-ups, calendar polls) and per-person time zones: not derived. */
    schedule: resolve(dataDir, 'schedule.db'),
    /** Secrets given once (SSH keys, passwords), age-encrypted per person, with the vault's key: not derived. */
    vault: resolve(dataDir, 'vault'),
    /** Host keys of the machines Charlie connected to, pinned on first use: not derived. */
    knownHosts: resolve(dataDir, 'known_hosts'),
    /** On a device that syncs: the messages it archived and has not distilled yet (its own distillation cursor): not derived. */
    distillLedger: resolve(dataDir, 'sync', 'distill-pending.json'),
    /** Hashes of hand-written page lines the memory lane judged ordinary (not asked again): derived. */
    handLines: resolve(dataDir, 'hand-lines.json'),
  };
}
