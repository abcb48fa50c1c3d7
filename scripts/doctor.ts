/**
 * `npm run doctor [-- --json]`: is this setup going to work? Checks every part the
 * configuration uses, live, and prints one line per check with the fix for each warn and fail.
 * Exit code 1 when any check fails.
 */
import { parseArgs } from 'node:util';
import { loadCommands } from '../commands/index.js';
import { loadConfig } from '../src/config.js';
import { runParts } from '../src/doctor/check.js';
import type { ConfigOutcome } from '../src/doctor/config-check.js';
import { doctorParts } from '../src/doctor/parts.js';
import { exitCode, formatLine, formatSummary, toJson } from '../src/doctor/report.js';
import { charlieVersion } from '../src/version.js';
import { errorWithCause } from '../src/util/error-text.js';

const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
const started = performance.now();
const cwd = process.cwd();

let outcome: ConfigOutcome;
try {
  outcome = { ok: true, config: loadConfig() };
} catch (err) {
  outcome = { ok: false, message: errorWithCause(err) };
}

if (!values.json) process.stdout.write(`Charlie ${charlieVersion()} doctor — checking every part this configuration uses…\n\n`);
let part = '';
const results = await runParts(doctorParts(outcome, { cwd, loadCommands }), (r) => {
  if (values.json) return;
  if (r.part !== part) process.stdout.write(`${part === '' ? '' : '\n'}[${r.part}]\n`);
  part = r.part;
  process.stdout.write(`${formatLine(r)}\n`);
});
const ms = Math.round(performance.now() - started);
process.stdout.write(values.json ? `${toJson(results, ms, charlieVersion())}\n` : `\n${formatSummary(results, ms)}\n`);
// Some probes (Edge TTS offline) leave sockets that never settle: end explicitly.
process.exit(exitCode(results));
