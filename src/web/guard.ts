/**
 * Request guards that run before any route: the Host check (a page on another site that
 * rebinds its DNS name to 127.0.0.1 still sends its own name as Host), the Origin check on
 * state-changing requests (cross-site forms and fetches), and the security headers with a
 * strict Content-Security-Policy (no inline script or style, nothing from elsewhere).
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export interface HostPolicy {
  /** Lower-case `host[:port]` values a request may name; computed after the port is known. */
  allowed(): ReadonlySet<string>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The Host values that name this server: its bind address and port, loopback aliases, configured names. */
export function allowedHosts(bind: string, port: number, extra: readonly string[], publicUrl?: string): Set<string> {
  const out = new Set<string>();
  const add = (h: string) => out.add(h.toLowerCase());
  const bracket = (h: string) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
  add(`${bracket(bind)}:${port}`);
  if (isLoopbackHost(bind) || bind === '0.0.0.0' || bind === '::') for (const h of ['127.0.0.1', 'localhost', '[::1]']) add(`${h}:${port}`);
  for (const h of extra) {
    add(h);
    if (!/:\d+$/.test(h)) add(`${bracket(h)}:${port}`);
  }
  if (publicUrl) add(new URL(publicUrl).host);
  return out;
}

export function hostGuard(policy: HostPolicy): MiddlewareHandler {
  return async (c, next) => {
    const host = (c.req.header('host') ?? '').toLowerCase();
    if (!policy.allowed().has(host)) return c.text(`Host "${host.slice(0, 100)}" is not this server (add it to WEB_ALLOWED_HOSTS if it should be)`, 421);
    await next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing requests must come from this app's own pages: an `Origin` naming an allowed
 * host, and no `Sec-Fetch-Site: cross-site`. Scripts without an Origin must use a Bearer token.
 */
export function originGuard(policy: HostPolicy): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    if (site === 'cross-site') return c.json({ error: 'cross-site request refused' }, 403);
    if (origin) {
      let host: string;
      try {
        const u = new URL(origin);
        host = u.protocol === 'http:' || u.protocol === 'https:' ? u.host : '';
      } catch {
        host = '';
      }
      if (!policy.allowed().has(host.toLowerCase())) return c.json({ error: `origin ${origin.slice(0, 100)} refused` }, 403);
    } else if (!/^Bearer\s/i.test(c.req.header('authorization') ?? '')) {
      return c.json({ error: 'a state-changing request needs an Origin header (browsers send it) or an Authorization: Bearer token' }, 403);
    }
    return next();
  };
}

/** Security headers with a CSP that allows only this origin's own files. */
export function securityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: 'no-referrer',
    permissionsPolicy: { microphone: ['self'], camera: [], geolocation: [] },
  });
}
