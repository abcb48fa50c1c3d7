/** The settings reference (docs/settings.md) is what the config schema and .env.example say, and every setting is in both. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.js';
import { readEnvExample, settingsDoc } from '../../scripts/settings-doc.js';

const root = join(import.meta.dirname, '../..');
const envExample = readFileSync(join(root, '.env.example'), 'utf8');

describe('the settings reference', () => {
  it('names every setting of the schema, and only those', () => {
    const documented = readEnvExample(envExample).flatMap((s) => s.entries.map((e) => e.key));
    expect([...new Set(documented)].sort()).toEqual(Object.keys(configSchema.shape).sort());
  });

  it('docs/settings.md is up to date (run npm run docs:settings)', () => {
    expect(readFileSync(join(root, 'docs', 'settings.md'), 'utf8')).toBe(settingsDoc(envExample));
  });
});
