import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runParts } from '../../src/doctor/check.js';
import { storagePart } from '../../src/doctor/storage-checks.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function storage(withFixture: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-doctor-storage-'));
  dirs.push(dir);
  if (withFixture) cpSync('test/fixtures/projects/auth-rewrite', join(dir, 'projects', 'auth-rewrite'), { recursive: true });
  const results = await runParts([storagePart(loadConfig({ PROJECTS_DIR: join(dir, 'projects'), DATA_DIR: join(dir, 'data') }, dir))]);
  return (name: string) => results.find((r) => r.name === `storage: ${name}`);
}

describe('doctor: storage', () => {
  it('an empty setup: folders writable, no memory problems, index in sync', async () => {
    const by = await storage(false);
    expect(by('projects/')?.status).toBe('ok');
    expect(by('data/')?.status).toBe('ok');
    expect(by('memory check')).toMatchObject({ status: 'ok', detail: 'no problems in 0 page(s) of 0 project(s)' });
    expect(by('search index')).toMatchObject({ status: 'ok', detail: '0 project(s), 0 page(s); the index is in sync' });
  });

  it('a project with a broken page and no index yet: memory check and index warnings, with the commands to run', async () => {
    const by = await storage(true);
    expect(by('memory check')?.status).toBe('warn');
    expect(by('memory check')?.detail).toMatch(/problem\(s\) in \d+ page\(s\); first: auth-rewrite\/notes\//);
    expect(by('memory check')?.fix).toContain('npm run memory -- check');
    expect(by('search index')).toMatchObject({ status: 'warn' });
    expect(by('search index')?.detail).toContain('not indexed yet: auth-rewrite');
    expect(by('search index')?.fix).toContain('npm run reindex');
  });
});
