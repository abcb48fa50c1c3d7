/**
 * `/privacy consents` and `/privacy revoke ID`, the same text in the terminal and Discord (the
 * web app's Settings show the same ledger): which way asking in the moment goes, and the
 * person's own answers — never anyone else's. Items are named as the question named them.
 */
import type { PrivacyApi } from '../assistant-api.js';
import { DESTINATIONS } from './destinations.js';
import { itemLabel, type ConsentGrant } from './consent.js';

export const PRIVACY_HELP = '/privacy consents — what you let go to hosted services · /privacy revoke ID — end an "always"';

/** One line of the mode: which way is on, and how to change it. */
export function consentModeLine(mode: 'ask' | 'withhold'): string {
  return mode === 'ask'
    ? 'consent: ask — before anything marked sensitive goes to a hosted service, the person it is about is asked (CONSENT_MODE=ask)'
    : 'consent: withhold — anything marked sensitive never goes to a hosted service; nobody is asked (CONSENT_MODE=withhold; set ask to be asked)';
}

function grantLine(g: ConsentGrant): string {
  const state = g.answer === 'once' ? 'once' : g.revoked ? `always, revoked ${g.revoked.slice(0, 10)}` : 'always';
  return `${g.id}  ${itemLabel(g.item)} → ${DESTINATIONS[g.service.kind].what} ${g.service.id} · ${state} · ${g.at.slice(0, 16).replace('T', ' ')}`;
}

/** Runs `/privacy …` for `userId`; returns the text to show. */
export async function privacyCommand(args: string, privacy: PrivacyApi, userId: string): Promise<string> {
  const [sub = 'consents', id] = args.trim().split(/\s+/).filter(Boolean);
  if (sub === 'consents' || sub === 'list') {
    const grants = await privacy.consents(userId);
    const standing = grants.filter((g) => g.answer === 'always' && !g.revoked);
    return [
      consentModeLine(privacy.consentMode()),
      grants.length === 0 ? 'You have not let anything go to a hosted service.' : `${standing.length} standing, ${grants.length} answer(s) in all (newest first):`,
      ...grants.slice(0, 30).map(grantLine),
      ...(standing.length ? ['/privacy revoke ID ends an "always" from the next turn on.'] : []),
    ].join('\n');
  }
  if (sub === 'revoke') {
    if (!id) return 'usage: /privacy revoke ID (the id /privacy consents shows, e.g. c-1a2b3c4d)';
    return (await privacy.revokeConsent(userId, id)) ? `Revoked ${id}: from the next turn on you are asked again.` : `You have no standing "always" with the id ${id} (/privacy consents lists yours).`;
  }
  return `unknown: /privacy ${sub}\n${PRIVACY_HELP}`;
}
