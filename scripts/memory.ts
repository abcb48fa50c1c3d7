/**
 * Memory maintenance from the command line:
 *   npm run memory -- check [--project NAME] [--fix]              lint the wiki (exit 1 on problems)
 *   npm run memory -- restore --project NAME [PAGE [VERSION]]     list kept page versions, or restore one
 *                                                                 (the newest when VERSION is left out)
 *   npm run memory -- export --project NAME [--out DIR]           the project as a Markdown folder / Obsidian vault
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exportProject } from '../src/backup/export-project.js';
import { loadConfig } from '../src/config.js';
import { silentLogger, systemClock } from '../src/core/ports/index.js';
import { runMemoryCheck } from '../src/memory/graph/check-run.js';
import { Wiki } from '../src/memory/graph/wiki.js';
import { FileReflectionPages } from '../src/memory/reflect/reflection-pages.js';
import { errorMessage } from '../src/util/error-text.js';

const { values, positionals } = parseArgs({
  options: { project: { type: 'string', short: 'p' }, fix: { type: 'boolean', default: false }, out: { type: 'string', short: 'o' } },
  allowPositionals: true,
});
const config = loadConfig();
const command = positionals[0] ?? 'check';
const out = (l: string) => process.stdout.write(`${l}\n`);
if (command === 'check') {
  process.exitCode = await runMemoryCheck({ projectsDir: config.projectsDir, ...(values.project ? { project: values.project } : {}), fix: values.fix, write: out });
} else if (command === 'restore') {
  const project = values.project;
  const [, page, version] = positionals;
  if (!project) {
    process.stderr.write('usage: npm run memory -- restore --project NAME [PAGE [VERSION]]\n');
    process.exitCode = 2;
  } else {
    const wiki = new Wiki({ projectsDir: config.projectsDir, clock: systemClock, logger: silentLogger });
    const pages = new FileReflectionPages({ projectsDir: config.projectsDir, dataDir: config.dataDir, pages: wiki, clock: systemClock, logger: silentLogger });
    if (!page) {
      const versions = await pages.versions(project);
      out(versions.length ? versions.map((v) => `${v.page.replace(/\.md$/, '')}  ${v.version}  ${v.file}`).join('\n') : 'no earlier page versions are kept');
    } else {
      const result = await pages.restore(project, page, version);
      out(result.ok ? `restored ${result.page} to its version of ${result.version}` : `not restored: ${result.reason}`);
      if (!result.ok) process.exitCode = 1;
    }
  }
} else if (command === 'export') {
  if (!values.project) {
    process.stderr.write('usage: npm run memory -- export --project NAME [--out DIR]\n');
    process.exitCode = 2;
  } else {
    const target = resolve(values.out ?? `export-${values.project.replace(/[^\w.-]+/g, '_')}`);
    try {
      const r = await exportProject({ projectsDir: config.projectsDir, project: values.project, out: target });
      out(`exported ${r.project}: ${String(r.files)} files into ${r.out} (open it as an Obsidian vault, or read it as plain Markdown)`);
    } catch (err) {
      process.stderr.write(`not exported: ${errorMessage(err)}\n`);
      process.exitCode = 1;
    }
  }
} else {
  process.stderr.write(`unknown command "${command}"; try: npm run memory -- check [--project NAME] [--fix], restore --project NAME [PAGE [VERSION]], or export --project NAME [--out DIR]\n`);
  process.exitCode = 2;
}
