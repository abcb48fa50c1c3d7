/**
 * Settings › Members, the owner's: invite someone in the household (a name, a role from the role
 * table, optionally their Discord account), which gives a single-use link to send them; then each
 * member with their devices (passkeys) and open sessions, each with Remove / End, and a new
 * invite link for a member's next device. Server: src/web/api-members.ts.
 */
import { call } from './api.js';
import { clear, confirmButton, h, toast } from './dom.js';
import type { InviteWire, MembersWire, MemberWire } from '../shared/members.js';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const enc = encodeURIComponent;

function stateOf(m: MemberWire): string {
  if (m.revoked) return `removed ${when(m.revoked)}`;
  if (m.passkeys.some((p) => !p.revoked)) return 'signs in with a passkey';
  if (m.invite?.state === 'open') return `invited, link valid until ${when(m.invite.expires)}`;
  if (m.invite?.state === 'expired') return 'invite expired: make a new link';
  return 'no device: make a new link';
}

/** The link to send, once: shown in a box with Copy. */
function linkBox(invite: InviteWire, name: string): HTMLElement {
  const input = h('input', { type: 'text', readonly: 'readonly', value: invite.link, 'aria-label': `Invite link for ${name}`, class: 'invite-link' });
  return h(
    'div',
    { class: 'invite-made', role: 'status' },
    h('p', {}, `Send this link to ${name} (it works once, until ${when(invite.expires)}). Open it on the phone they will use:`),
    input,
    h(
      'button',
      {
        type: 'button',
        class: 'small',
        onclick: () =>
          void navigator.clipboard
            .writeText(invite.link)
            .then(() => toast('Link copied.'))
            .catch(() => {
              input.select();
              toast('Select the link and copy it.', 'error');
            }),
      },
      'Copy',
    ),
  );
}

export async function membersSection(): Promise<HTMLElement> {
  const section = h('section', { class: 'members', 'aria-labelledby': 'members-title' });
  const made = h('div', {});
  const fail = (e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error');
  const draw = async () => {
    const list = await call<MembersWire>('GET', '/api/members');
    const name = h('input', { id: 'invite-name', name: 'name', type: 'text', required: 'required', maxlength: '80', autocomplete: 'off' });
    const role = h(
      'select',
      { id: 'invite-role', name: 'role' },
      list.roles.map((r) => h('option', { value: r, selected: r === 'member' }, r)),
    );
    const discord = h('input', { id: 'invite-discord', name: 'discord', type: 'text', inputmode: 'numeric', autocomplete: 'off', placeholder: 'optional', 'aria-describedby': 'invite-discord-why' });
    const form = h(
      'form',
      { class: 'invite-form' },
      h('label', { for: 'invite-name' }, 'Name'),
      name,
      h('label', { for: 'invite-role' }, 'Role'),
      role,
      h('label', { for: 'invite-discord' }, 'Discord user id'),
      discord,
      h('button', { type: 'submit', class: 'primary' }, 'Invite'),
    );
    const why = h(
      'p',
      { class: 'meta', id: 'invite-discord-why' },
      'With their Discord user id they are the same person as on Discord: the same private chat, page about them and privacy answers. In Discord: turn on Developer Mode, then right-click the person › Copy User ID.',
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      call<InviteWire>('POST', '/api/members', { name: name.value, role: role.value, discordId: discord.value })
        .then((invite) => draw().then(() => clear(made, linkBox(invite, invite.member?.name ?? name.value))))
        .catch(fail);
    });
    const device = (m: MemberWire, p: MemberWire['passkeys'][number]) =>
      h(
        'li',
        { 'data-passkey': p.id },
        `Passkey on ${p.label}, made ${when(p.created)}${p.lastUsed ? `, last used ${when(p.lastUsed)}` : ''}`,
        p.revoked
          ? h('span', { class: 'meta' }, ` — removed ${when(p.revoked)}`)
          : confirmButton(
              'Remove device',
              `Remove ${p.label}?`,
              'small revoke',
              () => call('DELETE', `/api/members/${enc(m.id)}/passkeys/${enc(p.id)}`).then(draw),
              'Device removed: its passkey no longer signs in.',
            ),
      );
    const session = (m: MemberWire, s: MemberWire['sessions'][number]) =>
      h(
        'li',
        { 'data-session': s.id },
        `Signed in on ${s.label} since ${when(s.created)}`,
        s.revoked
          ? h('span', { class: 'meta' }, ` — ended ${when(s.revoked)}`)
          : confirmButton('End session', 'End it?', 'small revoke', () => call('DELETE', `/api/members/${enc(m.id)}/sessions/${enc(s.id)}`).then(draw), 'Session ended.'),
      );
    const row = (m: MemberWire) =>
      h(
        'tr',
        { 'data-member': m.id },
        h('th', { scope: 'row' }, m.name),
        h('td', {}, m.role),
        h('td', {}, m.discord ? 'linked to Discord' : 'web only'),
        h(
          'td',
          {},
          stateOf(m),
          h(
            'ul',
            { class: 'devices' },
            m.passkeys.map((p) => device(m, p)),
            m.sessions.map((s) => session(m, s)),
          ),
        ),
        h(
          'td',
          {},
          m.revoked
            ? null
            : [
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'small',
                    onclick: () =>
                      void call<InviteWire>('POST', `/api/members/${enc(m.id)}/invite`)
                        .then((invite) => draw().then(() => clear(made, linkBox(invite, m.name))))
                        .catch(fail),
                  },
                  'New invite link',
                ),
                confirmButton('Remove member', `Remove ${m.name}?`, 'small revoke', () => call('DELETE', `/api/members/${enc(m.id)}`).then(draw), `${m.name} can no longer sign in.`),
              ],
        ),
      );
    clear(
      section,
      h('h2', { id: 'members-title' }, 'Members'),
      h('p', { class: 'meta' }, `Invite someone in your household: they open the link on their phone and make a passkey, then sign in with it. A link works once, for ${list.inviteHours} hours.`),
      form,
      why,
      made,
      list.members.length === 0
        ? h('p', { class: 'meta' }, 'Nobody is invited yet.')
        : h(
            'table',
            { class: 'settings members-list' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, 'Name'),
                h('th', { scope: 'col' }, 'Role'),
                h('th', { scope: 'col' }, 'Discord'),
                h('th', { scope: 'col' }, 'Devices'),
                h('th', { scope: 'col' }, 'Actions'),
              ),
            ),
            h('tbody', {}, list.members.map(row)),
          ),
    );
  };
  await draw();
  return section;
}
