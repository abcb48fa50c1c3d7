/** The configuration: every setting valid, and which front doors `npm start` will open. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { fail, ok, type Check, type Part, type Verdict } from './check.js';

export type ConfigOutcome = { ok: true; config: Config } | { ok: false; message: string };

function frontDoors(config: Config): string {
  const doors = config.DISCORD_TOKEN ? ['the Discord bot (DISCORD_TOKEN is set; the terminal chat is not opened)'] : ['the terminal chat (no DISCORD_TOKEN)'];
  if (config.WEB_PORT !== 0) doors.push(`the web app on ${config.WEB_HOST}:${String(config.WEB_PORT)} (WEB_PORT=0 turns it off)`);
  return doors.join(' and ');
}

export function configPart(outcome: ConfigOutcome, cwd: string): Part {
  const settings: Check = {
    name: 'config: settings',
    run(): Promise<Verdict> {
      const source = existsSync(resolve(cwd, '.env')) ? '.env and the environment' : 'the environment (no .env file; defaults apply)';
      if (!outcome.ok)
        return Promise.resolve(fail(outcome.message.replace(/:\n\s*/, ': ').replace(/\n\s*/g, '; '), 'fix the named variables in .env (see .env.example for every setting and its default)'));
      const web = outcome.config.fromSettingsFile;
      const over = web.length ? `; set in the web app (data/settings.json, over .env): ${web.join(', ')}` : '';
      return Promise.resolve(ok(`every setting is valid (read from ${source}${over})`));
    },
  };
  const doors: Check = {
    name: 'config: front doors',
    run(): Promise<Verdict> {
      if (!outcome.ok) return Promise.resolve({ status: 'skip', detail: 'the settings are invalid' });
      return Promise.resolve(ok(`npm start opens ${frontDoors(outcome.config)}`));
    },
  };
  return { name: 'config', checks: [settings, doors] };
}
