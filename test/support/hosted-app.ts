/**
 * The real composition (buildApp) for tests of what reaches hosted services: a project and a DM
 * place, a cleanup list run after each test, and an app that closes once whether the test closes
 * it (to restart) or the cleanup does.
 */
import { afterEach } from 'vitest';
import type { Config } from '../../src/config.js';
import type { Place } from '../../src/core/place.js';
import { silentLogger } from '../../src/core/ports/index.js';
import { buildApp } from '../../src/main.js';
import type { App } from '../../src/app/app.js';

export const origin = { name: 'general', key: 'terminal:general' };
export const project: Place = { kind: 'project', origin };
export const dm: Place = { kind: 'private', userId: '111', userName: 'Dana' };

/** What each test leaves to close (fake servers, apps), closed after it in reverse order. */
export function cleanupsAfterEach(): (() => Promise<void> | void)[] {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return cleanups;
}

/** Builds the app from `config` with the `general` project, closed by `cleanups` unless the test closed it first. */
export async function startApp(config: Config, cleanups: (() => Promise<void> | void)[]): Promise<App> {
  const app = await buildApp(config, silentLogger);
  let open = true;
  cleanups.push(() => (open ? app.close() : undefined));
  const close = app.close.bind(app);
  app.close = async () => {
    open = false;
    await close();
  };
  await app.store.ensureProject(origin);
  return app;
}
