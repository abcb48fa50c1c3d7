/**
 * The settings the owner changed in the web app (Settings › Change), kept in
 * `DATA_DIR/settings.json` (0600). They override `.env` and the environment when Charlie starts
 * (src/config.ts applies them), so a change made without a restart is still there after one; the
 * doctor and Settings name each one as "set in the web app". The file never holds a secret: an
 * API key is kept in the vault and the file names only its handle.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './core/errors.js';
import { writeFileAtomicSync } from './files/atomic-write.js';
import { PRIVATE_FILE_MODE } from './storage/private-files.js';

/** The settings the web app may change, and only those. */
export const LIVE_KEYS = ['LLM_BASE_URL', 'LLM_MODEL', 'LLM_LOCALITY', 'TTS', 'TTS_VOICE', 'TTS_LOCAL_VOICE'] as const;
export type LiveKey = (typeof LIVE_KEYS)[number];

const fileSchema = z.object({
  schema: z.literal(1),
  settings: z.partialRecord(z.enum(LIVE_KEYS), z.string()),
  /** `vault:settings/llm-api-key` when an API key for LLM_BASE_URL was given in the web app. */
  apiKey: z.string().startsWith('vault:').optional(),
  updated: z.string(),
});
export type SettingsFile = z.infer<typeof fileSchema>;

export const settingsFilePath = (dataDir: string) => join(dataDir, 'settings.json');

/** The file, or null when there is none; a damaged one is an error that names it. */
export function readSettingsFile(dataDir: string): SettingsFile | null {
  const path = settingsFilePath(dataDir);
  if (!existsSync(path)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    raw = null;
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`${path} is damaged (not the settings Charlie wrote): delete it to go back to .env`);
  return parsed.data;
}

export function writeSettingsFile(dataDir: string, file: SettingsFile): void {
  writeFileAtomicSync(settingsFilePath(dataDir), `${JSON.stringify(file, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
}

/** `merged` (the environment over .env) with the file's settings on top; which keys it set. */
export function applySettingsFile(merged: Record<string, string | undefined>, dataDir: string): LiveKey[] {
  const file = readSettingsFile(dataDir);
  if (!file) return [];
  const set: LiveKey[] = [];
  for (const key of LIVE_KEYS) {
    const value = file.settings[key];
    if (value === undefined) continue;
    merged[key] = value;
    set.push(key);
  }
  // a key in .env was for the server .env names: it is not sent to one chosen in the web app (whose key is in the vault)
  if (set.includes('LLM_BASE_URL')) delete merged.LLM_API_KEY;
  return set;
}
