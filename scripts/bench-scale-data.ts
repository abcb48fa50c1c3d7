/**
 * A realistic household memory for `npm run bench:scale`: one large project (entity pages with
 * typed records, commitments past due, pairs in review and `## Related` links; a year of daily
 * archives) beside smaller projects, written deterministically into a temp folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { formatLogEntry, logFileHeading } from '../src/memory/archive-format.js';
import { blockIdFor } from '../src/core/records/block-id.js';
import { mulberry32 } from './bench-util.js';

export const MAIN = { name: 'Household', key: 'bench:household', slug: 'household' };
export const SPEAKER = 'Sam Rivera';

const CATEGORIES = ['People', 'Places', 'Topics', 'Things', 'Events'];
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vel', 'dor', 'pi', 'nex', 'ar', 'qui', 'ban', 'zo', 'li', 'mor', 'ta', 'gen', 'bel', 'fio'];
const WORDS = ['boiler', 'school', 'dentist', 'garden', 'invoice', 'birthday', 'flight', 'car', 'insurance', 'recipe', 'holiday', 'piano', 'football', 'bins', 'roof'];

export interface Household {
  /** Titles of the main project's pages (messages name some of them). */
  titles: string[];
  /** The main project's archive: days written. */
  days: number;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function projectMd(name: string, key: string, cursor: { file: string; offset: number } | null): string {
  const c = cursor ? `distill_cursor:\n  file: ${cursor.file}\n  offset: ${cursor.offset}\n` : '';
  return `---\nschema: 1\nid: ${key}\nname: ${name}\nkeys:\n  - ${key}\nstyle: ""\ndistill_every: 1000\narchive: true\nrespond: always\ncreated: 2025-11-01T10:00:00.000Z\nupdated: 2026-11-01T10:00:00.000Z\n${c}---\n\nThe ${name} household keeps its plans here.\n`;
}

/** Writes one project; `pages` entity pages and `days` daily archives ending `end`. */
function writeProject(dir: string, name: string, key: string, pages: number, days: number, end: Date, seed: number): Household {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const word = () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(SYLLABLES)).join('');
  const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const titles: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < pages; i++) {
    const title = i === 0 ? SPEAKER : `${cap(word())} ${cap(word())} ${i}`;
    const category = i === 0 ? 'People' : CATEGORIES[i % CATEGORIES.length]!;
    titles.push(title);
    paths.push(`${category}/${title.replace(/ /g, '-')}.md`);
  }
  for (let i = 0; i < pages; i++) {
    const path = paths[i]!;
    const facts: string[] = [];
    const n = 3 + Math.floor(random() * 4);
    for (let f = 0; f < n; f++) {
      const text = `${cap(pick(WORDS))} ${word()} ${word()} ${pick(WORDS)} ${f}.`;
      const said = new Date(end.getTime() - Math.floor(random() * 300) * 86_400_000).toISOString().slice(0, 10);
      facts.push(`- ${text} [type:: fact] [confidence:: 0.8] [said:: ${said}] [source:: terminal:${1_700_000_000_000 + f}] ^${blockIdFor(path, text)}`);
    }
    if (i % 7 === 0) {
      const text = `Will sort out the ${pick(WORDS)} by Friday.`;
      facts.push(`- ${text} [type:: commitment] [due:: 2026-01-0${1 + (i % 9)}] [said:: 2025-12-20] [source:: terminal:1] ^${blockIdFor(path, text)}`);
    }
    if (i % 11 === 0) {
      const a = `Works at ${cap(word())}.`;
      const b = `Joined ${cap(word())} as an engineer.`;
      const ia = blockIdFor(path, a);
      const ib = blockIdFor(path, b);
      facts.push(`- ${a} [type:: identity] [about:: employer] [status:: review] [vs:: ^${ib}] [said:: 2026-01-01] [source:: terminal:2] ^${ia}`);
      facts.push(`- ${b} [type:: identity] [about:: employer] [status:: review] [vs:: ^${ia}] [said:: 2026-02-01] [source:: terminal:3] ^${ib}`);
    }
    const links = Array.from({ length: 2 + Math.floor(random() * 3) }, () => paths[Math.floor(random() * pages)]!).filter((p) => p !== path);
    const related = [...new Set(links)].map((p) => `- [[${p.replace(/\.md$/, '')}]] (${pick(['knows', 'near', 'about', 'with'])})`);
    write(
      join(dir, 'notes', path),
      `---\nschema: 1\ntitle: ${titles[i]}\ncategory: ${path.split('/')[0]}\ncreated: 2025-12-01T10:00:00.000Z\nupdated: 2026-10-01T10:00:00.000Z\nstaleness: 3\nconfidence: 0.9\nsensitivity: personal\nstatus: active\n---\n\n### 2026-10-01\n\n${cap(word())} ${word()} ${pick(WORDS)} ${word()} and ${pick(WORDS)}.\n\n## Facts\n${facts.join('\n')}\n\n## Related\n${related.join('\n')}\n`,
    );
  }
  let last: { file: string; offset: number } | null = null;
  for (let d = days; d >= 1; d--) {
    const day = new Date(end.getTime() - d * 86_400_000);
    const file = `${day.toISOString().slice(0, 10)}.md`;
    let text = logFileHeading(file);
    for (let m = 0; m < 20; m++) {
      const time = new Date(day.getTime() + (8 * 3600 + m * 1800) * 1000).toISOString();
      const about = pages > 0 ? titles[Math.floor(random() * pages)]! : 'the plans';
      const user = `Remind me about the ${pick(WORDS)} for ${about}, ${Array.from({ length: 8 + Math.floor(random() * 20) }, word).join(' ')}.`;
      text += formatLogEntry({ time, speaker: SPEAKER, source: `terminal:${day.getTime() + m}`, text: user, role: 'user' });
      text += formatLogEntry({ time, speaker: 'Charlie', source: `terminal:${day.getTime() + m}`, text: `Noted: the ${pick(WORDS)} for ${about}.`, role: 'assistant' });
    }
    write(join(dir, 'log', file), text);
    last = { file, offset: Buffer.byteLength(text) };
  }
  write(join(dir, 'project.md'), projectMd(name, key, last));
  write(join(dir, 'decisions.md'), `# Decisions\n\n- **2026-03-02** — Bins go out on Thursday ([source](terminal:1))\n`);
  write(join(dir, 'quotes.md'), `# Quotes\n\n> "Home is where the boiler works."\n> — ${SPEAKER}, 2026-03-03 ([source](terminal:2))\n`);
  return { titles, days };
}

/** The household: the main project with `pages` pages and `days` of archives, and `projects - 1` small ones. */
export function writeHousehold(projectsDir: string, o: { pages: number; days: number; projects: number; end: Date }): Household {
  const main = writeProject(join(projectsDir, MAIN.slug), MAIN.name, MAIN.key, o.pages, o.days, o.end, 7);
  for (let p = 1; p < o.projects; p++) {
    writeProject(join(projectsDir, `side-${p}`), `Side ${p}`, `bench:side-${p}`, Math.min(50, o.pages), Math.min(30, o.days), o.end, 100 + p);
  }
  return main;
}

/** The empty project beside it: project.md and nothing else. */
export function writeEmpty(projectsDir: string): void {
  write(join(projectsDir, MAIN.slug, 'project.md'), projectMd(MAIN.name, MAIN.key, null));
}
