/**
 * The owner's Settings page: which model does each job and where it runs, voice, embedder, the
 * doctor's last model check (read-only); then "Run checks" and each project's style and response
 * mode (settings-checks.ts).
 */
import { api } from './api.js';
import { clear, h } from './dom.js';
import { editableSettings } from './settings-checks.js';

export async function renderSettings(main: HTMLElement): Promise<void> {
  const [view, editable] = await Promise.all([api.settings(), editableSettings()]);
  clear(
    main,
    h('header', { class: 'view-head' }, h('h1', {}, 'Settings')),
    h('p', { class: 'meta' }, 'What Charlie uses for each job, and whether it runs on your own machines. To change it, edit .env and restart Charlie.'),
    h(
      'table',
      { class: 'settings' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Job'), h('th', { scope: 'col' }, 'Done by'), h('th', { scope: 'col' }, 'Runs on'), h('th', { scope: 'col' }, 'Private?'))),
      h(
        'tbody',
        {},
        view.items.map((i) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, i.job),
            h('td', {}, i.what),
            h('td', {}, i.where),
            h(
              'td',
              {},
              h('span', { class: `chip-field ${i.local ? 'manual' : 'sensitivity-sensitive'}` }, i.local ? 'stays here' : 'leaves this network'),
              i.why ? h('div', { class: 'why' }, i.why) : null,
            ),
          ),
        ),
      ),
    ),
    h('h2', {}, 'Last model check'),
    h('p', {}, view.doctor),
    ...editable,
  );
}
