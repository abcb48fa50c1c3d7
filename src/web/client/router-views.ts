/**
 * Each route's view is drawn into its own container (`main > .view`). The view on screen stays
 * (inert) until the next one has drawn something (CSS hides it then), and a view that is still
 * loading when a newer route is asked for is dropped: it finishes drawing into a detached
 * container, so a slow view can never replace a faster, newer one.
 */
import type { Me, ProjectList } from './api.js';
import type { Route } from './views.js';
import { renderChat } from './chat.js';
import { dropStaleToast, h } from './dom.js';
import { renderInspector, renderPage } from './inspector.js';
import { renderReminders } from './reminders.js';

/** A new, empty container for the next view; unfinished ones of older routes are dropped. */
export function enterView(main: HTMLElement): HTMLElement {
  dropStaleToast();
  for (const old of [...main.children]) {
    if (!(old instanceof HTMLElement)) continue;
    if (old.classList.contains('view') && old.dataset.done !== 'yes') old.remove();
    else old.inert = true; // the view on screen takes no input while the next one loads
  }
  const view = h('div', { class: 'view' });
  main.append(view);
  return view;
}

/** The view has drawn: it replaces everything else in `main` when still `current`, else it goes. */
export function leaveView(main: HTMLElement, view: HTMLElement, current: boolean): void {
  if (!current) {
    view.remove();
    main.dataset.dropped = String(Number(main.dataset.dropped ?? 0) + 1);
    return;
  }
  view.dataset.done = 'yes';
  for (const other of [...main.children]) if (other !== view) other.remove();
}

/** Draws the route's view into `view`; a graph returns how to stop it. */
export async function renderView(view: HTMLElement, route: Route, title: string, me: Me, list: ProjectList): Promise<(() => void) | undefined> {
  if (route.view === 'chat')
    await renderChat(
      view,
      route.project,
      title,
      me,
      route.rest,
      list.projects.find((p) => p.project === route.project),
    );
  else if (route.view === 'inspect') await renderInspector(view, route.project, title, route.rest || 'records');
  else if (route.view === 'page') await renderPage(view, route.project, route.rest);
  else if (route.view === 'settings') await (await import('./settings-view.js')).renderSettings(view, me, { project: route.project, title, isPrivate: route.project === list.private.project });
  else if (route.view === 'reminders') await renderReminders(view, route.project, title);
  else return (await import('./graph-view.js')).renderGraph(view, route.project, title);
  return undefined;
}
