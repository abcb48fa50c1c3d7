/**
 * The web client's shell: who is signed in, the projects sidebar (plus the private conversation),
 * a hash router over chat, inspector, pages and graph, and the service worker that makes the
 * shell work offline and the app installable.
 */
import { api, ApiError, type Me, type ProjectList } from './api.js';
import { $, clear, h, icon, toast } from './dom.js';
import { watchConnection } from './offline.js';
import { archivedList, PROJECTS_CHANGED } from './project-menu.js';
import { conversationMenu } from './conversation-menu.js';
import { installShortcuts } from './shortcuts.js';
import { enterView, leaveView, renderView } from './router-views.js';
import { ROUTE_VIEWS, type Route } from './views.js';
import { startReminderFeed } from './reminders.js';

function parseRoute(list: ProjectList): Route {
  const parts = location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .map((p) => decodeURIComponent(p));
  const [view = 'chat', project = '', ...rest] = parts;
  const fallback = list.projects[0]?.project ?? list.private.project;
  const known = project === list.private.project || list.projects.some((p) => p.project === project);
  const v = ROUTE_VIEWS.find((x) => x === view) ?? 'chat';
  return { view: v, project: known ? project : fallback, rest: rest.join('/') };
}

function titleOf(list: ProjectList, project: string): string {
  return project === list.private.project ? list.private.name : (list.projects.find((p) => p.project === project)?.name ?? project);
}

function sidebar(list: ProjectList, route: Route, me: Me, onNew: (name: string) => void): HTMLElement[] {
  const link = (project: string, name: string, kind: 'lock' | 'hash' | 'dot') =>
    h(
      'li',
      {},
      h(
        'a',
        {
          href: `#/${route.view === 'page' ? 'inspect' : route.view}/${encodeURIComponent(project)}`,
          class: project === route.project ? 'active' : '',
          'aria-current': project === route.project ? 'page' : null,
        },
        icon(kind),
        name,
      ),
      project === route.project && route.view === 'chat' ? conversationMenu(project, route.rest) : null,
    );
  const input = h('input', { type: 'text', id: 'new-project', placeholder: 'New project…', 'aria-label': 'New project name', maxlength: 80 });
  const form = h('form', { class: 'new-project' }, input, h('button', { type: 'submit', class: 'small' }, 'Add'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (input.value.trim()) onNew(input.value.trim());
  });
  return [
    h(
      'nav',
      { 'aria-label': 'Projects' },
      h('h2', {}, 'Private'),
      h('ul', {}, link(list.private.project, 'Private chat', 'lock')),
      h('h2', {}, 'Projects'),
      h(
        'ul',
        {},
        list.projects.filter((p) => !p.archived).map((p) => link(p.project, p.name, p.discord ? 'hash' : 'dot')),
      ),
      archivedList(list.projects, (project) => `#/chat/${encodeURIComponent(project)}`),
    ),
    form,
    ...(me.toolServers?.length
      ? [
          h(
            'section',
            { class: 'tool-servers', 'aria-label': 'Tool servers' },
            h('h2', {}, 'Tool servers'),
            h(
              'ul',
              {},
              me.toolServers.map((l) => h('li', {}, l)),
            ),
          ),
        ]
      : []),
    // everyone has Settings: a member's holds what they let go to hosted services (settings-privacy.ts)
    h('a', { href: `#/settings/${encodeURIComponent(route.project)}`, class: route.view === 'settings' ? 'settings-link active' : 'settings-link' }, 'Settings'),
    h('div', { class: 'whoami' }, `Signed in as ${me.name}`, ' ', h('button', { type: 'button', class: 'small link', onclick: () => void api.logout().then(() => location.reload()) }, 'Sign out')),
    h('footer', { class: 'version' }, `Charlie ${me.version}`),
  ];
}

function viewTabs(route: Route): HTMLElement[] {
  const p = encodeURIComponent(route.project);
  const tab = (view: string, label: string, href: string) =>
    h('a', { href, class: route.view === view || (view === 'inspect' && route.view === 'page') ? 'active' : '', 'aria-current': route.view === view ? 'page' : null }, label);
  return [tab('chat', 'Chat', `#/chat/${p}`), tab('inspect', 'Memory', `#/inspect/${p}/records`), tab('graph', 'Graph', `#/graph/${p}`), tab('reminders', 'Reminders', `#/reminders/${p}`)];
}

type Theme = 'system' | 'light' | 'dark';
const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

/** System follows prefers-color-scheme (the CSS's light-dark()); Light and Dark are kept on this device. */
function applyTheme(theme: Theme, button: HTMLElement | null): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  if (button) {
    clear(button, icon('theme'), h('span', { class: 'label' }, `Theme: ${theme[0]?.toUpperCase()}${theme.slice(1)}`));
    button.title = 'Switch between the system’s theme, light and dark';
  }
}

