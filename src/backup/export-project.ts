/**
 * A project as a plain Markdown folder that is also an Obsidian vault: the entity pages of
 * notes/ at the top (so `[[People/Sarah-Chen]]` links resolve from the vault root, as Charlie
 * writes them), the layers (project.md, decisions.md, quotes.md, review.md …) and the archive
 * (log/) beside them, and a `.obsidian/` folder that keeps links in that form. Left out: the
 * inbox's raw sources, kept page versions (.history/) and dot files. DMs are never in a project
 * folder (they live in private.db), so an export can hold none.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listProjects } from '../memory/index/page-files.js';
import { slugify } from '../memory/slug.js';

export class ExportError extends Error {}

export interface ExportReport {
  project: string;
  out: string;
  files: number;
}

/** The project folder for a name: its folder name, its slug, or the `name:` in its project.md. */
async function findProject(projectsDir: string, name: string): Promise<string | null> {
  const all = await listProjects(projectsDir);
  const direct = all.find((p) => p === name) ?? all.find((p) => p === slugify(name));
  if (direct) return direct;
  for (const p of all) {
    const text = await readFile(join(projectsDir, p, 'project.md'), 'utf8').catch(() => '');
    const m = /^name:\s*["']?(.+?)["']?\s*$/m.exec(text);
    if (m?.[1]?.trim().toLowerCase() === name.trim().toLowerCase()) return p;
  }
  return null;
}

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n++;
  return n;
}

export async function exportProject(o: { projectsDir: string; project: string; out: string }): Promise<ExportReport> {
  const slug = await findProject(o.projectsDir, o.project);
  if (!slug) throw new ExportError(`no project "${o.project}" under ${o.projectsDir} (try one of: ${(await listProjects(o.projectsDir)).join(', ') || 'none yet'})`);
  const existing = await readdir(o.out).catch(() => []);
  if (existing.length) throw new ExportError(`${o.out} is not empty: export into a new folder`);
  const root = join(o.projectsDir, slug);
  await mkdir(o.out, { recursive: true });
  for (const e of await readdir(root, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'inbox') continue;
    const from = join(root, e.name);
    if (e.isFile() && e.name.endsWith('.md')) await cp(from, join(o.out, e.name));
    else if (e.isDirectory() && e.name === 'log') await cp(from, join(o.out, 'log'), { recursive: true });
    else if (e.isDirectory() && e.name === 'notes') {
      await cp(from, o.out, {
        recursive: true,
        filter: (src) =>
          !src
            .slice(from.length)
            .split(/[/\\]/)
            .some((part) => part.startsWith('.')),
      });
    }
  }
  // links as Charlie writes them: [[Folder/Page]] from the vault root, wiki style
  await mkdir(join(o.out, '.obsidian'), { recursive: true });
  await writeFile(join(o.out, '.obsidian', 'app.json'), `${JSON.stringify({ newLinkFormat: 'absolute', useMarkdownLinks: false }, null, 2)}\n`);
  return { project: slug, out: o.out, files: await countFiles(o.out) };
}
