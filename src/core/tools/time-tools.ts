import { z } from 'zod';
import { defineTool } from './tool.js';

export const currentTime = defineTool({
  name: 'current_time',
  category: 'time',
  description: 'The current date, time and weekday (UTC and, if given, in an IANA time zone such as Europe/Berlin).',
  params: z.object({ timeZone: z.string().max(60).optional() }),
  async execute(args, ctx) {
    const now = ctx.clock.now();
    let local = '';
    if (args.timeZone) {
      try {
        local = `\n${args.timeZone}: ${now.toLocaleString('en-GB', { timeZone: args.timeZone, dateStyle: 'full', timeStyle: 'long' })}`;
      } catch {
        local = `\nunknown time zone ${args.timeZone}`;
      }
    }
    const utc = now.toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'long' });
    return { content: `${now.toISOString()} (${utc})${local}`, summary: `it is ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC` };
  },
});
