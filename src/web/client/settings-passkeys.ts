/**
 * Settings › Your passkeys, for a household member: the passkeys that sign them in, and "Add a
 * passkey for this device". Someone signed in with a Discord `/web` link who adds one becomes a
 * member as that same Discord person: next time the passkey alone signs them in. Server:
 * src/web/api-members.ts (`/api/me/passkeys`).
 */
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { call } from './api.js';
import { clear, h, toast } from './dom.js';
import type { OwnPasskeysWire } from '../shared/members.js';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The browser's refusal in words (cancelled, or this device already has one). */
function words(e: unknown): string {
  const name = e instanceof Error ? e.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'No passkey was made (it was cancelled or took too long).';
  if (name === 'InvalidStateError') return 'This device already has a passkey for you here.';
  return e instanceof Error ? e.message : String(e);
}

export async function passkeysSection(): Promise<HTMLElement> {
  const section = h('section', { class: 'own-passkeys', 'aria-labelledby': 'own-passkeys-title' });
  const draw = async () => {
    const { passkeys } = await call<OwnPasskeysWire>('GET', '/api/me/passkeys');
    const add = h('button', { type: 'button', class: 'primary' }, 'Add a passkey for this device');
    add.addEventListener('click', () => {
      add.disabled = true;
      (async () => {
        const { ceremony, options } = await call<{ ceremony: string; options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>('POST', '/api/me/passkeys/options', {});
        const response = await startRegistration({ optionsJSON: options });
        await call('POST', '/api/me/passkeys/verify', { ceremony, response });
      })()
        .then(() => draw())
        .then(() => toast('Passkey made: next time, sign in with "Use my passkey".'))
        .catch((e: unknown) => {
          add.disabled = false;
          toast(words(e), 'error');
        });
    });
    const live = passkeys.filter((p) => !p.revoked);
    clear(
      section,
      h('h2', { id: 'own-passkeys-title' }, 'Your passkeys'),
      live.length === 0
        ? h('p', { class: 'meta' }, 'No passkey signs you in yet. Make one on this device, and next time sign in with your fingerprint, face or screen lock.')
        : h(
            'ul',
            {},
            live.map((p) => h('li', {}, `On ${p.label}, made ${when(p.created)}${p.lastUsed ? `, last used ${when(p.lastUsed)}` : ''}`)),
          ),
      browserSupportsWebAuthn() ? add : h('p', { class: 'meta' }, 'This browser cannot make passkeys.'),
    );
  };
  await draw();
  return section;
}
