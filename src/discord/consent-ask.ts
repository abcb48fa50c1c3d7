/**
 * Asking in the moment on Discord (issue 40): before an item labelled sensitive goes to a hosted
 * service, the person it is about answers with Once / Always for these / No — buttons only they
 * can press. The question names the service and each item by its label (`itemLabel`), never its
 * content. In a shared channel the question goes to the asker's DMs and the channel sees only a
 * line without item names; a DM that cannot be sent (DMs closed) is `no`, and the line says so.
 * In a DM conversation it is asked in place. No answer in time, or the turn ending first, is
 * `no`. The router leaves these buttons alone (prefix `consent-ask`): the waiting turn collects
 * the press itself, as with tool confirmations (tool-confirm.ts).
 */
import { ButtonStyle, escapeMarkdown, type SendableChannels, type User } from 'discord.js';
import { askWithButtons } from './button-question.js';
import { itemLabel, type ConsentAnswer, type ConsentAsk, type ConsentRequest } from '../core/privacy/consent.js';
import { DESTINATIONS } from '../core/privacy/destinations.js';

export const CONSENT_PREFIX = 'consent-ask';
/** Items named in one question; more are counted, so the question stays one Discord message. */
const ITEMS_SHOWN = 15;

const BUTTONS: { answer: ConsentAnswer; label: string; style: ButtonStyle }[] = [
  { answer: 'once', label: 'Once', style: ButtonStyle.Primary },
  { answer: 'always', label: 'Always for these', style: ButtonStyle.Secondary },
  { answer: 'no', label: 'No', style: ButtonStyle.Danger },
];

const OUTCOME: Record<ConsentAnswer, string> = {
  once: '✅ once — sent for this answer only',
  always: '✅ always — sent now and from now on (`/privacy consents` lists it, `/privacy revoke` ends it)',
  no: '✋ no — kept back',
};

function seconds(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.max(1, Math.round(ms / 1000))} seconds`;
}

/** The question: the service, and each item by where it lives, its name and kind — never what it says. */
export function consentQuestion(request: ConsentRequest, where?: string): string {
  const service = `${DESTINATIONS[request.service.kind].what} (**${escapeMarkdown(request.service.id)}**)`;
  const shown = request.items.slice(0, ITEMS_SHOWN).map((i) => `• ${escapeMarkdown(itemLabel(i))}`);
  const more = request.items.length > ITEMS_SHOWN ? [`• … and ${request.items.length - ITEMS_SHOWN} more`] : [];
  return [
    `🔒 To answer you${where ? ` in ${where}` : ''}, may I send ${request.items.length === 1 ? 'this item' : 'these items'}, marked private, to ${service}?`,
    ...shown,
    ...more,
    `Only their names are shown here. No answer within ${seconds(request.timeoutMs)} means no.`,
  ].join('\n');
}

/** Asks on `channel` with the three buttons; only `askerId` can answer. Throws when the question cannot be sent. */
async function askOn(channel: SendableChannels, askerId: string, text: string, timeoutMs: number, signal: AbortSignal, onSent = () => {}): Promise<ConsentAnswer> {
  const asked = await askWithButtons({ channel, askerId, text, choices: BUTTONS, prefix: CONSENT_PREFIX, timeoutMs, signal, refusal: 'Only the person this is about can answer this.', onSent });
  if (!asked) return 'no';
  if (!asked.click) {
    const why = asked.ended === 'time' ? '⌛ no answer in time — kept back' : '⏹ the turn ended first — kept back';
    await asked.message.edit({ content: `${text}\n${why}`, components: [] }).catch(() => undefined);
    return 'no';
  }
  await asked.click.update({ content: `${text}\n${OUTCOME[asked.answer]}`, components: [] }).catch(() => undefined);
  return asked.answer;
}

/** Where a Discord turn asks. */
export interface ConsentDoor {
  /** The person whose turn it is (asked by DM when the place is shared). */
  user: User;
  /** The conversation's channel: asked in place when it is not shared (a DM). */
  channel?: SendableChannels;
  /** Where others read (a shared channel): a line without item names once the DM went, or could not. */
  post?: (text: string) => Promise<unknown>;
  /** Called when the question is in the person's DMs (voice says "check your DMs"). */
  onDm?: () => void;
  /** Names the place in a DM question, e.g. `#general`. */
  where?: string;
}

/** The Discord way of asking (HandleOptions.consent.ask). */
export function discordConsentAsk(door: ConsentDoor): ConsentAsk {
  return async (request, signal) => {
    if (signal.aborted) return 'no';
    if (!request.shared && door.channel) return askOn(door.channel, request.asker.id, consentQuestion(request), request.timeoutMs, signal);
    const name = escapeMarkdown(request.asker.name);
    const line = (text: string) => void door.post?.(text).catch(() => undefined);
    const dm = { sent: false };
    try {
      const channel = await door.user.createDM();
      return await askOn(channel, request.asker.id, consentQuestion(request, door.where), request.timeoutMs, signal, () => {
        dm.sent = true;
        line(`🔒 I asked ${name} in a DM before using something private.`);
        door.onDm?.();
      });
    } catch {
      // DMs closed (Discord refuses the message), or no DM channel: nobody could answer
      if (!dm.sent) line(`🔒 I wanted to ask ${name} in a DM before using something private, but I could not send them a DM — so it stays out of this answer.`);
      return 'no';
    }
  };
}
