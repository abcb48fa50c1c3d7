import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const FORBIDDEN =
  /from ['"](discord\.js|@discordjs\/[\w-]+|@lancedb\/lancedb|better-sqlite3|node:sqlite|(node:)?fs(\/promises)?|(node:)?(net|http|https|child_process)|ws|pino|chokidar|@huggingface\/transformers|edge-tts-universal|prism-media|opusscript)['"]/;

/** Relative imports of a file, resolved to paths from the repository root. */
function relativeImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => relative('.', resolve(dirname(file), m[1]!)));
}

/** The front doors: each talks to the core (and its own adapters), never to another front door. */
const FRONT_DOORS = ['src/discord', 'src/terminal', 'src/voice', 'src/web'];
/** The model client's public entry; everything else under src/llm is its internals. */
const LLM_ENTRY = 'src/llm/index.js';

describe('architecture', () => {
  it('front doors import neither each other nor the model client internals', () => {
    const offenders = FRONT_DOORS.filter((d) => existsSync(d)).flatMap((door) =>
      files(door).flatMap((f) =>
        relativeImports(f)
          .filter((target) => {
            const otherDoor = FRONT_DOORS.some((d) => d !== door && target.startsWith(`${d}/`));
            const llmInternal = target.startsWith('src/llm/') && target !== LLM_ENTRY;
            return otherDoor || llmInternal;
          })
          .map((target) => `${f} imports ${target}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('the front-door rule catches a cross import (self-check of the scanner)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'charlie-arch-'));
    try {
      const file = join(dir, 'x.ts');
      writeFileSync(file, "import { a } from '../voice/session.js';\nimport type { B } from './b.js';\nconst c = await import('../llm/openai-chat.js');\n");
      expect(relativeImports(file).map((p) => p.split('/').slice(-2).join('/'))).toEqual(['voice/session.js', `${dir.split('/').at(-1)}/b.js`, 'llm/openai-chat.js']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

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
