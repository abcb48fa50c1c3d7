/** A second process for one-charlie.test.ts: takes the data folder in argv[2], says so, then waits to be killed (or says why it was refused). */
import { lockDataFolder } from '../../src/app/data-lock.js';

try {
  lockDataFolder(process.argv[2] ?? '');
  process.stdout.write('locked\n');
  setTimeout(() => undefined, 120_000);
} catch (error) {
  process.stdout.write(`refused: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 3;
}
