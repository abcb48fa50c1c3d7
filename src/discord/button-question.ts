/**
 * A question with buttons only one person may press: the one way every Discord door asks in the
 * middle of a turn (a tool's confirmation, tool-confirm.ts; asking in the moment, consent-ask.ts).
 * The collector listens before the message is sent (a press that arrives before `send` resolves
 * is not lost), another person's press is refused privately, and no press within the time, the
 * turn's own deadline for the question or the turn ending resolve with no press and why.
 */
import { randomUUID } from 'node:crypto';
import { ComponentType, MessageFlags, type ButtonInteraction, type ButtonStyle, type Message, type SendableChannels } from 'discord.js';

export interface ButtonChoice<A extends string> {
  answer: A;
  label: string;
  style: ButtonStyle;
}

export interface ButtonQuestion<A extends string> {
  channel: SendableChannels;
  /** Who may press; anyone else is told `refusal`. */
  askerId: string;
  text: string;
  choices: readonly ButtonChoice<A>[];
  /** The custom-id prefix the interaction router leaves alone. */
  prefix: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  refusal: string;
  /** Called once the question is sent, before the press. */
  onSent?: () => void;
}

/** What came of it: the press (and its answer), or none and why; the message, to edit. */
export type ButtonAnswer<A extends string> = { message: Message } & ({ click: ButtonInteraction; answer: A } | { click: null; ended: 'time' | 'turn ended' });

/** Asks; null when the turn was already over. Throws when the question cannot be sent. */
export async function askWithButtons<A extends string>(q: ButtonQuestion<A>): Promise<ButtonAnswer<A> | null> {
  if (q.signal?.aborted) return null;
  const id = randomUUID().slice(0, 8);
  const row = { type: ComponentType.ActionRow, components: q.choices.map((b) => ({ type: ComponentType.Button, style: b.style, label: b.label, custom_id: `${q.prefix}:${id}:${b.answer}` })) };
  const collector = q.channel.createMessageComponentCollector({ componentType: ComponentType.Button, filter: (i) => i.customId.startsWith(`${q.prefix}:${id}:`), time: q.timeoutMs });
  let ended: 'time' | 'turn ended' = 'turn ended';
  const signal = q.signal;
  const press = new Promise<ButtonInteraction | null>((resolve) => {
    collector.on('collect', (i: ButtonInteraction) => {
      if (i.user.id !== q.askerId) {
        void i.reply({ content: q.refusal, flags: MessageFlags.Ephemeral }).catch(() => undefined);
        return;
      }
      resolve(i);
      collector.stop('answered');
    });
    // the turn's own deadline for the question (AbortSignal.timeout) is no answer in time too
    const onAbort = () => collector.stop(signal?.reason instanceof DOMException && signal.reason.name === 'TimeoutError' ? 'time' : 'turn ended');
    collector.on('end', (_collected, reason) => {
      ended = reason === 'time' ? 'time' : 'turn ended';
      signal?.removeEventListener('abort', onAbort);
      resolve(null);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  let message: Message;
  try {
    message = await q.channel.send({ content: q.text, components: [row] as never, allowedMentions: { parse: [] } });
  } catch (error) {
    collector.stop('not sent');
    throw error;
  }
  q.onSent?.();
  const click = await press;
  if (!click) return { message, click: null, ended };
  return { message, click, answer: q.choices.find((b) => click.customId.endsWith(`:${b.answer}`))?.answer ?? (q.choices.at(-1)?.answer as A) };
}
