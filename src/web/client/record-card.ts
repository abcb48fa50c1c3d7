/**
 * One record in the Memory Inspector's list: its text, its fields as readable chips (type,
 * status, when it was said, due or happened, confidence now after decay, sensitivity, a hand
 * edit), its provenance chain, and what a person can do with it (edit, hold or release, forget).
 */
import type { RecordWire } from '../shared/records.js';
import { api } from './api.js';
import { confirmButton, h, toast } from './dom.js';
import { renderMarkdown } from './markdown.js';
import { day, pageHref, pageTitle, sourceWords, type SourceWords } from './words.js';
import { whyTimeline } from './why-timeline.js';

function sourceLink(w: SourceWords): HTMLElement | string {
  if (!w.href) return w.text;
  return w.external ? h('a', { href: w.href, rel: 'noopener noreferrer', target: '_blank' }, w.text) : h('a', { href: w.href }, w.text);
}

/** Fields shown as chips or elsewhere on the card; any other field is listed under the provenance. */
const SHOWN = new Set([
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
  'effective',
  'decay',
  'sensitivity',
  'status',
  'tags',
  'due',
  'happened',
  'handEdited',
  'blockId',
  'line',
  'editable',
  'forgettable',
  'holdable',
]);

function chip(text: string, cls = ''): HTMLElement {
  return h('span', { class: `chip-field ${cls}`.trim() }, text);
}

function confidenceText(r: RecordWire): string | null {
  if (r.confidence === undefined) return null;
  const now = r.effective;
  if (now === undefined || Math.abs(now - r.confidence) < 0.005) return `confidence ${r.confidence.toFixed(2)}`;
  const state = typeof r.decay === 'string' && r.decay !== 'fresh' ? `, ${r.decay}` : '';
  return `confidence ${r.confidence.toFixed(2)} → ${now.toFixed(2)} now${state}`;
}

function chips(r: RecordWire): HTMLElement {
  const fact = r.kind === 'fact';
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const parts = [
    r.status !== 'active' ? chip(r.status, `status status-${r.status}`) : null,
    r.category && r.category !== r.kind ? chip(r.category, 'type') : null,
    r.date ? chip(fact ? `said ${day(r.date)}` : day(r.date)) : null,
    str(r.due) ? chip(`due ${day(str(r.due) ?? '')}`, r.decay === 'expired' ? 'expired' : '') : null,
    str(r.happened) ? chip(`happened ${day(str(r.happened) ?? '')}`) : null,
    r.speaker ? chip(r.speaker) : null,
    confidenceText(r) ? chip(confidenceText(r) ?? '', 'confidence') : null,
    r.sensitivity ? chip(r.sensitivity, `sensitivity-${r.sensitivity.split('/')[0] ?? ''}`) : null,
    r.handEdited === true || r.source === 'manual' ? chip('edited by a person', 'manual') : null,
  ];
  return h('div', { class: 'chips' }, parts);
}

/** The record's history, as /memory why tells it (the knowledge graph's chain: said, added, restated, edited, merged, reviewed). */
async function showChain(details: HTMLElement, project: string, id: string): Promise<void> {
  try {
    const answer = await api.why(project, id);
    const chain = answer.chains[0];
    if (!chain) return;
    details.append(
      h('p', { class: 'chain-head' }, 'What happened, oldest first'),
      whyTimeline(chain.steps, (source, date) => sourceLink(sourceWords(source, project, date))),
    );
  } catch (e: unknown) {
    toast(e instanceof Error ? e.message : String(e), 'error');
  }
}

export function recordItem(r: RecordWire, project: string, reload: () => Promise<void>): HTMLElement {
  const extra = Object.entries(r).filter(([k, v]) => !SHOWN.has(k) && v !== undefined && v !== null);
  let text: HTMLElement = h('p', { class: 'record-text' }, r.text.length > 400 ? `${r.text.slice(0, 400)}…` : r.text);
  if (r.kind === 'note') {
    text = h('div', { class: 'record-md' });
    text.innerHTML = renderMarkdown(r.text.length > 1200 ? `${r.text.slice(0, 1200)}…` : r.text, project, []);
  }
  const actions = h('div', { class: 'actions' });
  const act = (label: string, run: () => Promise<unknown>, done: string, cls = 'small') =>
    h(
      'button',
      {
        type: 'button',
        class: cls,
        onclick: () => {
          void run()
            .then(() => toast(done))
            .then(reload)
            .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error'));
        },
      },
      label,
    );
  const ids = [
    ['record id', r.id],
    ...(typeof r.blockId === 'string' && r.blockId ? [['block id', `^${r.blockId}`]] : []),
    ...(r.page ? [['file', `${r.page}${typeof r.line === 'number' ? `:${r.line}` : ''}`]] : []),
    ...r.provenance.map((p) => [p.label, p.ref]),
    ...extra.map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ];
  const provenance = h(
    'details',
    { class: 'provenance' },
    h('summary', {}, 'Why does Charlie think that?'),
    h(
      'ol',
      {},
      r.provenance.map((p) => {
        const words = sourceWords(p.ref, project, r.date);
        // "kept on the page: the page Sarah Chen" says "page" once
        if (/page$/.test(p.label)) words.text = words.text.replace(/^the page /, '');
        return h('li', {}, `${p.label}: `, sourceLink(words));
      }),
      r.provenance.some((p) => /\.md(:\d+)?$/.test(p.ref))
        ? null
        : r.page
          ? h('li', {}, 'kept on the page ', h('a', { href: pageHref(project, r.page) }, pageTitle(r.page)))
          : h('li', {}, 'kept in private memory (SQLite, never Markdown)'),
    ),
    // ids, files and raw references: for whoever wants them, folded away
    h(
      'details',
      { class: 'ids' },
      h('summary', {}, 'Details'),
      h(
        'dl',
        {},
        ids.flatMap(([k, v]) => [h('dt', {}, k ?? ''), h('dd', {}, h('code', {}, v ?? ''))]),
      ),
    ),
  );
  const blockId = typeof r.blockId === 'string' ? r.blockId : '';
  if (blockId) provenance.addEventListener('toggle', () => void showChain(provenance, project, blockId), { once: true });
  const item = h(
    'li',
    { class: `record kind-${r.kind} status-${r.status}`, 'data-id': r.id },
    h('div', { class: 'record-head' }, h('span', { class: `badge ${r.kind}` }, r.kind), r.title ? h('strong', {}, r.title) : null),
    text,
    chips(r),
    provenance,
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
            const area = h('textarea', { class: 'edit-text', rows: r.kind === 'note' ? 10 : 3, 'aria-label': 'New text' });
            area.value = r.text;
            const save = act('Save', () => api.editRecord(project, r.id, area.value), 'Saved — marked as written by a person (confidence 1)', 'small primary');
            text.replaceWith(h('div', { class: 'editor' }, area, save));
            area.focus();
          },
        },
        'Edit',
      ),
    );
  }
  if (r.holdable) {
    actions.append(
      r.status === 'held'
        ? act('Release', () => api.releaseRecord(project, r.id), 'Released: Charlie uses it again')
        : act('Hold', () => api.holdRecord(project, r.id), 'Held: kept out of answers until you release it'),
    );
  }
  if (r.forgettable) {
    actions.append(confirmButton('Forget', 'Really forget?', 'small danger', () => api.forgetRecord(project, r.id).then(reload), 'Forgotten — a tombstone keeps Charlie from learning it again'));
  }
  return item;
}
