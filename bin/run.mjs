/**
 * `node bin/run.mjs NAME [args]`: runs scripts/NAME.ts (one of the build's SCRIPTS) from the
 * start-up build (bin/build.mjs), with its own arguments in process.argv as if run directly.
 */
import { launch, SCRIPTS } from './build.mjs';

const name = process.argv[2] ?? '';
if (!SCRIPTS.includes(name)) {
  process.stderr.write(`usage: node bin/run.mjs ${SCRIPTS.join('|')} [args]\n`);
  process.exit(2);
}
process.argv.splice(2, 1);
await launch(name, `scripts/${name}.ts`);
