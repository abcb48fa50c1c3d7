/** The doctor's output: one line per check (and its fix), a summary, JSON for scripts, and the exit code. */
import type { CheckResult, Status } from './check.js';

const MARK: Record<Status, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' };

export function formatLine(r: CheckResult): string {
  // Model replies quoted in a detail may hold line breaks: keep one line per check.
  const line = `${MARK[r.status]}  ${r.name}: ${r.detail.replace(/\s+/g, ' ')}`;
  return r.fix !== undefined && (r.status === 'warn' || r.status === 'fail') ? `${line}\n      → ${r.fix}` : line;
}

export function counts(results: readonly CheckResult[]): Record<Status, number> {
  const out: Record<Status, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const r of results) out[r.status]++;
  return out;
}

export function formatSummary(results: readonly CheckResult[], ms: number): string {
  const c = counts(results);
  const verdict = c.fail > 0 ? 'Charlie will not work fully until the FAIL lines are fixed.' : c.warn > 0 ? 'Charlie will work; the warn lines say what is degraded.' : 'Everything checked works.';
  return `${String(c.ok)} ok, ${String(c.warn)} warn, ${String(c.fail)} fail, ${String(c.skip)} skipped in ${(ms / 1000).toFixed(1)} s. ${verdict}`;
}

export function toJson(results: readonly CheckResult[], ms: number, version: string): string {
  return JSON.stringify({ version, ok: counts(results).fail === 0, ms, counts: counts(results), checks: results }, null, 2);
}

export function exitCode(results: readonly CheckResult[]): number {
  return results.some((r) => r.status === 'fail') ? 1 : 0;
}
