/**
 * What `npm start` runs: src/cli.ts from the start-up build (bin/build.mjs), rebuilt first when
 * a source changed, or with tsx if the build fails.
 */
import { launch } from './build.mjs';

await launch('cli', 'src/cli.ts');
