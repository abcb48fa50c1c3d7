/**
 * What `npm start` runs. `--version` is answered here, before the composition root and its
 * adapters (discord.js, LanceDB, transformers.js) are even loaded, so it is instant and starts
 * nothing; everything else goes to src/main.ts.
 */
import { charlieVersion } from './version.js';

const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`charlie ${charlieVersion()}\n`);
} else {
  const { runMain } = await import('./main.js');
  runMain();
}
