/**
 * The Memory Inspector: every record of a project (or of your private memory) in one list to
 * filter, search, sort, edit and forget; the pages rendered as Markdown; a recall playground that
 * shows each hit's score parts. Records carry whatever fields exist; new ones show up as columns
 * in the details without changes here.
 */
import { api, type Hit, type PageRef } from './api.js';
import type { MemoryRecord } from '../shared/records.js';
import { clear, h, toast } from './dom.js';
import { pageHref, pageView, renderMarkdown } from './markdown.js';

const KNOWN = new Set([
  'id',
  'kind',
  'text',
  'page',
  'title',
  'date',
  'speaker',
  'category',
  'source',
  'provenance',
  'confidence',
  'sensitivity',
  'status',
  'tags',
  'editable',
  'forgettable',
  'holdable',
]);

type Sort = 'date-desc' | 'date-asc' | 'confidence' | 'kind';

/** The record fields the list can be filtered by, each with a select of the values present. */
const FILTERS = ['kind', 'category', 'source', 'sensitivity', 'status'] as const;

function select(label: string, id: string, values: string[], onChange: (v: string) => void): HTMLElement {
  const el = h(
    'select',
    { id, onchange: (e: Event) => onChange((e.target as HTMLSelectElement).value) },
    h('option', { value: '' }, 'all'),
    values.map((v) => h('option', { value: v }, v)),
  );
  return h('label', { class: 'filter' }, `${label} `, el);
}

function uniq(records: MemoryRecord[], key: (r: MemoryRecord) => string | undefined): string[] {
  return [...new Set(records.map(key).filter((v): v is string => Boolean(v)))].sort();
}

export async function renderInspector(main: HTMLElement, project: string, title: string, tab: string): Promise<void> {
  const tabs = h(
    'nav',
    { class: 'subtabs', 'aria-label': 'Inspector sections' },
    ['records', 'pages', 'recall'].map((t) =>
      h('a', { href: `#/inspect/${encodeURIComponent(project)}/${t}`, class: t === tab ? 'active' : '', 'aria-current': t === tab ? 'page' : null }, `${t.charAt(0).toUpperCase()}${t.slice(1)}`),
    ),
  );
  const body = h('section', { class: 'inspector-body' });
  clear(main, h('header', { class: 'view-head' }, h('h1', {}, `Memory · ${title}`), tabs), body);
  if (tab === 'pages') await renderPages(body, project);
  else if (tab === 'recall') renderRecall(body, project);
  else await renderRecords(body, project);
}

async function renderRecords(body: HTMLElement, project: string): Promise<void> {
  const data = await api.records(project);
  const records = data.records;
  const state = { q: '', kind: '', category: '', source: '', sensitivity: '', status: '', sort: 'date-desc' as Sort };
  const list = h('ul', { class: 'records', 'aria-label': 'Records' });
  const count = h('p', { class: 'count', 'aria-live': 'polite' });
  const search = h('input', { type: 'search', id: 'record-search', placeholder: 'Search records…', 'aria-label': 'Search records' });
  const draw = () => {
    const q = state.q.toLowerCase();
    const shown = records
      .filter((r) => FILTERS.every((f) => !state[f] || r[f] === state[f]))
      .filter((r) => !q || `${r.title ?? ''} ${r.text} ${r.speaker ?? ''} ${(r.tags ?? []).join(' ')}`.toLowerCase().includes(q));
    shown.sort((a, b) => {
      if (state.sort === 'confidence') return (b.confidence ?? -1) - (a.confidence ?? -1);
      if (state.sort === 'kind') return a.kind.localeCompare(b.kind);
      const d = (a.date ?? '').localeCompare(b.date ?? '');
      return state.sort === 'date-asc' ? d : -d;
    });
    count.textContent = `${shown.length} of ${records.length} records`;
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
    h('option', { value: 'confidence' }, 'confidence'),
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
      FILTERS.map((f) =>
        select(
          f,
          `filter-${f}`,
          uniq(records, (r) => r[f]),
          set(f),
        ),
      ),
      h('label', { class: 'filter' }, 'sort ', sort),
    ),
    count,
    list,
  );
  draw();
}

