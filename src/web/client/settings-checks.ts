/**
 * The Settings page's editable parts: "Run checks" (the doctor, run on the server) with each
 * check's result, and each project's response style and mode (saved as `/project style` and
 * `/project respond` save them). Server routes: src/web/api-settings.ts.
 */
import { call } from './api.js';
import { clear, h } from './dom.js';

interface CheckLine {
  part: string;
  name: string;
  status: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  fix?: string;
  ms: number;
}
interface ChecksRun {
  at: string;
  ms: number;
  checks: CheckLine[];
}
interface ProjectSettings {
  project: string;
  name: string;
  style: string;
  respond: 'always' | 'mention';
}

const WORD: Record<CheckLine['status'], string> = { ok: 'works', warn: 'degraded', fail: 'fails', skip: 'not used' };

function runTable(run: ChecksRun): HTMLElement {
  const c = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const r of run.checks) c[r.status]++;
  const when = new Date(run.at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return h(
    'div',
    { class: 'check-run' },
    h('p', { class: 'check-summary' }, `${when}: ${c.ok} work, ${c.warn} degraded, ${c.fail} failing, ${c.skip} not used (${(run.ms / 1000).toFixed(1)} s).`),
    h(
      'table',
      { class: 'settings checks' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Part'), h('th', { scope: 'col' }, 'Check'), h('th', { scope: 'col' }, 'Result'))),
      h(
        'tbody',
        {},
        run.checks.map((r) =>
          h(
            'tr',
            { class: `check status-${r.status}` },
            h('td', {}, r.part),
            h('th', { scope: 'row' }, r.name),
            h(
              'td',
              {},
              h('span', { class: `chip-field check-${r.status}` }, WORD[r.status]),
              ' ',
              r.detail,
              r.fix && (r.status === 'warn' || r.status === 'fail') ? h('div', { class: 'why' }, `What to do: ${r.fix}`) : null,
            ),
          ),
        ),
      ),
    ),
  );
}

async function checksSection(): Promise<HTMLElement> {
  const { available, run } = await call<{ available: boolean; run: ChecksRun | null }>('GET', '/api/settings/checks');
  const results = h('div', { class: 'check-results' }, run ? runTable(run) : h('p', { class: 'meta' }, 'No checks run from here yet.'));
  const status = h('p', { class: 'meta', role: 'status' });
  const button = h('button', { type: 'button', id: 'run-checks', class: 'primary', disabled: !available }, 'Run checks');
  button.addEventListener('click', () => {
    button.disabled = true;
    status.textContent = 'Checking every part Charlie uses… (this can take a minute)';
    call<{ run: ChecksRun; fresh: boolean }>('POST', '/api/settings/checks')
      .then(({ run: done, fresh }) => {
        clear(results, runTable(done));
        status.textContent = fresh ? 'Done.' : 'These are the results of a run that finished less than a minute ago.';
      })
      .catch((e: unknown) => {
        status.textContent = '';
        clear(results, h('p', { class: 'error', role: 'alert' }, `The checks did not run: ${e instanceof Error ? e.message : String(e)}`));
      })
      .finally(() => {
        button.disabled = false;
      });
  });
  return h(
    'section',
    { class: 'settings-checks', 'aria-labelledby': 'checks-title' },
    h('h2', { id: 'checks-title' }, 'Checks'),
    h('p', { class: 'meta' }, available ? 'Runs the same checks as npm run doctor, here on the server.' : 'Checks cannot be run from here: run npm run doctor on the server.'),
    button,
    status,
    results,
  );
}

function projectForm(p: ProjectSettings, styleMax: number): HTMLElement {
  const id = (what: string) => `${what}-${p.project}`;
  const style = h('input', { type: 'text', id: id('style'), name: 'style', value: p.style, placeholder: 'e.g. short answers, British spelling', 'aria-describedby': id('result') });
  const respond = h(
    'select',
    { id: id('respond'), name: 'respond' },
    h('option', { value: 'always', selected: p.respond === 'always' }, 'every message'),
    h('option', { value: 'mention', selected: p.respond === 'mention' }, 'only when mentioned or replied to'),
  );
  const result = h('p', { id: id('result'), class: 'form-result', role: 'status' });
  const save = h('button', { type: 'submit', class: 'small' }, 'Save');
  const form = h(
    'form',
    { class: 'project-settings', 'data-project': p.project, 'aria-labelledby': id('name') },
    h('h3', { id: id('name') }, p.name),
    h('label', { for: id('style') }, 'Response style'),
    style,
    h('label', { for: id('respond') }, 'Answers'),
    respond,
    save,
    result,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    result.className = 'form-result';
    if (style.value.length > styleMax) {
      result.classList.add('error');
      result.textContent = `Not saved: a style is at most ${styleMax} characters (this one has ${style.value.length}).`;
      return;
    }
    save.disabled = true;
    call<ProjectSettings>('PUT', `/api/settings/projects/${encodeURIComponent(p.project)}`, { style: style.value, respond: respond.value })
      .then((saved) => {
        style.value = saved.style;
        result.textContent = `Saved: ${saved.style ? `“${saved.style}”` : 'the default style'}, answering ${saved.respond === 'always' ? 'every message' : 'only when mentioned'}.`;
      })
      .catch((err: unknown) => {
        result.classList.add('error');
        result.textContent = `Not saved: ${err instanceof Error ? err.message : String(err)}`;
      })
      .finally(() => {
        save.disabled = false;
      });
  });
  return form;
}

async function projectsSection(): Promise<HTMLElement> {
  const { projects, styleMax } = await call<{ projects: ProjectSettings[]; styleMax: number }>('GET', '/api/settings/projects');
  return h(
    'section',
    { class: 'settings-projects', 'aria-labelledby': 'projects-title' },
    h('h2', { id: 'projects-title' }, 'Projects'),
    h('p', { class: 'meta' }, 'How Charlie answers in each project: the same as /project style and /project respond in its Discord channel.'),
    projects.length ? projects.map((p) => projectForm(p, styleMax)) : h('p', { class: 'empty' }, 'No projects yet: add one in the side menu.'),
  );
}

/** The sections, for the owner's Settings page (settings-view.ts). */
export async function editableSettings(): Promise<HTMLElement[]> {
  return Promise.all([checksSection(), projectsSection()]);
}
