import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, sendOutbound } from '../src/outbound/fetch.ts';

let base = '';
const server = createServer((request, response) => {
  if (request.url === '/big') return response.end('x'.repeat(70 * 1024));
  if (request.url === '/slow') return setTimeout(() => response.end('late'), 500);
  return response.end('{"ok":true}');
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => { await new Promise((resolve) => server.close(resolve)); });

const get = (url: string, policy: 'test' | 'live', limits: { timeoutMs?: number; maxBytes?: number } = {}) =>
  sendOutbound({ method: 'GET', url, timeoutMs: limits.timeoutMs ?? 3000, maxBytes: limits.maxBytes ?? 64 * 1024 }, policy);

describe('requests the shop sends on a platform\'s word', () => {
  it('tells public addresses from loopback, private, link-local and reserved ones', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(isPublicAddress('::ffff:808:808')).toBe(true);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fc00::1', 'fe80::1', '64:ff9b:1::a00:1', 'fec0::1', '2002:a00:1::1', '2001:0:4136:e378::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a00:1']) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
    }
  });

  it('in live mode refuses http, a non-public address and a name that resolves to one, before connecting', async () => {
    await expect(get('http://example.com/profile', 'live')).rejects.toThrow(/https URLs only/);
    await expect(get('https://127.0.0.1/profile', 'live')).rejects.toThrow(/not a public address/);
    await expect(get('https://[::1]/profile', 'live')).rejects.toThrow(/not a public address/);
    await expect(get('https://[::ffff:127.0.0.1]/profile', 'live')).rejects.toThrow(/not a public address/);
    await expect(get('https://localhost/profile', 'live')).rejects.toThrow(/resolves to no public address/);
  });

  it('in test mode reaches loopback, and holds every answer to its time and size limits', async () => {
    expect(await get(`${base}/profile`, 'test')).toMatchObject({ status: 200, text: '{"ok":true}' });
    await expect(get(`${base}/big`, 'test')).rejects.toThrow(/larger than 65536 bytes/);
    await expect(get(`${base}/slow`, 'test', { timeoutMs: 100 })).rejects.toThrow(/no answer within 100 ms/);
    await expect(get('ftp://example.com/x', 'test')).rejects.toThrow(/unsupported scheme/);
  });
});
