/**
 * The app's views, one list: the router (app.ts) and the inspector's tabs (inspector.ts) read
 * it, and the accessibility test walks it (every view, desktop and phone, light and dark), so a
 * view added here is checked by axe-core without touching the test.
 */
export const ROUTE_VIEWS = ['chat', 'inspect', 'graph', 'page', 'settings', 'reminders'] as const;
export type RouteView = (typeof ROUTE_VIEWS)[number];

/** Where the hash router is: a view, its project and the rest of the path (a page, a tab). */
export interface Route {
  view: RouteView;
  project: string;
  rest: string;
}

export const INSPECTOR_TABS = ['records', 'review', 'candidates', 'pages', 'recall'] as const;

/** Every screen a person can reach, as `#/` routes for a project (and a page of it). */
export function everyScreen(project: string, page: string): { name: string; hash: string }[] {
  const p = encodeURIComponent(project);
  return ROUTE_VIEWS.flatMap((view) => {
    if (view === 'inspect') return INSPECTOR_TABS.map((tab) => ({ name: `inspect/${tab}`, hash: `#/inspect/${p}/${tab}` }));
    if (view === 'page') return [{ name: 'page', hash: `#/page/${p}/${encodeURIComponent(page)}` }];
    if (view === 'settings') return [{ name: 'settings', hash: `#/settings/${p}` }];
    return [{ name: view, hash: `#/${view}/${p}` }];
  });
}
