/**
 * Reading and writing the three memory layers of one project folder: the summary (body of
 * project.md), decisions.md and quotes.md. Versions are sha256 hashes; project.md's version
 * covers only its body, because its front matter is re-read and kept as-is on every write.
 */
import type { FileProblem, LayersSnapshot, MemoryLayers, WriteOutcome } from '../../core/ports/index.js';
import { ABSENT, fileVersion, openFile, readTextOrProblem, sha256, writeFileAtomic, type OpenFile } from '../../files/atomic-write.js';
import { parseDecisions, parseQuotes, serializeDecisions, serializeQuotes } from './layers-format.js';
import { parseProjectFile, withSummary, type ProjectDefaults } from './project-file.js';
import { resolveInside } from '../../files/safe-path.js';

export const PROJECT_FILE = 'project.md';
export const DECISIONS_FILE = 'decisions.md';
export const QUOTES_FILE = 'quotes.md';
const MAX_PROBLEMS_PER_FILE = 5;

interface CurrentLayers {
  snapshot: LayersSnapshot;
  texts: Record<string, string | null>;
  /** The project.md split, when its front matter is valid. */
  head: ReturnType<typeof parseProjectFile>['split'];
  invalid: FileProblem[];
}

async function readCurrent(dir: string, slug: string, defaults: ProjectDefaults): Promise<CurrentLayers> {
  const shown = (name: string) => `${slug}/${name}`;
  const problems: FileProblem[] = [];
  const invalid: FileProblem[] = [];
  const unreadable = new Map<string, string>();
  const readLayer = async (f: string): Promise<string | null> => {
    const read = await readTextOrProblem(resolveInside(dir, f), shown(f));
    if (read === null || 'text' in read) return read?.text ?? null;
    // Not UTF-8: reported, versioned by its bytes, and never rewritten.
    problems.push(read.problem);
    invalid.push(read.problem);
    unreadable.set(f, await fileVersion(resolveInside(dir, f)));
    return null;
  };
  const [project, decisions, quotes] = await Promise.all([readLayer(PROJECT_FILE), readLayer(DECISIONS_FILE), readLayer(QUOTES_FILE)]);
  let summary = '';
  let head: CurrentLayers['head'];
  let projectVersion = unreadable.get(PROJECT_FILE) ?? ABSENT;
  if (project === null) {
    if (!unreadable.has(PROJECT_FILE)) invalid.push({ path: shown(PROJECT_FILE), message: 'project.md is missing' });
  } else {
    const parsed = parseProjectFile(project, slug, shown(PROJECT_FILE), defaults);
    summary = parsed.summary;
    head = parsed.split;
    projectVersion = parsed.split ? `body:${sha256(parsed.split.body)}` : sha256(project);
    problems.push(...parsed.problems);
    invalid.push(...parsed.problems);
  }
  const d = decisions === null ? { decisions: [], problems: [] } : parseDecisions(decisions, shown(DECISIONS_FILE));
  const q = quotes === null ? { quotes: [], problems: [] } : parseQuotes(quotes, shown(QUOTES_FILE));
  // A file of 100,000 bad lines is reported by its first few problems (and push(...all) would
  // overflow the stack).
  const listed = [...d.problems.slice(0, MAX_PROBLEMS_PER_FILE), ...q.problems.slice(0, MAX_PROBLEMS_PER_FILE)];
  problems.push(...listed);
  invalid.push(...listed);
  return {
    snapshot: {
      layers: { summary, decisions: d.decisions, quotes: q.quotes },
      versions: {
        [PROJECT_FILE]: projectVersion,
        [DECISIONS_FILE]: unreadable.get(DECISIONS_FILE) ?? (decisions === null ? ABSENT : sha256(decisions)),
        [QUOTES_FILE]: unreadable.get(QUOTES_FILE) ?? (quotes === null ? ABSENT : sha256(quotes)),
      },
      problems,
    },
    texts: { [PROJECT_FILE]: project, [DECISIONS_FILE]: decisions, [QUOTES_FILE]: quotes },
    head,
    invalid,
  };
}

export async function readLayerFiles(dir: string, slug: string, defaults: ProjectDefaults): Promise<LayersSnapshot> {
  return (await readCurrent(dir, slug, defaults)).snapshot;
}

/**
 * Writes the layers only if none of the three files changed since `versions` were read and
 * none of them is broken; otherwise writes nothing. Files whose text would not change are left alone.
 */
export async function writeLayerFiles(
  dir: string,
  slug: string,
  layers: MemoryLayers,
  versions: Record<string, string>,
  defaults: ProjectDefaults,
  openFn: OpenFile = openFile,
): Promise<WriteOutcome> {
  const current = await readCurrent(dir, slug, defaults);
  const changed = Object.keys(current.snapshot.versions).filter((f) => versions[f] !== current.snapshot.versions[f]);
  if (changed.length) {
    return { ok: false, reason: 'conflict', paths: changed.map((f) => `${slug}/${f}`), message: `changed since they were read (by hand?): ${changed.join(', ')} — read the memory again and retry` };
  }
  if (current.invalid.length || !current.head) {
    const paths = [...new Set(current.invalid.map((p) => p.path))];
    const where = current.invalid.map((p) => `${p.path}${p.line ? `:${p.line}` : ''} ${p.message}`).join('; ');
    return { ok: false, reason: 'invalid', paths, message: `not writing memory, a file needs fixing by hand first: ${where}` };
  }
  const next: Record<string, string> = {
    [DECISIONS_FILE]: serializeDecisions(layers.decisions),
    [QUOTES_FILE]: serializeQuotes(layers.quotes),
    [PROJECT_FILE]: withSummary(current.head, layers.summary),
  };
  for (const [file, text] of Object.entries(next)) {
    const old = current.texts[file] ?? null;
    if (old === text) continue;
    const result = await writeFileAtomic(resolveInside(dir, file), text, old === null ? ABSENT : sha256(old), openFn);
    if (!result.ok) return { ok: false, reason: 'conflict', paths: [`${slug}/${file}`], message: `${file} changed while it was being written — read the memory again and retry` };
  }
  return { ok: true };
}
