import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const FORBIDDEN = /from ['"](discord\.js|@discordjs\/[\w-]+|@lancedb\/lancedb|better-sqlite3|node:sqlite|(node:)?fs(\/promises)?|(node:)?(net|http|https|child_process)|ws|pino|chokidar|@huggingface\/transformers|edge-tts-universal|prism-media|opusscript)['"]/;

describe('architecture', () => {
  it('src/core imports no transport and no infrastructure', () => {
    const offenders = files('src/core').flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((line) => {
          if (FORBIDDEN.test(line)) return true;
          const rel = /from ['"](\.{1,2}\/[^'"]+)['"]/.exec(line);
          return rel !== null && !resolve(dirname(f), rel[1]!).startsWith(resolve('src/core'));
        })
        .map((line) => `${f}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('only src/config.ts reads process.env', () => {
    const offenders = files('src').filter((f) => f !== join('src', 'config.ts') && /process\.env\b/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
