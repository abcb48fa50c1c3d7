/**
 * Start-up helpers of the composition root (src/main.ts): the folders Charlie keeps its files
 * in, the owner's name, the download echo of the terminal chat, and the model lines shown at
 * start.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import type { Config } from '../config.js';
import type { AssistantSettings } from '../core/assistant.js';
import type { Clock, Locality, Logger } from '../core/ports/index.js';
import type { PrecheckSettings } from '../core/turn/precheck.js';
import type { BackupScheduleOptions } from '../backup/backup-schedule.js';
import { ConfigError } from '../core/errors.js';
import { conformanceStartLine } from '../doctor/conformance-store.js';
import type { ModelDownloadStep } from '../llm/transformers-runtime.js';
import { errorMessage } from '../util/error-text.js';
import { privateFolder, tightenFolder } from '../storage/private-files.js';

/** Why a folder cannot be used, for a person, from the error's code. */
function folderProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code === 'ENOTDIR') return 'a part of that path is a file';
  if (code === 'EACCES' || code === 'EPERM') return `no permission to write in it (${code})`;
  if (code === 'EROFS') return 'it is on a read-only disk (EROFS)';
  if (code === 'ENOSPC') return 'the disk is full (ENOSPC)';
  return errorMessage(err);
}

/**
 * Creates a folder Charlie keeps its files in and checks that it can write there (a probe file,
 * written and removed), or says which setting names a place it cannot use and why: a read-only
 * disk or a folder without write permission is said so at start, with its path, not found later
 * as a failed write deep in a store. A private one (DATA_DIR) is 0700, with what is already in it
 * tightened to 0700 / 0600.
 */
export function makeFolder(setting: string, path: string, options: { private?: boolean } = {}): void {
  let step = 'created';
  try {
    if (!options.private) mkdirSync(path, { recursive: true });
    else {
      privateFolder(path);
      tightenFolder(path);
    }
    step = 'written to';
    const probe = join(path, `.charlie-write-check-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    throw new ConfigError(`${setting}=${path} cannot be ${step} (${folderProblem(err)}): point ${setting} at a folder Charlie may write to`, { cause: err });
  }
}

/** Login names of system accounts: they name no person (a server run as root showed the owner as "root"). */
const SYSTEM_ACCOUNTS = new Set(['root', 'admin', 'administrator', 'daemon', 'nobody', 'node', 'charlie', 'www-data', 'service']);

/** The owner's name in the terminal chat and the web app: OWNER_NAME, else the login name of a person's account, else "Owner". */
export function ownerName(setting: string | undefined, login: () => string = () => userInfo().username): string {
  if (setting) return setting;
  try {
    const name = login().trim();
    return name && !SYSTEM_ACCOUNTS.has(name.toLowerCase()) ? name : 'Owner';
  } catch {
    return 'Owner';
  }
}

/** In the terminal chat, logs go to a file; model download progress is also shown on screen. */
export function echoDownload(step: ModelDownloadStep): void {
  process.stdout.write(`  ${step.label}: ${step.file} ${step.percent}%\n`);
}

/**
 * What the last `npm run doctor` found about the server models, so a degraded one is visible at
 * once: the chat model (unless it is the embedded one) and a memory lane of its own.
 */
export function modelStartLines(config: Config, serverChat: boolean): string[] {
  const lines = serverChat ? [conformanceStartLine(config.dataDir, config.LLM_MODEL, config.LLM_BASE_URL)] : [];
  const memory = config.memoryLane;
  if (memory && (serverChat || memory.from === 'memory') && (memory.baseUrl !== config.LLM_BASE_URL || memory.model !== config.LLM_MODEL)) {
    lines.push(`memory lane: ${conformanceStartLine(config.dataDir, memory.model, memory.baseUrl)}`);
  }
  return lines;
}

/** The assistant's settings, from the configuration. */
export function assistantSettings(config: Config, maxMessageChars: number): AssistantSettings {
  return {
    assistantName: config.ASSISTANT_NAME,
    limits: { maxSteps: config.TURN_MAX_STEPS, maxToolCalls: config.TURN_MAX_TOOL_CALLS, deadlineMs: config.TURN_DEADLINE_MS, maxReplyChars: config.REPLY_MAX_CHARS },
    historyMessages: config.HISTORY_MESSAGES,
    distillEvery: config.DISTILL_EVERY,
    temperature: config.LLM_TEMPERATURE,
    maxMessageChars,
    distillBatchChars: config.DISTILL_BATCH_CHARS,
    distillDeadlineMs: config.DISTILL_DEADLINE_MS,
  };
}

/**
 * The privacy precheck's settings (PRIVACY_PRECHECK*): besides the chat model (which the core reads
 * live), the destinations that get a message's words before distillation are the embedder and the
 * tool servers of data/mcp.json (read at each turn: a server can be added while Charlie runs).
 */
export function precheckSettings(config: Config, embedder: { locality: Locality }, toolServers: () => readonly { locality: Locality }[]): PrecheckSettings {
  return {
    mode: config.PRIVACY_PRECHECK,
    timeoutMs: config.PRIVACY_PRECHECK_TIMEOUT_MS,
    contextMessages: config.PRIVACY_PRECHECK_CONTEXT,
    hostedElsewhere: () => embedder.locality === 'hosted' || toolServers().some((s) => s.locality === 'hosted'),
  };
}

/** The scheduled backup's settings (BACKUP_*), from the configuration. */
export function backupSettings(config: Config, clock: Clock, logger: Logger): BackupScheduleOptions & { tz: string } {
  return {
    everyHours: config.BACKUP_EVERY_HOURS,
    keep: config.BACKUP_KEEP,
    dir: resolve(config.BACKUP_DIR),
    projectsDir: config.projectsDir,
    dataDir: config.dataDir,
    ...(config.BACKUP_AGE_RECIPIENT ? { recipient: config.BACKUP_AGE_RECIPIENT } : {}),
    clock,
    logger,
    tz: config.TZ,
  };
}
