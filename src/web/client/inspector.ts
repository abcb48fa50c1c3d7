/**
 * The Memory Inspector: every record of a project (or of your private memory) in one list to
 * filter, search, sort, edit and forget; the pages rendered as Markdown; a recall playground that
 * shows each hit's score parts. Records carry whatever fields exist; new ones show up as columns
 * in the details without changes here.
 */
import { INSPECTOR_TABS } from './views.js';
import { api, type Hit, type PageRef, type PageVersion } from './api.js';
import type { RecordWire } from '../shared/records.js';
import { clear, confirmButton, h, toast } from './dom.js';
import { renderCandidates, renderReview } from './inspector-queues.js';
import { ingestPanel } from './ingest-view.js';
import { pageView } from './markdown.js';
import { day, pageHref, pageTitle } from './words.js';
import { recordItem } from './record-card.js';

type Sort = 'date-desc' | 'date-asc' | 'confidence' | 'kind';

/** The record fields the list can be filtered by, each with a select of the values present. */
const FILTERS = ['kind', 'category', 'source', 'sensitivity', 'status'] as const;

/** The confidence filter reads confidence after decay (a record without one passes only "any"). */
const CONFIDENCE: [string, string][] = [
  ['', 'any'],
  ['0.9', '≥ 0.9'],
  ['0.7', '≥ 0.7'],
  ['0.5', '≥ 0.5'],
  ['low', 'below 0.5'],
];

function confident(r: RecordWire, filter: string): boolean {
  if (!filter) return true;
  const c = r.effective ?? r.confidence;
  if (c === undefined) return false;
  return filter === 'low' ? c < 0.5 : c >= Number(filter);
}

function select(label: string, id: string, values: string[], onChange: (v: string) => void): HTMLElement {
  const el = h(
    'select',
    { id, onchange: (e: Event) => onChange((e.target as HTMLSelectElement).value) },
    h('option', { value: '' }, 'all'),
    values.map((v) => h('option', { value: v }, v)),
  );
  return h('label', { class: 'filter' }, `${label} `, el);
}

function uniq(records: RecordWire[], key: (r: RecordWire) => string | undefined): string[] {
  return [...new Set(records.map(key).filter((v): v is string => Boolean(v)))].sort();
}

export async function renderInspector(main: HTMLElement, project: string, title: string, tab: string): Promise<void> {
  const tabs = h(
    'nav',
    { class: 'subtabs', 'aria-label': 'Inspector sections' },
    INSPECTOR_TABS.map((t) =>
      h('a', { href: `#/inspect/${encodeURIComponent(project)}/${t}`, class: t === tab ? 'active' : '', 'aria-current': t === tab ? 'page' : null }, `${t.charAt(0).toUpperCase()}${t.slice(1)}`),
    ),
  );
  const body = h('section', { class: 'inspector-body' });
  clear(main, h('header', { class: 'view-head' }, h('h1', {}, `Memory · ${title}`), tabs), body);
  void ingestPanel(project).then((panel) => panel && body.before(panel));
  if (tab === 'pages') await renderPages(body, project);
  else if (tab === 'review') await renderReview(body, project);
  else if (tab === 'candidates') await renderCandidates(body, project);
  else if (tab === 'recall') renderRecall(body, project);
  else await renderRecords(body, project);
}

/** What a project with no records yet shows instead of empty filters: how records come to be. */
const NO_RECORDS = 'Nothing is remembered here yet. Tell Charlie in the chat (for example "remember that the boiler is serviced in March"): what it keeps appears here, with where it came from.';

