/**
 * The doctor's checks as the Settings page's "Run checks" runs them: every part this configuration
 * uses (src/doctor/parts.ts), live, in this process. The doctor (and the slash commands it checks)
 * is loaded only when the owner first asks. Results carry no secret: the doctor shows server
 * addresses without credentials (core/privacy/public-url.ts).
 */
import type { Config } from '../config.js';
import type { CheckLine } from './web-deps.js';

export function webChecks(config: Config, cwd = process.cwd()): () => Promise<CheckLine[]> {
  return async () => {
    const [{ runParts }, { doctorParts }, { loadCommands }] = await Promise.all([import('../doctor/check.js'), import('../doctor/parts.js'), import('../../commands/index.js')]);
    return runParts(doctorParts({ ok: true, config }, { cwd, loadCommands }));
  };
}
