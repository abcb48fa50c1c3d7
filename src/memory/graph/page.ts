/**
 * A page of the knowledge graph as read from disk: front matter (schema 1 or 2), a short
 * description, facts (`## Facts`) and labelled links (`## Related`). Reading is fast (a plain
 * front matter subset is read without the full YAML parser) because the page map and
 * `memory check` read every page of a project.
 */
import type { FileProblem } from '../../core/ports/index.js';
import { NOTE_DEFAULTS, noteSchema, pageSensitivity } from '../markdown/note-format.js';
import type { SensitiveKind, Sensitivity } from '../../core/privacy/sensitivity.js';
import { parseFrontMatter, splitFrontMatter } from '../markdown/front-matter.js';
import { parseFactLine, parseLinkLine, type FactLine, type LinkLine } from '../markdown/lines.js';
import { parseSimpleYaml } from '../markdown/simple-yaml.js';
import { titleFromPath } from '../../util/one-line.js';

export interface WikiPage {
  /** Relative to notes/, with `.md`. */
  path: string;
  title: string;
  aliases: string[];
  tags: string[];
  /** The folder (or the front matter's category). */
  category: string;
  created: string;
  updated: string;
  staleness: number;
  sensitivity: Sensitivity;
  /** With `sensitive`: what makes it so (the default of the page's records). */
  sensitiveKind?: SensitiveKind;
  discordId?: string;
  /** A centre page's web identity (`web_user`): the name its person signs in to the web app with. */
  webUser?: string;
  description: string;
  facts: FactLine[];
  links: LinkLine[];
  /** Fact-section list items without a `[source:: …]` field. */
  unsourced: FactLine[];
  /** Lines of aliases in the front matter, for problems (1 when unknown). */
  aliasLine: number;
}

export type PageRead = { ok: true; page: WikiPage } | { ok: false; problem: FileProblem };

export function folderOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

type FrontMatterData = ReturnType<typeof noteSchema.parse>;

function frontMatter(content: string, shown: string): { ok: true; data: FrontMatterData; bodyLine: number } | { ok: false; problem: FileProblem } {
  const split = splitFrontMatter(content);
  if (split === null) return { ok: true, data: noteSchema.parse({}), bodyLine: 1 };
  if (split !== 'unterminated') {
    const simple = parseSimpleYaml(split.yaml);
    if (simple) {
      const data = noteSchema.safeParse(simple);
      if (data.success) return { ok: true, data: data.data, bodyLine: split.bodyLine };
    }
  }
  const full = parseFrontMatter(content, noteSchema, shown);
  if (full.kind === 'invalid') return { ok: false, problem: full.problem };
  if (full.kind === 'none') return { ok: true, data: noteSchema.parse({}), bodyLine: 1 };
  return { ok: true, data: full.data, bodyLine: full.split.bodyLine };
}

/** `path` relative to notes/; `shown` is the path problems report. */
export function readPage(content: string, path: string, shown: string): PageRead {
  const fm = frontMatter(content, shown);
  if (!fm.ok) return fm;
  const d = fm.data;
  const lines = content.split(/\r?\n/);
  const facts: FactLine[] = [];
  const unsourced: FactLine[] = [];
  const links: LinkLine[] = [];
  const description: string[] = [];
  let section = '';
  let descriptionDone = false;
  let inFence = false;
  for (let i = fm.bodyLine - 1; i < lines.length; i++) {
    const raw = lines[i]!;
    if (/^\s*(```|~~~)/.test(raw)) inFence = !inFence;
    if (inFence) continue;
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(raw);
    if (h) {
      if (h[1]!.length <= 2) section = h[2]!.trim().toLowerCase();
      if (description.length) descriptionDone = true;
      continue;
    }
    if (section === 'facts') {
      const fact = parseFactLine(raw, i + 1);
      if (fact) (fact.fields.some((f) => f.key === 'source') ? facts : unsourced).push(fact);
    } else if (section === 'related') {
      const link = parseLinkLine(raw, i + 1);
      if (link) links.push(link);
    } else if (!descriptionDone) {
      const text = raw.trim();
      if (!text) {
        if (description.length) descriptionDone = true;
      } else if (!/^([-*+>|]|\d+\.|<!--)/.test(text)) description.push(text);
    }
  }
  const aliasIndex = lines.findIndex((l, i) => i < fm.bodyLine && /^aliases\s*:/.test(l));
  const category = d.category ?? folderOf(path);
  const sensitivity = pageSensitivity(d);
  return {
    ok: true,
    page: {
      path,
      title: d.title ?? titleFromPath(path),
      aliases: d.aliases,
      tags: d.tags,
      category,
      created: d.created ?? '',
      updated: d.updated ?? '',
      staleness: d.staleness ?? NOTE_DEFAULTS.staleness,
      sensitivity: sensitivity.sensitivity,
      ...(sensitivity.kind ? { sensitiveKind: sensitivity.kind } : {}),
      ...(d.discord_id ? { discordId: d.discord_id } : {}),
      ...(d.web_user ? { webUser: d.web_user } : {}),
      description: description.join(' ').slice(0, 300),
      facts,
      links,
      unsourced,
      aliasLine: aliasIndex >= 0 ? aliasIndex + 1 : 1,
    },
  };
}
