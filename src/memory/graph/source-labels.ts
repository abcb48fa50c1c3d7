/**
 * The label of the message a record was made from, found by the record's `said` day and `source`
 * in that day's archive file (`log/YYYY-MM-DD.md`, by UTC day, as records date themselves): the
 * strictest label of the people's messages with that source there, or null when none is
 * sensitive. Each day file is read once.
 */
import { readIfExists } from '../../files/atomic-write.js';
import { join } from 'node:path';
import { isSensitive, labelOf, strictest, type SensitivityValue } from '../../core/privacy/sensitivity.js';
import { parseLog } from '../archive-format.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export class SourceLabels {
  private readonly days = new Map<string, Promise<Map<string, SensitivityValue>>>();

  /** `projectDir`: the project's folder (its `log/` holds the archive). */
  constructor(private readonly projectDir: string) {}

  async of(said: string, source: string): Promise<SensitivityValue | null> {
    if (!DAY.test(said) || !source) return null;
    let day = this.days.get(said);
    if (!day) this.days.set(said, (day = this.read(said)));
    return (await day).get(source) ?? null;
  }

  private async read(said: string): Promise<Map<string, SensitivityValue>> {
    const out = new Map<string, SensitivityValue>();
    const text = await readIfExists(join(this.projectDir, 'log', `${said}.md`));
    if (text === null) return out;
    for (const e of parseLog(text, said)) {
      if (e.role !== 'user') continue;
      const label = labelOf(e);
      if (isSensitive(label)) out.set(e.source, strictest(out.get(e.source) ?? null, label) ?? label);
    }
    return out;
  }
}
