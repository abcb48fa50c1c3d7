/**
 * Charlie's version: the `version` in package.json. Imported rather than read by path, so the
 * start-up build (bin/build.mjs) carries it wherever its output lives.
 */
import manifest from '../package.json' with { type: 'json' };

export function charlieVersion(): string {
  const version: unknown = manifest.version;
  return typeof version === 'string' ? version : 'unknown';
}