async function renderRecords(body: HTMLElement, project: string): Promise<void> {
  const data = await api.records(project);
  const records = data.records;
  if (!records.length && !data.problems.length) {
    clear(body, h('p', { class: 'empty' }, NO_RECORDS), h('p', {}, h('a', { href: `#/chat/${encodeURIComponent(project)}` }, 'Go to the chat')));
    return;
  }
  const state = { q: '', kind: '', category: '', source: '', sensitivity: '', status: '', confidence: '', sort: 'date-desc' as Sort };
  const list = h('ul', { class: 'records', 'aria-label': 'Records' });
  const count = h('p', { class: 'count', 'aria-live': 'polite' });
  const search = h('input', { type: 'search', id: 'record-search', placeholder: 'Search records…', 'aria-label': 'Search records' });
  const draw = () => {
    const q = state.q.toLowerCase();
    const shown = records
      .filter((r) => FILTERS.every((f) => !state[f] || r[f] === state[f]))
      .filter((r) => confident(r, state.confidence))
      .filter((r) => !q || `${r.title ?? ''} ${r.text} ${r.speaker ?? ''} ${(r.tags ?? []).join(' ')}`.toLowerCase().includes(q));
    shown.sort((a, b) => {
      if (state.sort === 'confidence') return (b.effective ?? b.confidence ?? -1) - (a.effective ?? a.confidence ?? -1);
      if (state.sort === 'kind') return a.kind.localeCompare(b.kind);
      const d = (a.date ?? '').localeCompare(b.date ?? '');
      return state.sort === 'date-asc' ? d : -d;
    });
    count.textContent = shown.length || !records.length ? `${shown.length} of ${records.length} records` : `No record of ${records.length} matches: clear the search or a filter.`;
    clear(
      list,
      shown.map((r) => recordItem(r, project, async () => renderRecords(body, project))),
    );
  };
  search.addEventListener('input', () => {
    state.q = search.value;
    draw();
  });
  const set = (k: keyof typeof state) => (v: string) => {
    (state as Record<string, string>)[k] = v;
    draw();
  };
  const sort = h(
    'select',
    { id: 'record-sort', onchange: (e: Event) => set('sort')((e.target as HTMLSelectElement).value) },
    h('option', { value: 'date-desc' }, 'newest first'),
    h('option', { value: 'date-asc' }, 'oldest first'),
    h('option', { value: 'confidence' }, 'confidence now'),
    h('option', { value: 'kind' }, 'kind'),
  );
  clear(
    body,
    data.problems.length
      ? h(
          'div',
          { class: 'problems', role: 'alert' },
          h('strong', {}, 'Files left untouched because they do not parse:'),
          h(
            'ul',
            {},
            data.problems.map((p) => h('li', {}, `${p.path}${p.line ? `:${p.line}` : ''} — ${p.message}`)),
          ),
        )
      : null,
    h(
      'div',
      { class: 'filters' },
      search,
      // on a phone the selects fold away behind "Filters", so the first record shows without scrolling
      h(
        'details',
        { class: 'more-filters', open: !window.matchMedia('(max-width: 760px)').matches },
        h('summary', {}, 'Filters'),
        h(
          'div',
          { class: 'filter-set' },
          FILTERS.map((f) =>
            select(
              f,
              `filter-${f}`,
              uniq(records, (r) => r[f]),
              set(f),
            ),
          ),
          h(
            'label',
            { class: 'filter' },
            'confidence now ',
            h(
              'select',
              { id: 'filter-confidence', onchange: (e: Event) => set('confidence')((e.target as HTMLSelectElement).value) },
              CONFIDENCE.map(([value, label]) => h('option', { value }, label)),
            ),
          ),
          h('label', { class: 'filter' }, 'sort ', sort),
        ),
      ),
    ),
    count,
    list,
  );
  draw();
}

async function renderPages(body: HTMLElement, project: string): Promise<void> {
  const { pages } = await api.pages(project);
  if (!pages.length) {
    clear(body, h('p', {}, 'No pages: private memory lives in SQLite only, never as Markdown.'));
    return;
  }
  clear(
    body,
    h(
      'ul',
      { class: 'page-list' },
      pages.map((p) => h('li', {}, h('a', { href: pageHref(project, p.page) }, p.title))),
    ),
  );
}

