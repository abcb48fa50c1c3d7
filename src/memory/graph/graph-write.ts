/**
 * What a GraphWrite does to the pages, decided in plain code: entities resolved to existing
 * pages (one real thing, one page), new pages only for significant entities, facts deduplicated
 * (a restated fact refreshes its date), links written on both pages with their own labels and
 * only with evidence. `planWrite` resolves; `applyToPage` renders one page from its current text.
 */
import type { GraphFact, GraphWrite, GraphWriteReport } from '../../core/ports/index.js';
import { USERS_CATEGORY } from '../../core/writing/graph-distill.js';
import { titleSlug } from '../slug.js';
import { isCentrePath, linkFactsToCentres } from './centre-links.js';
import { addField, renderFact, renderLink, setField, sourceOf, withSaid, field, parseFactLine, type FactLine } from '../markdown/lines.js';
import { normalizeName, normalizeStatement, statementContains } from '../../core/names.js';
import { readPage } from './page.js';
import { titleFromPath } from '../../util/one-line.js';
import { reviewAgainst } from '../records/review.js';
import type { RecordEvent } from '../records/history.js';
import { addToSection, editLines, setFrontMatter } from './page-edit.js';
import type { WikiSnapshot } from './wiki-pages.js';
import { parseSensitivity, strictest, type SensitiveKind, type SensitivityValue } from '../../core/privacy/sensitivity.js';

/** The folder of machine pages (`Machines/<name>`), the same in every project. */
const MACHINES_CATEGORY = 'Machines';

export const DEFAULT_TAXONOMY = ['People/Family', 'People/Friends', 'People/Professional', 'Work', 'Places', 'Travel', 'Events', 'Health', 'Finances', 'Topics', 'Misc'] as const;

/** A candidate for permanent memory, for the privacy layer's tombstones (`forgotten.md`). */
export interface WriteCandidate {
  kind: 'page' | 'fact' | 'link';
  project: string;
  page?: string;
  text: string;
}
export type IsForgotten = (candidate: WriteCandidate) => boolean;

export interface PagePlan {
  path: string;
  isNew: boolean;
  title: string;
  category: string;
  aliases: string[];
  description: string;
  staleness: number;
  discordId?: string;
  webUser?: string;
  facts: GraphFact[];
  links: { target: string; label: string; source: string }[];
}

export function pickCategory(wanted: string | undefined, taxonomy: readonly string[]): string {
  // a machine Charlie connected to (src/core/machines) has its own folder whatever the taxonomy
  if (wanted?.trim().toLowerCase() === MACHINES_CATEGORY.toLowerCase()) return MACHINES_CATEGORY;
  const fallback = taxonomy.includes('Misc') ? 'Misc' : (taxonomy[taxonomy.length - 1] ?? 'Misc');
  const w = (wanted ?? '')
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .toLowerCase();
  if (!w) return fallback;
  return taxonomy.find((t) => t.toLowerCase() === w) ?? taxonomy.find((t) => t.toLowerCase().split('/').pop() === w) ?? taxonomy.find((t) => t.toLowerCase().startsWith(`${w}/`)) ?? fallback;
}

export interface PlanContext {
  project: string;
  taxonomy: readonly string[];
  isForgotten?: IsForgotten;
  /** Text of a page, to check a quote given as evidence. */
  pageText(path: string): Promise<string | null>;
}

