/**
 * `node bin/tool.mjs NAME [args]`: runs scripts/NAME.ts (a benchmark, tuning or documentation
 * script named so in package.json) from the tools build (bin/build.mjs): the same sources, built
 * the same way as what `npm start` runs, so a benchmark measures the product's code.
 */
import { launch, toolScripts } from './build.mjs';

const name = process.argv[2] ?? '';
const tools = toolScripts();
if (!tools.includes(name)) {
  process.stderr.write(`usage: node bin/tool.mjs ${tools.join('|')} [args]\n`);
  process.exit(2);
}
process.argv.splice(2, 1);
await launch(name, `scripts/${name}.ts`, { set: 'tools' });
