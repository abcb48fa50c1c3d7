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
 * State-changing requests must come from this app's own pages. A browser says where a request
 * comes from in two headers it does not let pages set: `Sec-Fetch-Site` (Chromium, Firefox,
 * Safari 16.4+) and `Origin`. `Sec-Fetch-Site` other than `same-origin` is refused; an `Origin`
 * must name an allowed host — except the opaque `Origin: null` that a browser sends for a
 * same-origin form post under a strict referrer policy, accepted only with
 * `Sec-Fetch-Site: same-origin`. Scripts that send neither header must use a Bearer token.
 */
export function originGuard(policy: HostPolicy): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin') return c.json({ error: `${site} request refused` }, 403);
    if (origin === 'null') {
      if (site !== 'same-origin') return c.json({ error: 'origin null refused' }, 403);
    } else if (origin) {
      let host: string;
      try {
        const u = new URL(origin);
        host = u.protocol === 'http:' || u.protocol === 'https:' ? u.host : '';
      } catch {
        host = '';
      }
      if (!policy.allowed().has(host.toLowerCase())) return c.json({ error: `origin ${origin.slice(0, 100)} refused` }, 403);
    } else if (site !== 'same-origin' && !/^Bearer\s/i.test(c.req.header('authorization') ?? '')) {
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
    // same-origin: other sites get no Referer, and the app's own form posts keep their Origin
    referrerPolicy: 'same-origin',
    permissionsPolicy: { microphone: ['self'], camera: [], geolocation: [] },
  });
}

const plainAddress = (a: string) =>
  a
    .trim()
    .toLowerCase()
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1')
    .replace(/^\[(.*)\]$/, '$1');

/**
 * The client a request comes from, for the failed-sign-in limit: the socket's peer, or — only when
 * that peer is a proxy named in WEB_TRUSTED_PROXY — the nearest X-Forwarded-For address that is not
 * itself a trusted proxy (entries further left are the client's own claims and could be forged).
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | undefined, trusted: readonly string[]): string {
  const proxies = new Set(trusted.map(plainAddress));
  const from = plainAddress(peer ?? 'unknown');
  if (!proxies.has(from) || !forwardedFor) return from;
  const hops = forwardedFor.split(',').map(plainAddress).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop && !proxies.has(hop)) return hop.slice(0, 64);
  }
  return from;
}
