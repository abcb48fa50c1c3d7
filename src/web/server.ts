/**
 * Starts the web front door: builds the client if needed, listens on WEB_HOST:WEB_PORT, and says
 * where to open it. A port that is taken is a warning, not a crash: the other front doors go on.
 */
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../core/ports/index.js';
import { createWebApp } from './app.js';
import { type WebDeps } from './web-deps.js';
import { ensureClient } from './client-build.js';
import { allowedHosts, isLoopbackHost } from './guard.js';
import type { Role } from '../core/roles.js';

export interface WebServerOptions extends Omit<WebDeps, 'secureCookie'> {
  host: string;
  /** 0 = any free port (tests); the app is off when the caller does not start it. */
  port: number;
  publicUrl?: string;
  extraHosts: readonly string[];
}

export interface WebServer {
  /** Where the app is, e.g. http://127.0.0.1:3210 (the public URL when one is set). */
  url: string;
  /** The owner's login link (contains the token: show it only to the owner). */
  ownerLoginUrl: string;
  /** A personal single-use login link for one Discord user (`/web` in a DM). */
  loginLinkFor(userId: string, userName: string, role?: Role): string;
  warnings: string[];
  /** Every API route (method + path pattern), e.g. for the README and the 401 test. */
  apiRoutes: { method: string; path: string }[];
  close(): Promise<void>;
}

export async function startWeb(o: WebServerOptions, logger: Logger): Promise<WebServer | null> {
  const build = await ensureClient(o.clientDir);
  if (build.built) logger.info({ ms: build.ms }, 'built the web client');
  let port = o.port;
  const hosts = { allowed: () => allowedHosts(o.host, port, o.extraHosts, o.publicUrl) };
  const { app, turns } = createWebApp({ ...o, secureCookie: o.publicUrl?.startsWith('https:') ?? false }, hosts);
  const server = createAdaptorServer({ fetch: app.fetch });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      logger.warn(
        { code: err.code, host: o.host, port: o.port },
        `web app not started: ${err.code === 'EADDRINUSE' ? `port ${o.port} is taken — set WEB_PORT to another port (0 turns the web app off)` : err.message}`,
      );
      resolve(false);
    });
    server.listen(o.port, o.host, () => resolve(true));
  });
  if (!listening) return null;
  port = (server.address() as AddressInfo).port;
  const bracket = o.host.includes(':') ? `[${o.host}]` : o.host;
  const local = `http://${o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : bracket}:${port}`;
  const url = (o.publicUrl ?? local).replace(/\/$/, '');
  const warnings: string[] = [];
  if (!isLoopbackHost(o.host)) {
    warnings.push(
      `the web app listens on ${o.host}, not only on this machine: anyone on the network can reach the login page, and without TLS the session cookie travels in clear — put it behind a reverse proxy with TLS or Tailscale (see docs/web-app.md)`,
    );
  }
  return {
    url,
    ownerLoginUrl: `${url}/login?token=${encodeURIComponent(o.auth.ownerToken)}`,
    loginLinkFor: (userId, userName, role) => `${url}/login?token=${encodeURIComponent(o.auth.issueLinkToken(userId, userName, role))}`,
    warnings,
    apiRoutes: app.routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL').map((r) => ({ method: r.method, path: r.path })),
    async close() {
      for (const t of turns.running()) t.controller.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
