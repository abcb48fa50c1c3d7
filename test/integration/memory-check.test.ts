import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemoryCheck } from '../../src/memory/graph/check-run.js';

let root: string;
const file = async (rel: string, text: string) => {
  await mkdir(join(root, rel, '..'), { recursive: true });
  await writeFile(join(root, rel), text);
};
async function check(extra: { project?: string; fix?: boolean } = {}) {
  const lines: string[] = [];
  const code = await runMemoryCheck({ projectsDir: root, ...extra, write: (l) => lines.push(l) });
  return { code, lines };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'charlie-check-'));
  await file(
    'home/notes/People/Sarah-Chen.md',
    '---\ntitle: Sarah Chen\naliases: [Sarah]\n---\n\nDesigner.\n\n## Facts\n- Leads design. [said:: 2026-06-20] [source:: [msg](https://x/1)] ^r-1\n\n## Related\n- [[Work/Acme]] (employer)\n',
  );
  await file('home/notes/Work/Acme.md', '---\ntitle: Acme\n---\n\n## Related\n- [[People/Sarah-Chen]] (employee)\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('npm run memory -- check', () => {
  it('exits 0 on a clean wiki', async () => {
    expect(await check()).toEqual({ code: 0, lines: ['no problems in 2 page(s) of 1 project(s)'] });
  });

  it('names every problem as path:line and exits non-zero', async () => {
    await file('home/notes/People/Sam.md', '---\ntitle: Sam\naliases: [Sarah]\n---\n\n## Facts\n- Likes tea.\n\n## Related\n- [[Work/Acme]] (client)\n- [[Places/Atlantis]] (home)\n');
    await file('home/notes/Broken.md', '---\ntitle: [oops\n---\n');
    const { code, lines } = await check({ project: 'home' });
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(/^home\/notes\/Broken\.md:\d: front matter is not valid YAML/),
      'home/notes/People/Sam.md:3: name "Sarah" is shared with People/Sarah-Chen.md',
      'home/notes/People/Sam.md:7: fact without a source ([source:: …])',
      'home/notes/People/Sam.md:10: one-way link: [[Work/Acme]] has no link back to this page',
      'home/notes/People/Sam.md:11: link to a missing page [[Places/Atlantis]]',
      'home/notes/People/Sarah-Chen.md:3: name "Sarah" is shared with People/Sam.md',
      '6 problem(s) in 3 page(s)',
    ]);
  });

  it('--fix removes links to missing pages and leaves the rest to a person', async () => {
    await file('home/notes/Work/Acme.md', '---\ntitle: Acme\n---\n\n## Related\n- [[People/Sarah-Chen]] (employee)\n- [[Gone]] (old)\n- [[People/Nobody]] (x)\n');
    const { code, lines } = await check({ fix: true });
    expect(code).toBe(0);
    expect(lines[0]).toBe('home: removed 2 link(s) to missing pages');
    expect(await readFile(join(root, 'home/notes/Work/Acme.md'), 'utf8')).toBe('---\ntitle: Acme\n---\n\n## Related\n- [[People/Sarah-Chen]] (employee)\n');
  });

  it('says so when the project does not exist', async () => {
    expect((await check({ project: 'nope' })).code).toBe(2);
  });
});
