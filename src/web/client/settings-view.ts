/**
 * The Settings page. The owner's: which model does each job and where it runs, voice, embedder,
 * the doctor's last model check (read-only); then "Run checks" and each project's style and
 * response mode (settings-checks.ts), and sync across devices (settings-sync.ts). Everyone's: what
 * is in use now, which the owner changes without a restart (settings-live.ts), the
 * machines of the project picked in the side menu (settings-machines.ts) and what they let go to
 * hosted services (settings-privacy.ts) — a member sees only those three.
 */
import { api, type Me } from './api.js';
import { clear, h } from './dom.js';
import { editableSettings } from './settings-checks.js';
import { machinesSection } from './settings-machines.js';
import { privacySection } from './settings-privacy.js';
import { syncSection } from './settings-sync.js';
import { liveSection } from './settings-live.js';

/** Which project's machines to show: the one the side menu has picked. */
interface SettingsPlace {
  project: string;
  title: string;
  isPrivate: boolean;
}

export async function renderSettings(main: HTMLElement, me: Me, at: SettingsPlace): Promise<void> {
  if (me.kind !== 'owner') {
    const [live, machines, privacy] = await Promise.all([liveSection(false, () => {}), machinesSection(me, at.project, at.title, at.isPrivate), privacySection()]);
    clear(main, h('header', { class: 'view-head' }, h('h1', {}, 'Settings')), live, machines, privacy);
    return;
  }
  const redraw = () => void renderSettings(main, me, at);
  const [view, live, editable, machines, sync, privacy] = await Promise.all([
    api.settings(),
    liveSection(true, redraw),
    editableSettings(),
    machinesSection(me, at.project, at.title, at.isPrivate),
    syncSection(),
    privacySection(),
  ]);
  clear(
    main,
    h('header', { class: 'view-head' }, h('h1', {}, 'Settings')),
    h(
      'p',
      { class: 'meta' },
      'What Charlie uses for each job, and whether it runs on your own machines. The model server and the voice change under Change below; the rest in .env (then restart Charlie).',
    ),
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
    live,
    ...editable,
    machines,
    sync,
    privacy,
  );
}
