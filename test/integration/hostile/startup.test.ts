/**
 * Start-up as a person sees it (issue 13, item 4), running the real app in a child process:
 * a corrupt private.db no longer stops Charlie with a stack trace, and any start-up failure is
 * printed once, without a second crash ("sonic boom is not ready yet") hiding it.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runApp } from '../../support/run-app.js';
import { tempDirs } from '../../support/temp-dir.js';

const temp = tempDirs('charlie-startup-');

describe('terminal start-up', () => {
  it('with a corrupt private.db header, the chat opens, names the file and how to recover, and project memory works', async () => {
    const dir = temp();
    mkdirSync(join(dir, 'data'));
    const db = join(dir, 'data/private.db');
    writeFileSync(db, Buffer.alloc(8192, 7));
    const run = await runApp({ DATA_DIR: join(dir, 'data'), PROJECTS_DIR: join(dir, 'projects') }, '/project style terse\n/memory show\n/quit\n');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(db);
    expect(run.stdout).toMatch(/projects keep working/);
    expect(run.stdout).toMatch(/style set: terse/);
  }, 90_000);

  it('a start-up failure is printed once, with no second crash hiding it', async () => {
    const dir = temp();
    writeFileSync(join(dir, 'not-a-folder'), 'x');
    const run = await runApp({ DATA_DIR: join(dir, 'data'), PROJECTS_DIR: join(dir, 'not-a-folder/projects') }, '/quit\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^charlie: /);
    expect(run.stderr).not.toMatch(/sonic boom/i);
    expect(run.stderr.match(/charlie: /g)).toHaveLength(1);
  }, 90_000);
});