function recordItem(r: MemoryRecord, project: string, reload: () => Promise<void>): HTMLElement {
  const extra = Object.entries(r).filter(([k, v]) => !KNOWN.has(k) && v !== undefined && v !== null);
  const meta = [r.date, r.speaker, r.category, r.confidence !== undefined ? `confidence ${r.confidence.toFixed(2)}` : null, r.sensitivity, r.status !== 'active' ? r.status : null]
    .filter(Boolean)
    .join(' · ');
  let text: HTMLElement = h('p', { class: 'record-text' }, r.text.length > 400 ? `${r.text.slice(0, 400)}…` : r.text);
  if (r.kind === 'note') {
    text = h('div', { class: 'record-md' });
    text.innerHTML = renderMarkdown(r.text.length > 1200 ? `${r.text.slice(0, 1200)}…` : r.text, project, []);
  }
  const actions = h('div', { class: 'actions' });
  const item = h(
    'li',
    { class: `record kind-${r.kind}`, 'data-id': r.id },
    h('div', { class: 'record-head' }, h('span', { class: `badge ${r.kind}` }, r.kind), r.title ? h('strong', {}, r.title) : null, h('span', { class: 'meta' }, meta)),
    text,
    h(
      'details',
      { class: 'provenance' },
      h('summary', {}, 'Why does Charlie think that?'),
      h(
        'ol',
        {},
        r.provenance.map((p) => h('li', {}, `${p.label}: `, /^https:\/\//.test(p.ref) ? h('a', { href: p.ref, rel: 'noopener noreferrer', target: '_blank' }, p.ref) : h('code', {}, p.ref))),
        r.page ? h('li', {}, 'kept in ', h('a', { href: pageHref(project, r.page) }, r.page)) : h('li', {}, 'kept in private memory (SQLite, never Markdown)'),
      ),
      extra.length
        ? h(
            'dl',
            {},
            extra.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, typeof v === 'string' ? v : JSON.stringify(v))]),
          )
        : null,
    ),
    actions,
  );
  if (r.editable) {
    actions.append(
      h(
        'button',
        {
          type: 'button',
          class: 'small',
          onclick: () => {
            const area = h('textarea', { class: 'edit-text', rows: 3, 'aria-label': 'New text' });
            area.value = r.text;
            const save = h('button', { type: 'button', class: 'small primary' }, 'Save');
            save.addEventListener('click', () => {
              void api
                .editRecord(project, r.id, area.value)
                .then(() => toast('Saved — marked as edited by a person'))
                .then(reload)
                .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error'));
            });
            text.replaceWith(h('div', { class: 'editor' }, area, save));
            area.focus();
          },
        },
        'Edit',
      ),
    );
  }
  if (r.forgettable) {
    const forget = h('button', { type: 'button', class: 'small danger' }, 'Forget');
    forget.addEventListener('click', () => {
      if (forget.dataset.confirm !== 'yes') {
        forget.dataset.confirm = 'yes';
        forget.textContent = 'Really forget?';
        return;
      }
      void api
        .forgetRecord(project, r.id)
        .then(() => toast('Forgotten'))
        .then(reload)
        .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error'));
    });
    actions.append(forget);
  }
  actions.append(h('button', { type: 'button', class: 'small', disabled: !r.holdable, title: r.holdable ? 'Keep it out of answers for now' : 'Holding a record comes with typed records' }, 'Hold'));
  return item;
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
      pages.map((p) => h('li', {}, h('a', { href: pageHref(project, p.page) }, p.title), ' ', h('code', {}, p.page))),
    ),
  );
}

export async function renderPage(main: HTMLElement, project: string, path: string): Promise<void> {
  const [{ pages }, page] = await Promise.all([api.pages(project), api.page(project, path)]);
  const links: PageRef[] = pages;
  clear(
    main,
    h('header', { class: 'view-head' }, h('h1', {}, path), h('a', { href: `#/inspect/${encodeURIComponent(project)}/pages`, class: 'back' }, '← all pages')),
    pageView(page.markdown, project, links),
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
        out.setAttribute('aria-label', `${hits.length} hits in ${ms} ms`);
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
      h('a', { href: pageHref(project, hit.page) }, hit.page),
      h('span', { class: 'meta' }, `lines ${hit.lineStart}–${hit.lineEnd}${hit.heading ? ` · ${hit.heading}` : ''} · score ${hit.score.toFixed(3)} · ${hit.why.join(', ')}`),
    ),
    h('p', { class: 'record-text' }, hit.text.length > 500 ? `${hit.text.slice(0, 500)}…` : hit.text),
    h('div', { class: 'parts' }, bar('vector', hit.parts.vector), bar('keyword', hit.parts.keyword), bar('usage', hit.parts.usage), bar('recency', hit.parts.recency)),
  );
}
