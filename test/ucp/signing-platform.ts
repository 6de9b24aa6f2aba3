import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SigningKey } from '../../src/ucp/signatures/message-signatures.ts';

export type PlatformKey = SigningKey & { jwk: Record<string, string> };

export function platformKey(curve: 'P-256' | 'P-384' = 'P-256'): PlatformKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
  const kid = `platform-${randomUUID()}`;
  return { kid, key: privateKey, jwk: { ...(publicKey.export({ format: 'jwk' }) as Record<string, string>), kid, use: 'sig' } };
}

/**
 * A platform that signs its requests: it serves its profile with the public keys it lists now (`publish`
 * changes them, as a rotation does) and the capabilities it speaks, and counts how often the shop reads it.
 */
export async function signingPlatform(initial: Array<Record<string, string>>, capabilities: readonly string[] = ['dev.ucp.shopping.checkout']) {
  let published = initial;
  let fetches = 0;
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/.well-known/ucp') {
      fetches += 1;
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' }).end(JSON.stringify({
        ucp: { version: '2026-01-11', capabilities: capabilities.map((name) => ({ name, version: '2026-01-11' })) },
        signing_keys: published,
      }));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    profileUrl: `http://127.0.0.1:${port}/.well-known/ucp`,
    publish(keys: Array<Record<string, string>>) {
      published = keys;
    },
    fetches: () => fetches,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
