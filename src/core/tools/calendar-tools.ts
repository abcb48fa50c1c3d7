/** The subscribed calendars: what is on, and (CalDAV) a new event, written only after the person confirms. */
import { z } from 'zod';
import { isSensitive } from '../privacy/sensitivity.js';
import { defineTool } from './tool.js';

export const calendarAgenda = defineTool({
  name: 'calendar_agenda',
  category: 'time',
  description: 'What is on the calendars subscribed here: "today", "tomorrow", "this week", or a day ("Friday", "5 December").',
  params: z.object({ when: z.string().max(60).default('today') }),
  async execute(args, ctx) {
    const t = ctx.time;
    // a hosted model is shown only events whose label allows it; a local one that reads a sensitive event taints the turn
    const { text, label } = t.calendar.agendaOf(t.asker, args.when, { hosted: ctx.modelLocality === 'hosted' });
    if (isSensitive(label)) ctx.sawSensitive({ origin: 'the calendar', text });
    return { content: text, summary: `agenda ${args.when}` };
  },
});

export const createEvent = defineTool({
  name: 'create_event',
  category: 'time',
  description:
    'Put an event on a CalDAV calendar subscribed here. First call it without `confirm`: nothing is written, you get a token; ask the person to confirm. Only after they say yes, in their next message, call it again with `confirm` set to the token.',
  params: z.object({
    title: z.string().min(1).max(200),
    when: z.string().min(1).max(100).describe('"Friday at 6", "tomorrow at 9am", "on 5 December at 18:30"'),
    minutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .optional(),
    location: z.string().max(200).optional(),
    calendar: z.string().max(100).optional().describe('which calendar, when there are several'),
    confirm: z.string().max(40).optional().describe('the token from the first call, once the person said yes'),
  }),
  async execute(args, ctx) {
    const t = ctx.time;
    if (args.confirm) {
      // "Created …" quotes the event: a sensitive one taints the turn, so the reply that retells it is labelled too
      const { text: line, label } = await t.calendar.confirmOf(t.asker, ctx.source, args.confirm);
      if (isSensitive(label)) ctx.sawSensitive({ origin: 'the calendar', text: line });
      return { content: line, summary: line.startsWith('Created') ? 'event created' : 'event not created', ...(line.startsWith('Created') ? { notice: `📅 ${line}` } : {}) };
    }
    return { content: t.calendar.propose(t.asker, ctx.source, args, { tainted: ctx.tainted?.() === true }), summary: 'event proposed, waiting for a yes' };
  },
});
