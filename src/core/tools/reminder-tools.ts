/** Reminders the model sets, lists and cancels for the person it is talking to (src/core/time/reminder-desk.ts). */
import { z } from 'zod';
import { withheld } from '../privacy/egress.js';
import { isSensitive, mayGo } from '../privacy/sensitivity.js';
import type { ReminderView } from '../time/reminder-desk.js';
import { defineTool } from './tool.js';

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
    const t = ctx.time;
    // a reminder set by a turn that drew on sensitive context carries that label (the model may reword what it read)
    const out = t.desk.set(t.asker, args.what, args.when, { ...(args.for ? { forWhom: args.for } : {}), ...(ctx.tainted?.() ? { from: { sensitivity: 'sensitive' as const } } : {}) });
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
    const t = ctx.time;
    const list = t.desk.list(t.asker);
    if (list.length === 0) return { content: 'No reminders are set.', summary: 'no reminders' };
    // decided by each reminder's label (set when it was made: its words, the turn that set it, its event)
    const text = (r: ReminderView) => (mayGo(r.label, ctx.modelLocality) ? r.text : withheld('a reminder'));
    // what a local model reads of them: the turn drew on sensitive context
    for (const r of list.filter((x) => isSensitive(x.label) && mayGo(x.label, ctx.modelLocality))) ctx.sawSensitive({ origin: 'a reminder', text: r.text });
    return {
      content: list.map((r) => `- ${r.id}: ${text(r)} — ${r.repeats ? `${r.repeats}, next ` : ''}${r.shown}${r.where === 'here' ? '' : ` (in ${r.where})`}`).join('\n'),
      summary: `${list.length} ${list.length === 1 ? 'reminder' : 'reminders'}`,
    };
  },
});

export const cancelReminder = defineTool({
  name: 'cancel_reminder',
  category: 'time',
  description: 'Cancel a reminder by its id (from list_reminders).',
  params: z.object({ id: z.string().min(1).max(80) }),
  async execute(args, ctx) {
    const t = ctx.time;
    return t.desk.cancel(t.asker, args.id) ? { content: `Cancelled ${args.id}.`, summary: 'reminder cancelled' } : { content: `No reminder ${args.id} here.`, summary: 'no such reminder' };
  },
});
