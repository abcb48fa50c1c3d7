/**
 * Whether something accepts TCP connections at a URL's host and port. Used to tell "no
 * server there" from "a server that is slow to answer" (e.g. still loading the model).
 */
import { connect } from 'node:net';

export type ReachabilityProbe = (url: string, timeoutMs: number) => Promise<boolean>;

export const tcpProbe: ReachabilityProbe = (url, timeoutMs) =>
  new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve(false);
      return;
    }
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
