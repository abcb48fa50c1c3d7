/**
 * What syncs, as git reads it: the exclude file of the sync repository (`info/exclude`, in the
 * data folder, so nothing is added to projects/). Markdown syncs; the generated files (the one
 * writer's GENERATED_FILES), the inbox and reflection's kept versions never do — the same rule as
 * the core's `syncs` (src/core/sync/merge-file.ts), which the integration test holds them to.
 */
import { LOCAL_FOLDERS } from '../core/sync/merge-file.js';

export function excludeFile(generated: readonly string[]): string {
  return ['# written by Charlie (npm run sync -- setup): only Markdown memory syncs', '*', '!*/', '!*.md', ...LOCAL_FOLDERS.map((f) => `${f}/`), ...generated.map((f) => `/*/${f}`), '*.tmp', ''].join(
    '\n',
  );
}
