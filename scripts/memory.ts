/**
 * Memory maintenance from the command line:
 *   npm run memory -- check [--project NAME] [--fix]     lint the wiki (exit 1 on problems)
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { runMemoryCheck } from '../src/memory/graph/check-run.js';

const { values, positionals } = parseArgs({
  options: { project: { type: 'string', short: 'p' }, fix: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const config = loadConfig();
const command = positionals[0] ?? 'check';
if (command === 'check') {
  process.exitCode = await runMemoryCheck({ projectsDir: config.projectsDir, ...(values.project ? { project: values.project } : {}), fix: values.fix, write: (l) => process.stdout.write(`${l}\n`) });
} else {
  process.stderr.write(`unknown command "${command}"; try: npm run memory -- check [--project NAME] [--fix]\n`);
  process.exitCode = 2;
}
