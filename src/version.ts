/** Charlie's version: the `version` in package.json, read when asked (no build step stamps it). */
import { readFileSync } from 'node:fs';

export function charlieVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
}