export async function renderPage(main: HTMLElement, project: string, path: string): Promise<void> {
  const note = path.startsWith('notes/');
  const [{ pages }, page, { versions }] = await Promise.all([api.pages(project), api.page(project, path), note ? api.versions(project, path) : Promise.resolve({ versions: [] })]);
  const links: PageRef[] = pages;
  clear(
    main,
    h(
      'header',
      { class: 'view-head' },
      h('h1', {}, pages.find((p) => p.page === path)?.title ?? pageTitle(path)),
      h('a', { href: `#/inspect/${encodeURIComponent(project)}/pages`, class: 'back' }, '← all pages'),
    ),
    pageView(page.markdown, project, links),
    versions.length ? versionList(project, versions, () => void renderPage(main, project, path)) : '',
  );
}

/** The page's earlier versions (kept when reflection or a restore changed it), newest first, each restorable. */
function versionList(project: string, versions: PageVersion[], reload: () => void): HTMLElement {
  const item = (v: PageVersion) => {
    const restore = confirmButton('Restore', 'Restore this version?', 'small', () => api.restore(project, v.page, v.version).then(reload), 'Restored — the page as it was is kept as a version too');
    // 2026-11-30T14-00-00.000Z → 2026-11-30 14:00 (UTC)
    const when = v.version.replace(/^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2}).*$/, '$1 $2:$3 UTC');
    return h('li', { class: 'page-version' }, h('span', {}, `as it was before ${when}`), ' ', restore);
  };
  return h(
    'section',
    { class: 'versions', 'aria-label': 'Earlier versions' },
    h('h2', {}, 'Earlier versions'),
    h('p', { class: 'meta' }, "Kept in the project's .history/ folder whenever reflection or a restore changed this page. Restoring keeps the page as it is now as a version too."),
    h('ul', { class: 'page-list' }, [...versions].reverse().map(item)),
  );
}

function bar(label: string, value: number): HTMLElement {
  return h(
    'div',
    { class: 'part' },
    h('span', { class: 'part-label' }, label),
    h('meter', { min: 0, max: 1, value: Math.max(0, Math.min(1, value)), 'aria-label': `${label} ${value.toFixed(2)}` }),
    h('span', { class: 'part-value' }, value.toFixed(2)),
  );
}

function renderRecall(body: HTMLElement, project: string): void {
  const input = h('input', { type: 'search', id: 'recall-query', placeholder: 'What would Charlie recall for…', 'aria-label': 'Recall query' });
  const out = h('ol', { class: 'hits', 'aria-live': 'polite' });
  const form = h('form', { class: 'recall-form' }, input, h('button', { type: 'submit', class: 'primary' }, 'Recall'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void api
      .search(project, input.value)
      .then(({ hits, ms }) => {
        clear(out, hits.length ? hits.map((hit) => hitItem(project, hit)) : h('li', {}, 'Nothing found.'));
        out.setAttribute('aria-label', `${hits.length} ${hits.length === 1 ? 'hit' : 'hits'} in ${ms} ms`);
      })
      .catch((err: unknown) => toast(err instanceof Error ? err.message : String(err), 'error'));
  });
  clear(body, form, out);
  input.focus();
}

function hitItem(project: string, hit: Hit): HTMLElement {
  return h(
    'li',
    { class: 'hit' },
    h(
      'div',
      { class: 'record-head' },
      h('a', { href: pageHref(project, hit.page), title: hit.page }, /^log\/\d{4}-\d{2}-\d{2}\.md$/.test(hit.page) ? `conversation of ${day(hit.page.slice(4, 14))}` : pageTitle(hit.page)),
      h('span', { class: 'meta' }, `lines ${hit.lineStart}–${hit.lineEnd}${hit.heading ? ` · ${hit.heading}` : ''} · score ${hit.score.toFixed(3)} · ${hit.why.join(', ')}`),
    ),
    h('p', { class: 'record-text' }, hit.text.length > 500 ? `${hit.text.slice(0, 500)}…` : hit.text),
    h('div', { class: 'parts' }, bar('vector', hit.parts.vector), bar('keyword', hit.parts.keyword), bar('usage', hit.parts.usage), bar('recency', hit.parts.recency)),
  );
}
