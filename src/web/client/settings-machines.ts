/**
 * Settings › Machines, for everyone signed in: the machines and SSH logins memory knows in the
 * project picked in the side menu, each login as `user@host` with the signed-in person's
 * credential badge (what their own vault holds for it — never the secret). People who may change
 * shared memory (owner, editor: the role table's `edit-memory`) also get Revoke (their vault
 * entry), Forget host key and Forget (the machine's page); a member sees the list only, and the
 * server refuses them anyway. Server: src/web/api-machines.ts, the same book as `/machines`.
 */
import { ApiError, call, type Me } from './api.js';
import { clear, h, toast } from './dom.js';

interface MachineLogin {
  login: string;
  handle: string | null;
  badge: string;
}
interface Machine {
  name: string;
  path: string;
  hostKey: string | null;
  logins: MachineLogin[];
  revoked: string[];
}
type MachineAction = 'revoke' | 'forget' | 'forget-key';

const base = (project: string) => `/api/projects/${encodeURIComponent(project)}/machines`;

/** Whether the person's role may change shared memory (src/core/roles.ts, `edit-memory`). */
const mayChange = (me: Me) => me.kind === 'owner' || me.role === 'owner' || me.role === 'editor';

/** A badge's look: a secret this person holds, or none here. */
const badgeClass = (badge: string) => (badge === 'no credential' || badge.startsWith('credential not') ? 'chip-field' : 'chip-field check-ok');

/** A button that asks once more (its label turns into the question), then runs the action and shows the server's line. */
function actionButton(label: string, question: string, machine: string, act: () => Promise<string>): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'small', 'aria-label': `${label}: ${machine}` }, label);
  button.addEventListener('click', () => {
    if (button.dataset.confirm !== 'yes') {
      button.dataset.confirm = 'yes';
      button.textContent = question;
      button.setAttribute('aria-label', `${question} (${machine})`);
      return;
    }
    button.disabled = true;
    act()
      .then((line) => toast(line))
      .catch((e: unknown) => {
        button.disabled = false;
        toast(e instanceof Error ? e.message : String(e), 'error');
      });
  });
  return button;
}

function machineCard(m: Machine, actions: ((action: MachineAction, label: string, question: string) => HTMLButtonElement) | null): HTMLElement {
  const id = `machine-${m.path.replace(/[^a-z0-9]+/gi, '-')}`;
  return h(
    'article',
    { class: 'machine', 'data-machine': m.name, 'aria-labelledby': id },
    h('h3', { id }, m.name),
    h('p', { class: 'meta' }, m.hostKey ? ['host key ', h('code', {}, m.hostKey)] : 'no host key pinned yet'),
    m.logins.length || m.revoked.length
      ? h(
          'ul',
          { class: 'machine-logins' },
          m.logins.map((l) => h('li', {}, h('code', { class: 'login' }, l.login), ' ', h('span', { class: badgeClass(l.badge) }, l.badge))),
          m.revoked.map((r) => h('li', {}, h('code', { class: 'login' }, r), ' ', h('span', { class: 'chip-field status-superseded' }, 'revoked'))),
        )
      : h('p', { class: 'meta' }, 'No login known yet.'),
    actions
      ? h(
          'div',
          { class: 'machine-actions' },
          m.logins.length ? actions('revoke', 'Revoke', 'Delete your vault entry?') : null,
          m.hostKey ? actions('forget-key', 'Forget host key', 'Unpin the host key?') : null,
          actions('forget', 'Forget', 'Forget this machine?'),
        )
      : null,
  );
}

/** The section for `project` (the private conversation has no machines: they are kept in a project). */
export async function machinesSection(me: Me, project: string, title: string, isPrivate: boolean): Promise<HTMLElement> {
  const section = h('section', { class: 'settings-machines', 'aria-labelledby': 'machines-title' });
  const head = h('h2', { id: 'machines-title' }, isPrivate ? 'Machines' : `Machines in ${title}`);
  const draw = async (): Promise<void> => {
    if (isPrivate) {
      clear(section, head, h('p', { class: 'meta' }, 'Machines are kept in a project: pick one in the side menu to see the machines and logins Charlie knows there.'));
      return;
    }
    let machines: Machine[];
    try {
      ({ machines } = await call<{ machines: Machine[] }>('GET', base(project)));
    } catch (e) {
      const off = e instanceof ApiError && e.status === 501;
      clear(
        section,
        head,
        h('p', { class: off ? 'meta' : 'error' }, off ? 'Machines over SSH are off here (SSH_ENABLED=false).' : `The machines could not be read: ${e instanceof Error ? e.message : String(e)}`),
      );
      return;
    }
    const actions = (m: Machine) =>
      mayChange(me)
        ? (action: MachineAction, label: string, question: string) =>
            actionButton(label, question, m.name, async () => {
              const { line } = await call<{ line: string }>('POST', `${base(project)}/${encodeURIComponent(m.name)}/${action}`);
              await draw();
              return line;
            })
        : null;
    clear(
      section,
      head,
      h(
        'p',
        { class: 'meta' },
        'The machines Charlie connects to over SSH and the logins that worked, with what your own vault holds for each — never the secret itself.',
        mayChange(me) ? ' Revoke deletes your vault entry; Forget tombstones the machine’s page.' : ' Only the owner or an editor may revoke or forget them.',
      ),
      machines.length
        ? machines.map((m) => machineCard(m, actions(m)))
        : h('p', { class: 'empty' }, 'No machine is known here yet. Ask Charlie to connect to one (“connect to the NAS at 192.168.1.20, user admin”).'),
    );
  };
  await draw();
  return section;
}
