/**
 * The doctor's vocabulary: a check belongs to a part (config, chat lane, speech, …), runs
 * live under its own time limit, and ends ok / warn / fail / skip with what to do about it.
 * Adding a check is adding one object to a part's list (src/doctor/checks.ts).
 */
import { withPublicUrls } from '../core/privacy/public-url.js';
import { errorWithCause } from '../util/error-text.js';

export type Status = 'ok' | 'warn' | 'fail' | 'skip';

export interface Verdict {
  status: Status;
  /** What was found, one line. */
  detail: string;
  /** What to do, for warn and fail. */
  fix?: string;
}

export interface CheckResult extends Verdict {
  part: string;
  name: string;
  ms: number;
}

export interface Check {
  name: string;
  /** Longest this check may take; past it, it fails as a timeout. Default 10 s. */
  timeoutMs?: number;
  run(signal: AbortSignal): Promise<Verdict>;
}

export interface Part {
  name: string;
  /** Checks run in order; later ones may use what earlier ones found. */
  checks: Check[];
  /** Run the checks side by side instead (they share nothing). */
  parallel?: boolean;
  /** Releases what the checks opened (a loaded model), after the last one. */
  dispose?: () => Promise<void>;
}

export const ok = (detail: string): Verdict => ({ status: 'ok', detail });
export const warn = (detail: string, fix: string): Verdict => ({ status: 'warn', detail, fix });
export const fail = (detail: string, fix: string): Verdict => ({ status: 'fail', detail, fix });
export const skip = (detail: string): Verdict => ({ status: 'skip', detail });

const DEFAULT_TIMEOUT_MS = 10_000;

/** Runs one check under its time limit; a throw or a timeout is a fail, never a crash. */
export async function runCheck(part: string, check: Check, outer?: AbortSignal): Promise<CheckResult> {
  const started = performance.now();
  const limit = check.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Verdict>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timeout'));
      resolve(fail(`no answer within ${String(Math.round(limit / 1000))} s`, 'see the lines above; a server that answers this slowly will also stall conversations'));
    }, limit);
  });
  let verdict: Verdict;
  try {
    verdict = await Promise.race([check.run(controller.signal), timeout]);
  } catch (err) {
    verdict = fail(`error: ${errorWithCause(err)}`, 'this is unexpected: run with LOG_LEVEL=debug and report it with this line');
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
  // a probe's error can quote a URL with its password or key (undici does): shown without them
  return { part, name: check.name, ...verdict, detail: withPublicUrls(verdict.detail), ...(verdict.fix ? { fix: withPublicUrls(verdict.fix) } : {}), ms: Math.round(performance.now() - started) };
}

/** Parts run side by side, the checks of a part one after another; results keep the parts' order. */
export async function runParts(parts: readonly Part[], onResult?: (r: CheckResult) => void): Promise<CheckResult[]> {
  const perPart = await Promise.all(
    parts.map(async (part) => {
      const results: CheckResult[] = [];
      if (part.parallel === true) results.push(...(await Promise.all(part.checks.map((check) => runCheck(part.name, check)))));
      else for (const check of part.checks) results.push(await runCheck(part.name, check));
      await part.dispose?.().catch(() => undefined);
      return results;
    }),
  );
  const all = perPart.flat();
  if (onResult) for (const r of all) onResult(r);
  return all;
}
