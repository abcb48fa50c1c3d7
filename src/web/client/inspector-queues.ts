/**
 * What waits for a person in the Memory Inspector: the review queue (pairs of records that
 * disagree: keep new, keep old, keep both, or hold the new one) and the promotion candidates
 * (what the gate keeps waiting, with its score; promote one now). Same operations as
 * `/memory review` and `/memory candidates`.
 */
import { api, type ReviewChoice, type ReviewPair, type Waiting } from './api.js';
import { clear, h, toast } from './dom.js';
import { day, pageHref } from './words.js';

const CHOICES: { choice: ReviewChoice; label: string; cls: string }[] = [
  { choice: 'keep-new', label: 'Keep new', cls: 'small primary' },
  { choice: 'keep-old', label: 'Keep old', cls: 'small' },
  { choice: 'keep-both', label: 'Keep both', cls: 'small' },
  { choice: 'hold', label: 'Hold', cls: 'small danger' },
];

function side(label: string, r: ReviewPair['old']): HTMLElement {
  return h(
    'div',
    { class: 'side' },
    h('span', { class: 'side-label' }, label),
    h('p', { class: 'record-text' }, r.statement),
    h('span', { class: 'meta', title: `record ${r.id}` }, r.said ? `said ${day(r.said)}` : 'said on a day not recorded'),
  );
}

export async function renderReview(body: HTMLElement, project: string): Promise<void> {
  const { pairs } = await api.review(project);
  const reload = () => renderReview(body, project);
  const items = pairs.map((pair) =>
    h(
      'li',
      { class: 'pair', 'data-old': pair.old.id, 'data-new': pair.new.id },
      h('div', { class: 'record-head' }, h('span', { class: 'badge review' }, 'review'), h('a', { href: pageHref(project, `notes/${pair.page}`) }, pair.title)),
      h('div', { class: 'sides' }, side('old', pair.old), side('new', pair.new)),
      h(
        'div',
        { class: 'actions', role: 'group', 'aria-label': `Resolve: ${pair.title}` },
        CHOICES.map((c) =>
          h(
            'button',
            {
              type: 'button',
              class: c.cls,
              onclick: () => {
                void api
                  .resolveReview(project, pair.new.id, c.choice)
                  .then(() => toast(`${c.label}: done`))
                  .then(reload)
                  .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error'));
              },
            },
            c.label,
          ),
        ),
      ),
    ),
  );
  clear(
    body,
    h(
      'p',
      { class: 'count', 'aria-live': 'polite' },
      pairs.length ? `${pairs.length} in review: these records disagree; the one you do not keep is marked superseded (kept on the page, out of answers).` : 'Nothing is in review.',
    ),
    h('ul', { class: 'records pairs', 'aria-label': 'Review queue' }, items),
  );
}

function scoreBar(c: Waiting): HTMLElement {
  return h('span', { class: 'score' }, h('meter', { min: 0, max: 1, value: Math.max(0, Math.min(1, c.score)), 'aria-label': `score ${c.score.toFixed(2)}` }), ` score ${c.score.toFixed(2)}`);
}

export async function renderCandidates(body: HTMLElement, project: string): Promise<void> {
  const { candidates } = await api.candidates(project);
  const reload = () => renderCandidates(body, project);
  const items = candidates.map((c) =>
    h(
      'li',
      { class: 'record candidate', 'data-key': c.key },
      h('div', { class: 'record-head' }, h('span', { class: 'badge candidate' }, 'waiting'), h('strong', {}, c.entity)),
      h('p', { class: 'record-text' }, c.text),
      h(
        'div',
        { class: 'chips' },
        c.type ? h('span', { class: 'chip-field type' }, c.type) : null,
        scoreBar(c),
        h(
          'span',
          { class: 'chip-field' },
          Object.entries(c.parts)
            .map(([k, v]) => `${k} ${v.toFixed(2)}`)
            .join(' · '),
        ),
        h('span', { class: 'chip-field' }, `expires ${c.expires.slice(0, 10)}`),
      ),
      h('blockquote', { class: 'said' }, c.message.length > 300 ? `${c.message.slice(0, 300)}…` : c.message),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'small primary',
            onclick: () => {
              void api
                .promote(project, c.key)
                .then(() => toast(`Promoted into ${c.entity}'s page`))
                .then(reload)
                .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error'));
            },
          },
          'Promote',
        ),
      ),
    ),
  );
  clear(
    body,
    h('p', { class: 'count', 'aria-live': 'polite' }, candidates.length ? `${candidates.length} waiting: promoted when said again, or now by hand (confidence 1).` : 'Nothing waits for promotion.'),
    h('ul', { class: 'records', 'aria-label': 'Promotion candidates' }, items),
  );
}
