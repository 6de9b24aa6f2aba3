import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

/**
 * The shop's one outbound fetcher: every request Butik sends on someone else's word (a UCP platform's profile or
 * webhook URL, an MCP host's client metadata document) goes through sendOutbound, within a size cap, a time cap,
 * without following redirects and, under the live policy, to public addresses only.
 *
 * Where a live shop may not send a request on a platform's word: loopback, private, link-local, shared,
 * multicast and reserved ranges (a profile or webhook URL pointing there would reach the shop's own network).
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
  // Translation and tunnel prefixes carry an IPv4 address inside (NAT64 local-use, 6to4, Teredo), so one of them
  // can lead to a private IPv4 network; site-local is deprecated but still routed inside some sites.
  ['64:ff9b:1::', 48], ['2002::', 16], ['2001::', 32], ['fec0::', 10],
] as const) NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const candidate = mappedIpv4(address) ?? address;
  const family = isIP(candidate);
  return family !== 0 && !NON_PUBLIC.check(candidate, family === 4 ? 'ipv4' : 'ipv6');
}

/** The IPv4 address an IPv4-mapped IPv6 address carries (::ffff:127.0.0.1 or ::ffff:7f00:1), so it is judged as one. */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = Number.parseInt(match[2] ?? '0', 16);
  const low = Number.parseInt(match[3] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** test: any http(s) address, loopback included; live: https to public addresses only. */
export type OutboundPolicy = 'test' | 'live';

export class OutboundError extends Error {}

/** Resolves like dns.lookup, keeping public addresses only, so the connection can only go where the check allowed. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
    if (allowed.length === 0) return callback(new OutboundError(`${hostname} resolves to no public address`), '', 4);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
    const [first] = allowed;
    return callback(null, first?.address ?? '', first?.family ?? 4);
  });
};

export type OutboundRequest = {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The answer is cut off past this many bytes. */
  maxBytes: number;
};

/** The answer as received: a redirect is an answer too (its status and location), never followed. */
export type OutboundAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/** One request, within the policy, the time limit and the size limit; any failure is an OutboundError. */
export async function sendOutbound(request: OutboundRequest, policy: OutboundPolicy): Promise<OutboundAnswer> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new OutboundError('not a URL');
  }
  if (policy === 'live' && url.protocol !== 'https:') throw new OutboundError('live mode sends to https URLs only');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundError(`unsupported scheme ${url.protocol}`);
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (policy === 'live' && isIP(literal) !== 0 && !isPublicAddress(literal)) throw new OutboundError(`${literal} is not a public address`);

  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => reject(error instanceof OutboundError ? error : new OutboundError(error instanceof Error ? error.message : String(error)));
    const outgoing = client.request(url, {
      method: request.method,
      headers: { ...request.headers, ...(request.body === undefined ? {} : { 'content-length': Buffer.byteLength(request.body) }) },
      ...(policy === 'live' ? { lookup: publicLookup } : {}),
    }, (incoming) => {
      const chunks: Buffer[] = [];
      let size = 0;
      incoming.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxBytes) {
          // Refused here, not through destroy(error): an answer that arrives whole (one chunk and its end) would
          // otherwise end first, truncated, and the error would surface later with nobody listening.
          fail(new OutboundError(`answer larger than ${request.maxBytes} bytes`));
          incoming.removeAllListeners('data');
          outgoing.destroy();
          return;
        }
        chunks.push(chunk);
      });
      incoming.on('end', () => size <= request.maxBytes && resolve({
        status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8'),
      }));
      incoming.on('error', fail);
    });
    const timer = setTimeout(() => outgoing.destroy(new OutboundError(`no answer within ${request.timeoutMs} ms`)), request.timeoutMs);
    timer.unref();
    outgoing.on('error', fail);
    outgoing.on('close', () => clearTimeout(timer));
    outgoing.end(request.body);
  });
}