export async function planWrite(snap: WikiSnapshot, write: GraphWrite, ctx: PlanContext): Promise<{ plans: Map<string, PagePlan>; report: GraphWriteReport }> {
  const report: GraphWriteReport = { created: [], updated: [], factsAdded: 0, factsRefreshed: 0, linksAdded: 0, refused: [] };
  const plans = new Map<string, PagePlan>();
  const refuse = (item: string, reason: string) => report.refused.push({ item, reason });
  const taken = new Set([...snap.pages.keys()].map((p) => p.toLowerCase()));
  const planFor = (path: string): PagePlan => {
    let plan = plans.get(path);
    if (!plan) {
      const page = snap.pages.get(path);
      plan = { path, isNew: false, title: page?.title ?? titleFromPath(path), category: page?.category ?? '', aliases: [], description: '', staleness: page?.staleness ?? 5, facts: [], links: [] };
      plans.set(path, plan);
    }
    return plan;
  };

  for (const e of write.entities) {
    const name = e.name.trim();
    if (!name) continue;
    let candidates = snap.resolver.candidates(name, e.discordId);
    for (const alias of e.aliases ?? []) if (candidates.length === 0) candidates = snap.resolver.candidates(alias);
    if (candidates.length > 1) {
      refuse(name, `ambiguous: could be ${candidates.join(', ')}`);
      continue;
    }
    let path = candidates[0];
    if (!path) {
      if (ctx.isForgotten?.({ kind: 'page', project: ctx.project, text: name })) {
        refuse(name, 'forgotten: a person asked Charlie to forget it');
        continue;
      }
      if (!e.create) {
        refuse(name, 'no page yet, and nothing lasting to say about it');
        continue;
      }
      // a person who talks to Charlie gets a centre page, USER.md in a folder of their own
      const category = e.centre ? USERS_CATEGORY : pickCategory(e.category, ctx.taxonomy);
      const base = `${category}/${titleSlug(name)}`;
      path = e.centre ? `${base}/USER.md` : `${base}.md`;
      for (let n = 2; taken.has(path.toLowerCase()); n++) path = e.centre ? `${base}-${n}/USER.md` : `${base}-${n}.md`;
      taken.add(path.toLowerCase());
      const title = name.replace(/\s+/g, ' ');
      const aliases = (e.aliases ?? []).filter((a) => normalizeName(a) !== normalizeName(title) && snap.resolver.candidates(a).length === 0);
      plans.set(path, {
        path,
        isNew: true,
        title,
        category,
        aliases,
        description: e.description?.trim() ?? '',
        staleness: e.staleness ?? minStaleness(e.facts),
        ...(e.discordId ? { discordId: e.discordId } : {}),
        ...(e.webUser ? { webUser: e.webUser } : {}),
        facts: [],
        links: [],
      });
      snap.resolver.add({ path, title, aliases, category, ...(e.discordId ? { discordId: e.discordId } : {}) });
    }
    if (snap.broken.has(path)) {
      refuse(name, `${path} could not be read; it is left for a person to fix`);
      continue;
    }
    const plan = planFor(path);
    if (!plan.isNew) {
      for (const a of e.aliases ?? []) if (snap.resolver.candidates(a).length === 0 && normalizeName(a) !== normalizeName(plan.title)) plan.aliases.push(a);
      if (e.discordId && !snap.pages.get(path)?.discordId) plan.discordId = e.discordId;
      if (e.webUser && !snap.pages.get(path)?.webUser) plan.webUser = e.webUser;
    }
    for (const f of e.facts) {
      if (ctx.isForgotten?.({ kind: 'fact', project: ctx.project, page: path, text: f.text })) refuse(f.text, 'forgotten: a person asked Charlie to forget it');
      else plan.facts.push(f);
    }
  }

  // facts on other pages that name someone who talks to Charlie link to their USER.md
  const centres = [...snap.pages.values(), ...[...plans.values()].filter((p) => p.isNew)].filter((p) => isCentrePath(p.path)).map((p) => ({ path: p.path, names: [p.title, ...p.aliases] }));
  for (const plan of plans.values()) linkFactsToCentres(plan.path, plan.facts, centres);

  for (const l of write.links) {
    const item = `${l.from} → ${l.to} (${l.label})`;
    const from = snap.resolver.resolve(l.from);
    const to = snap.resolver.resolve(l.to);
    if (!from || !to) {
      refuse(item, `no single page for ${!from ? l.from : l.to}`);
      continue;
    }
    if (from === to) {
      refuse(item, 'a page cannot link to itself');
      continue;
    }
    if (!l.label.trim() || !l.reverseLabel.trim()) {
      refuse(item, 'a link needs a label on both sides');
      continue;
    }
    let source: string;
    if (l.evidence.kind === 'message') source = l.evidence.source;
    else {
      const evidencePage = snap.target(l.evidence.page);
      const text = evidencePage ? await ctx.pageText(evidencePage) : null;
      if (!evidencePage || !text || !statementContains(text, l.evidence.quote)) {
        refuse(item, 'the page given as evidence does not say that');
        continue;
      }
      source = `[[${evidencePage.replace(/\.md$/, '')}]]`;
    }
    if (ctx.isForgotten?.({ kind: 'link', project: ctx.project, page: from, text: `${from} ${to}` })) {
      refuse(item, 'forgotten: a person asked Charlie to forget it');
      continue;
    }
    planFor(from).links.push({ target: to, label: l.label.trim(), source });
    planFor(to).links.push({ target: from, label: l.reverseLabel.trim(), source });
  }
  return { plans, report };
}

function minStaleness(facts: GraphFact[]): number {
  const given = facts.map((f) => f.staleness).filter((s): s is number => s !== undefined);
  return given.length ? Math.min(...given) : 5;
}

