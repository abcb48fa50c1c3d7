/** A child process that runs one sync of the device whose settings are in its environment (the kill -9 test). */
import { loadConfig } from '../../src/config.js';
import { createSync } from '../../src/sync/create.js';

const sync = createSync(loadConfig());
process.stdout.write('start\n');
await sync.syncNow();
process.stdout.write('done\n');
