/** Reminders the model sets, lists and cancels for the person it is talking to (src/core/time/reminder-desk.ts). */
import { z } from 'zod';
import { withheld } from '../privacy/egress.js';
import { sensitivityOfText } from '../privacy/sensitivity.js';
import { defineTool, type ToolContext } from './tool.js';

const NOT_HERE = { content: 'Reminders are not available here.', summary: 'no reminders here' };

function desk(ctx: ToolContext) {
  return ctx.time ?? null;
}

export const setReminder = defineTool({
  name: 'set_reminder',
  category: 'time',
  description:
    'Set a reminder, delivered here (this channel or this DM) at its time. `when` as the person said it: "Friday at 6", "in 20 minutes", "tomorrow at 9am", "every first Monday", "every weekday at 8". Tell the person the resolved time from the result.',
  params: z.object({
    what: z.string().min(1).max(300).describe('what to remind of, e.g. "call mum"'),
    when: z.string().min(1).max(100),
    for: z.string().max(100).optional().describe('who it is for, when not the person asking'),
  }),
  async execute(args, ctx) {
    const t = desk(ctx);
    if (!t) return NOT_HERE;
    const out = t.desk.set(t.asker, args.what, args.when, args.for);
    if (!out.ok) return { content: `Not set: ${out.error}`, summary: 'reminder not set' };
    return { content: out.line, summary: `reminder set for ${out.reminder.shown}`, notice: `⏰ ${out.line}` };
  },
});

export const listReminders = defineTool({
  name: 'list_reminders',
  category: 'time',
  description: 'The reminders set here (in a DM: all of the person’s own), with their ids and times.',
  params: z.object({}),
  async execute(_args, ctx) {
    const t = desk(ctx);
    if (!t) return NOT_HERE;
    const list = t.desk.list(t.asker);
    if (list.length === 0) return { content: 'No reminders are set.', summary: 'no reminders' };
    // a reminder set by hand may say what a hosted model must not read (health, money, credentials)
    const text = (r: { text: string }) => (ctx.modelLocality === 'hosted' && sensitivityOfText(r.text) ? withheld('a reminder') : r.text);
    return {
      content: list.map((r) => `- ${r.id}: ${text(r)} — ${r.repeats ? `${r.repeats}, next ` : ''}${r.shown}${r.where === 'here' ? '' : ` (in ${r.where})`}`).join('\n'),
      summary: `${list.length} reminder(s)`,
    };
  },
});

export const cancelReminder = defineTool({
  name: 'cancel_reminder',
  category: 'time',
  description: 'Cancel a reminder by its id (from list_reminders).',
  params: z.object({ id: z.string().min(1).max(80) }),
  async execute(args, ctx) {
    const t = desk(ctx);
    if (!t) return NOT_HERE;
    return t.desk.cancel(t.asker, args.id) ? { content: `Cancelled ${args.id}.`, summary: 'reminder cancelled' } : { content: `No reminder ${args.id} here.`, summary: 'no such reminder' };
  },
});