export interface PageResult {
  content: string;
  factsAdded: number;
  factsRefreshed: number;
  linksAdded: number;
  /** Existing records a new one contradicts (both now in review). */
  inReview?: number;
  /** What happened to which record, for its history in `_log.md`. */
  events: Omit<RecordEvent, 'at'>[];
}

/** Health and money pages start sensitive: never sent to a hosted model. */
function categorySensitivity(category: string): { sensitivity: 'personal' | 'sensitive'; kind?: 'phi' | 'financial' } {
  const top = category.split('/')[0]?.toLowerCase() ?? '';
  if (top === 'health') return { sensitivity: 'sensitive', kind: 'phi' };
  if (top === 'finances' || top === 'finance') return { sensitivity: 'sensitive', kind: 'financial' };
  return { sensitivity: 'personal' };
}

/**
 * A new page whose every record is sensitive starts sensitive itself: its title, aliases and
 * description are written from those records and would repeat them in lists and links.
 */
function pageSensitivity(plan: PagePlan): { sensitivity: 'personal' | 'sensitive'; kind?: SensitiveKind } {
  const byCategory = categorySensitivity(plan.category);
  if (byCategory.sensitivity === 'sensitive' || plan.facts.length === 0) return byCategory;
  const values = plan.facts.map((f) => parseSensitivity(f.sensitivity));
  if (!values.every((v) => v?.sensitivity === 'sensitive')) return byCategory;
  const kind = values.reduce<SensitivityValue | null>((a, b) => strictest(a, b), null)?.kind;
  return { sensitivity: 'sensitive', ...(kind ? { kind } : {}) };
}

function newPage(plan: PagePlan, today: string): string {
  return setFrontMatter(plan.description ? `${plan.description.replace(/\s+/g, ' ')}\n` : '', {}, () => ({
    schema: 2,
    title: plan.title,
    aliases: plan.aliases,
    category: plan.category,
    created: today,
    updated: today,
    staleness: plan.staleness,
    ...pageSensitivity(plan),
    ...(plan.discordId ? { discord_id: plan.discordId } : {}),
    ...(plan.webUser ? { web_user: plan.webUser } : {}),
    tags: [],
    sources: [],
  }));
}

const MAX_SOURCES = 20;

/**
 * New records set against the open records they contradict — those already on the page and
 * those written before them in the same batch (a correction inside one distillation): superseded
 * when the newer one says the old state ended, else both into review. Edits `edits` (lines of
 * the page) and `added` (the new lines) in place; returns how many pairs went into review.
 */
function settleContradictions(
  path: string,
  facts: readonly FactLine[],
  lines: readonly string[],
  edits: Map<number, string>,
  added: string[],
  events: Omit<RecordEvent, 'at'>[],
  today: string,
): number {
  let inReview = 0;
  for (const [i, line] of added.entries()) {
    // the batch's earlier lines are read as if they followed the page's last line
    const earlier = added.slice(0, i);
    const current = [...lines.map((l, n) => edits.get(n + 1) ?? l), ...earlier];
    const pending = earlier.flatMap((l, k) => parseFactLine(l, lines.length + k + 1) ?? []);
    const all = [...facts, ...pending];
    const r = reviewAgainst(path, all, current, line, today);
    const newId = parseFactLine(line, 0)?.blockId ?? '';
    for (const [n, l] of r.edits) {
      if (n > lines.length) added[n - lines.length - 1] = l;
      else edits.set(n, l);
      const oldId = all.find((f) => f.line === n)?.blockId;
      if (!oldId) continue;
      if (r.superseded.includes(oldId))
        events.push(
          { action: 'reviewed', page: path, id: oldId, detail: `superseded by ^${newId}: the newer record says it changed` },
          { action: 'reviewed', page: path, id: newId, detail: `supersedes ^${oldId}` },
        );
      else events.push({ action: 'review', page: path, id: oldId, detail: `disagrees with ^${newId}` }, { action: 'review', page: path, id: newId, detail: `disagrees with ^${oldId}` });
    }
    added[i] = r.line;
    inReview += r.conflicts;
  }
  return inReview;
}