function storedTheme(): Theme {
  try {
    return THEMES.find((t) => t === localStorage.getItem('charlie-theme')) ?? 'system';
  } catch {
    return 'system';
  }
}

function themeButton(): HTMLElement {
  const button = h('button', { type: 'button', id: 'theme-button', class: 'small' });
  applyTheme(storedTheme(), button);
  button.addEventListener('click', () => {
    const next = THEMES[(THEMES.indexOf(storedTheme()) + 1) % THEMES.length] ?? 'system';
    try {
      localStorage.setItem('charlie-theme', next);
    } catch {
      // private mode: the choice lasts for this page only
    }
    applyTheme(next, button);
  });
  return button;
}

async function start(): Promise<void> {
  applyTheme(storedTheme(), null);
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  const main = $('#main');
  const side = $('#sidebar');
  const menu = $('#menu-button');
  $('.topbar').append(themeButton());
  // On a phone the side menu slides away: then it is out of the tab order and hidden from screen readers too.
  const phone = window.matchMedia('(max-width: 760px)');
  const setMenu = (open: boolean) => {
    document.body.classList.toggle('menu-open', open);
    menu.setAttribute('aria-expanded', String(open));
    side.inert = phone.matches && !open;
  };
  setMenu(false);
  phone.addEventListener('change', () => setMenu(false));
  menu.addEventListener('click', () => {
    const open = !document.body.classList.contains('menu-open');
    setMenu(open);
    if (open) side.querySelector<HTMLElement>('a.active, a')?.focus();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && document.body.classList.contains('menu-open')) {
      setMenu(false);
      menu.focus();
    }
  });
  // what the network coming back does: set below, once it is known whether the app started
  let onBack = () => {};
  watchConnection(() => onBack());
  let me: Me;
  try {
    me = await api.me();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      document.body.classList.add('signed-out');
      clear(
        main,
        h(
          'section',
          { class: 'login-box' },
          h('h1', {}, 'Sign in'),
          h('p', {}, 'Open the login link Charlie printed when it started, or ask Charlie for one with /web in a Discord DM. With a passkey: follow the button below, then press Use my passkey.'),
          h('a', { class: 'button primary', href: '/login' }, 'Sign in with a token'),
        ),
      );
      return;
    }
    const offline = !navigator.onLine;
    clear(
      main,
      h('p', { class: 'error', role: 'alert' }, offline ? 'You are offline. Charlie opens by itself when the network is back.' : 'Charlie cannot be reached right now. Reload the page in a moment.'),
    );
    onBack = () => location.reload(); // the start is tried again when the network returns
    return;
  }
  document.title = me.assistant;
  $('.brand').textContent = me.assistant;
  let list = await api.projects();
  startReminderFeed();
  let dispose: () => void = () => {};
  let current = 0;
  const draw = async () => {
    const seq = ++current;
    dispose();
    dispose = () => {};
    setMenu(false);
    const route = parseRoute(list);
    clear(
      side,
      sidebar(list, route, me, (name) => {
        void api
          .createProject(name)
          .then(async (made) => {
            list = await api.projects();
            location.hash = `#/chat/${encodeURIComponent(made.project)}`;
          })
          .catch((e: unknown) => toast(String(e), 'error'));
      }),
    );
    clear($('#view-tabs'), viewTabs(route));
    const title = titleOf(list, route.project);
    const view = enterView(main);
    main.setAttribute('aria-busy', 'true');
    let drawn: (() => void) | undefined;
    try {
      drawn = await renderView(view, route, title, me, list);
    } catch (err) {
      const words =
        err instanceof TypeError
          ? navigator.onLine
            ? 'Charlie cannot be reached right now. Try again in a moment.'
            : 'You are offline. This view loads by itself when the network is back.'
          : err instanceof Error
            ? err.message
            : String(err);
      clear(view, h('p', { class: 'error view-error', role: 'alert' }, words));
    }
    if (seq !== current) {
      // a newer route was asked for while this view loaded: it never reaches the screen
      drawn?.();
      leaveView(main, view, false);
      return;
    }
    if (drawn) dispose = drawn;
    leaveView(main, view, true);
    main.removeAttribute('aria-busy');
  };
  window.addEventListener('hashchange', () => void draw());
  // a view that could not load while offline is drawn again when the network returns
  onBack = () => {
    if (main.querySelector('.view-error')) void draw();
  };
  window.addEventListener(PROJECTS_CHANGED, () => void api.projects().then((next) => ((list = next), draw())));
  installShortcuts();
  await draw();
}

void start();
