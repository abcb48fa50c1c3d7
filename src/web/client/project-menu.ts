/**
 * Renaming and archiving a project from the chat's header, and the sidebar's "Archived" list. A
 * rename changes the name shown everywhere (project.md's `name`), never the folder; archiving
 * hides the project from the list, and Unarchive (here or in the sidebar) brings it back. The
 * shell redraws on `charlie:projects-changed`.
 */
import { api, type ProjectItem } from './api.js';
import { openInlineRename } from './inline-rename.js';
import { h, icon, toast } from './dom.js';

export const PROJECTS_CHANGED = 'charlie:projects-changed';

const changed = () => window.dispatchEvent(new Event(PROJECTS_CHANGED));

const failed = (e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error');

/** Rename / Archive (or Unarchive) for a project's heading; nothing for the private conversation. */
export function projectActions(project: ProjectItem | undefined, heading: HTMLElement): HTMLElement | null {
  if (!project) return null;
  const box = h('div', { class: 'project-actions' });
  const rename = h('button', { type: 'button', class: 'small rename' }, 'Rename');
  const archive = h('button', { type: 'button', class: `small ${project.archived ? 'unarchive' : 'archive'}` }, project.archived ? 'Unarchive' : 'Archive');
  rename.addEventListener('click', () =>
    openInlineRename({
      heading,
      box,
      opener: rename,
      id: 'rename-project',
      label: 'New name of the project',
      maxLength: 80,
      current: () => project.name,
      save: (name) =>
        void api
          .relabelProject(project.project, { name })
          .then((r) => {
            toast(`Renamed to ${r.name}`);
            changed();
          })
          .catch(failed),
    }),
  );
  archive.addEventListener('click', () => {
    const archived = !project.archived;
    api
      .relabelProject(project.project, { archived })
      .then(() => {
        toast(archived ? `${project.name} is archived: find it under Archived in the side menu` : `${project.name} is back in the list`);
        changed();
      })
      .catch(failed);
  });
  box.append(rename, archive);
  return box;
}

/** The sidebar's folded list of archived projects, each with Unarchive. */
export function archivedList(projects: readonly ProjectItem[], href: (project: string) => string): HTMLElement | null {
  const archived = projects.filter((p) => p.archived);
  if (!archived.length) return null;
  return h(
    'details',
    { class: 'archived-projects' },
    h('summary', {}, `Archived (${archived.length})`),
    h(
      'ul',
      {},
      archived.map((p) =>
        h(
          'li',
          {},
          h('a', { href: href(p.project) }, icon('dot'), p.name),
          ' ',
          h(
            'button',
            {
              type: 'button',
              class: 'small link unarchive',
              'aria-label': `Unarchive ${p.name}`,
              onclick: () => void api.relabelProject(p.project, { archived: false }).then(() => changed(), failed),
            },
            'Unarchive',
          ),
        ),
      ),
    ),
  );
}