/** The page's new text, from its current text (null = create), or null when nothing changes. */
export function applyToPage(current: string | null, plan: PagePlan, today: string, linkTarget: (link: string) => string | null): PageResult | null {
  const content = current ?? newPage(plan, today);
  const read = readPage(content, plan.path, plan.path);
  if (!read.ok) throw new Error(`${plan.path}: ${read.problem.message}`);
  const page = read.page;
  const lines = content.split('\n');
  const known = new Map(page.facts.concat(page.unsourced).map((f) => [normalizeStatement(f.text), f]));
  const edits = new Map<number, string>();
  const added: string[] = [];
  const sources: string[] = [];
  let refreshed = 0;
  const events: Omit<RecordEvent, 'at'>[] = [];
  const facts = page.facts.concat(page.unsourced);
  for (const f of plan.facts) {
    const key = normalizeStatement(f.text);
    if (!key) continue;
    const old = known.get(key);
    if (old) {
      const said = field(old.fields, 'said') ?? '';
      const cited = old.fields.filter((x) => x.key === 'source').map((x) => sourceOf(x.value));
      // the same day from another message is a restatement too, when it has confidence to gain (a replay of the same message is not)
      const confidence = Number(field(old.fields, 'confidence') ?? 1);
      const sameDay = said === f.said && confidence < 1 && !cited.includes(sourceOf(f.source)) && cited.length < MAX_SOURCES;
      if (said < f.said || sameDay) {
        // restating a fact restarts its clock and its confidence (decay counts from `said`)
        let line = withSaid(edits.get(old.line) ?? lines[old.line - 1]!, f.said);
        if (field(old.fields, 'confidence') !== undefined) line = setField(line, 'confidence', '1');
        if (sameDay) line = addField(line, 'source', f.source);
        edits.set(old.line, line);
        old.fields.push({ key: 'source', value: f.source });
        refreshed++;
        if (old.blockId) events.push({ action: 'restated', page: plan.path, id: old.blockId, source: f.source, detail: `said ${f.said}` });
      }
      continue;
    }
    known.set(key, { line: 0, text: f.text, fields: [{ key: 'said', value: f.said }] });
    const staleness = f.staleness !== undefined && f.staleness !== page.staleness ? f.staleness : undefined;
    const rendered = renderFact(plan.path, {
      text: f.text,
      ...(f.type ? { type: f.type } : {}),
      ...(f.due ? { due: f.due } : {}),
      ...(f.happened ? { happened: f.happened } : {}),
      ...(f.about ? { about: f.about } : {}),
      ...(f.confidence !== undefined ? { confidence: f.confidence } : {}),
      ...(f.sensitivity ? { sensitivity: f.sensitivity } : {}),
      said: f.said,
      source: f.source,
      ...(f.via ? { via: f.via } : {}),
      ...(staleness !== undefined ? { staleness } : {}),
      ...(f.person?.length ? { person: f.person } : {}),
    });
    added.push(rendered);
    const id = parseFactLine(rendered, 0)?.blockId;
    if (id) events.push({ action: 'added', page: plan.path, id, source: f.source, detail: f.gate ?? 'written without the promotion gate' });
    sources.push(f.source);
  }
  const inReview = settleContradictions(plan.path, facts, lines, edits, added, events, today);
  const linked = new Set(page.links.map((l) => linkTarget(l.target) ?? l.target.toLowerCase()));
  const links: string[] = [];
  for (const l of plan.links) {
    if (linked.has(l.target)) continue;
    linked.add(l.target);
    links.push(renderLink(l.target, l.label, l.source));
  }
  const newAliases = plan.aliases.filter((a) => !page.aliases.some((x) => normalizeName(x) === normalizeName(a)));
  const discord = plan.discordId && page.discordId !== plan.discordId ? plan.discordId : undefined;
  const webUser = plan.webUser && !page.webUser ? plan.webUser : undefined;
  if (current !== null && added.length === 0 && refreshed === 0 && links.length === 0 && newAliases.length === 0 && !discord && !webUser) return null;
  let next = editLines(content, edits);
  next = addToSection(next, 'Facts', added, 'Related');
  next = addToSection(next, 'Related', links);
  const addSources = (old: unknown) => {
    const list: unknown[] = Array.isArray(old) ? old : [];
    const have = new Set(list.map((s) => (typeof s === 'string' ? s : JSON.stringify(s))));
    const fresh = sources.filter((s) => !have.has(s) && have.add(s));
    return fresh.length ? [...list, ...fresh].slice(-MAX_SOURCES) : undefined;
  };
  next = setFrontMatter(
    next,
    {
      updated: today,
      sources: addSources,
      ...(newAliases.length ? { aliases: [...page.aliases, ...newAliases] } : {}),
      ...(discord ? { discord_id: discord } : {}),
      ...(webUser ? { web_user: webUser } : {}),
    },
    () => ({ schema: 2, title: page.title, category: page.category || plan.category, created: today }),
  );
  return { content: next, factsAdded: added.length, factsRefreshed: refreshed, linksAdded: links.length, inReview, events };
}
