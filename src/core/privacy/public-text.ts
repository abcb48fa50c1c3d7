/**
 * Text that leaves the process for a model or a front door (tool errors, status lines) never
 * shows absolute host paths: a path inside the project becomes relative to it
 * (`notes/People/Ann.md`), any other path keeps only its file name.
 */
const ABSOLUTE_PATH = /(?<![\w.~/-])(?:[A-Za-z]:[\\/]|\/)(?:[^\s'"`:,;()<>[\]{}\\/]+[\\/])+[^\s'"`:,;()<>[\]{}\\/]*/g;

export function withoutHostPaths(text: string, project?: string): string {
  return text.replace(ABSOLUTE_PATH, (path) => {
    const parts = path.split(/[\\/]/).filter(Boolean);
    const at = project ? parts.lastIndexOf(project) : -1;
    if (at >= 0 && at < parts.length - 1) return parts.slice(at + 1).join('/');
    return parts[parts.length - 1] ?? '';
  });
}
