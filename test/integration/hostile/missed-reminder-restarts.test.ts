/**
 * A reminder due while Charlie was down, then five short terminal sessions of the real app
 * (`src/main.ts`, piped input that ends at once): it is shown in the first session, at start
 * (not a minute later), exactly once over all five, and its delivery is `sent` with no attempt
 * counted for the moments before the terminal chat was open. Before, the first tick ran before
 * the chat was open and counted "chat not open" as a failed attempt: five sessions ended
 * `failed, attempts 5`, never shown.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteJobStore } from '../../../src/storage/job-store.js';
import { runApp } from '../../support/run-app.js';
import { tempDirs } from '../../support/temp-dir.js';

const tmp = tempDirs('charlie-restarts-');

describe('a reminder missed while Charlie was down', () => {
  it('five short terminal sessions show it once, in the first, and count no attempt', async () => {
    const dir = tmp();
    const env = { DATA_DIR: join(dir, 'data'), PROJECTS_DIR: join(dir, 'projects'), TZ: 'UTC', REFLECT_ENABLED: 'false' };
    const jobs = new SqliteJobStore(join(dir, 'data', 'schedule.db'));
    const due = new Date(Date.now() - 3 * 3_600_000);
    jobs.add(
      {
        id: 'rem-missed',
        kind: 'reminder',
        owner: 'terminal:general:ann',
        place: { kind: 'project', origin: { name: 'general', key: 'terminal:general' } },
        due,
        tz: 'UTC',
        payload: { text: 'water the tomatoes', by: 'ann' },
      },
      due,
    );
    jobs.close();
    const outs: string[] = [];
    for (let i = 0; i < 5; i++) outs.push((await runApp(env, '')).stdout);
    const shown = outs.map((o) => o.split('⏰ Reminder: water the tomatoes').length - 1);
    expect(shown).toEqual([1, 0, 0, 0, 0]);
    expect(outs[0]).toMatch(/late: this was due at/);
    const db = new DatabaseSync(join(dir, 'data', 'schedule.db'));
    const rows = db.prepare("SELECT state, attempts FROM deliveries WHERE job_id = 'rem-missed'").all();
    db.close();
    expect(rows).toEqual([{ state: 'sent', attempts: 0 }]);
  }, 240_000);
});
