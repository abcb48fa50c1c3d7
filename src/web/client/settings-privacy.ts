/**
 * Settings › Privacy, for everyone signed in: which way "Ask in the moment" goes (the mode line of
 * `/privacy consents`) and the person's own answers — item (named, never shown), service, once /
 * always / revoked, when — with Revoke for a standing "always". Server: src/web/api-privacy.ts.
 */
import { api } from './api.js';
import type { ConsentGrantWire } from '../shared/consent.js';
import { clear, h, toast } from './dom.js';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function state(g: ConsentGrantWire): string {
  if (g.answer === 'once') return 'once';
  return g.revoked ? `always, revoked ${when(g.revoked)}` : 'always';
}

/** The section, drawn now and again after each Revoke. */
export async function privacySection(): Promise<HTMLElement> {
  const section = h('section', { class: 'privacy', 'aria-labelledby': 'privacy-title' });
  const draw = async () => {
    const ledger = await api.consents();
    const row = (g: ConsentGrantWire) =>
      h(
        'tr',
        { 'data-grant': g.id },
        h('th', { scope: 'row' }, g.item.label),
        h('td', {}, `${g.service.what} ${g.service.id}`),
        h('td', {}, h('span', { class: `chip-field ${g.standing ? 'sensitivity-sensitive' : 'manual'}` }, state(g))),
        h('td', {}, h('time', { datetime: g.at }, when(g.at))),
        h(
          'td',
          {},
          g.standing
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'small revoke',
                  'aria-label': `Revoke "always" for ${g.item.label}`,
                  onclick: () =>
                    void api
                      .revokeConsent(g.id)
                      .then(() => draw())
                      .then(() => toast('Revoked: from the next answer on you are asked again.'))
                      .catch((e: unknown) => toast(e instanceof Error ? e.message : String(e), 'error')),
                },
                'Revoke',
              )
            : null,
        ),
      );
    clear(
      section,
      h('h2', { id: 'privacy-title' }, 'Privacy: what you let go to hosted services'),
      h('p', { class: 'mode-line' }, ledger.modeLine),
      ledger.consents.length === 0
        ? h('p', { class: 'meta' }, 'You have not let anything go to a hosted service.')
        : h(
            'table',
            { class: 'settings consents' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, 'Item'),
                h('th', { scope: 'col' }, 'Sent to'),
                h('th', { scope: 'col' }, 'Answer'),
                h('th', { scope: 'col' }, 'When'),
                h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Revoke')),
              ),
            ),
            h('tbody', {}, ledger.consents.map(row)),
          ),
    );
  };
  await draw();
  return section;
}
