/**
 * Where a model server runs, decided from its address. `auto` locality counts as local:
 * loopback, the private ranges (RFC 1918, IPv6 unique-local), link-local, the carrier-grade
 * NAT range Tailscale hands out (100.64.0.0/10), and names that only resolve on the owner's
 * networks (localhost, *.local, *.lan, *.internal, *.home.arpa, Tailscale's *.ts.net).
 * node:net's BlockList does the address-range matching (IPv4-mapped IPv6 included).
 */
import { BlockList, isIP } from 'node:net';

function localRanges(): BlockList {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addSubnet('10.0.0.0', 8, 'ipv4');
  list.addSubnet('172.16.0.0', 12, 'ipv4');
  list.addSubnet('192.168.0.0', 16, 'ipv4');
  list.addSubnet('169.254.0.0', 16, 'ipv4');
  list.addSubnet('100.64.0.0', 10, 'ipv4');
  list.addSubnet('0.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  list.addSubnet('fc00::', 7, 'ipv6');
  list.addSubnet('fe80::', 10, 'ipv6');
  return list;
}

const LOCAL_NAMES = /(^|\.)(localhost|local|lan|internal|home\.arpa|ts\.net)$/;

/** Whether a host name or address is on the owner's machine or networks. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (!host) return false;
  const version = isIP(host);
  if (version === 0) return LOCAL_NAMES.test(host);
  const ranges = localRanges();
  if (version === 4) return ranges.check(host, 'ipv4');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped?.[1]) return ranges.check(mapped[1], 'ipv4');
  return ranges.check(host, 'ipv6');
}

/** Locality of a server URL: an explicit setting wins, `auto` decides from the host. */
export function urlIsLocal(url: string, setting: 'auto' | 'local' | 'hosted'): boolean {
  if (setting !== 'auto') return setting === 'local';
  try {
    return isLocalHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

export { publicUrl } from '../core/privacy/public-url.js';
