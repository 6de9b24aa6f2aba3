import { createHash, createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseDictionary, serializeInnerList } from 'structured-headers';

export type Received = {
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
  /** The 2026-01-11 detached JWS in Request-Signature checked out. */
  verified: boolean | undefined;
  /** The RFC 9421 signature checked out: which components it covered, or why not. */
  messageSignature: { components: string[]; keyid: string } | { error: string };
};

/**
 * A UCP platform as a test sees it, written from the spec: it serves its profile (naming its order webhook)
 * and receives order events, checking each Request-Signature against the shop's published keys.
 */
export async function simulatedPlatform(options: { shopKeys: () => Promise<Array<Record<string, string>>> }) {
  const received: Received[] = [];
  let receiving = true;
  let port = 0;
  const handler = async (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (request.method === 'GET' && request.url === '/profile') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        ucp: {
          version: '2026-01-11',
          capabilities: [
            { name: 'dev.ucp.shopping.checkout', version: '2026-01-11' },
            { name: 'dev.ucp.shopping.fulfillment', version: '2026-01-11' },
            { name: 'dev.ucp.shopping.order', version: '2026-01-11', config: { webhook_url: `http://127.0.0.1:${port}/webhooks/orders` } },
          ],
        },
      }));
      return;
    }
    if (request.method === 'POST' && request.url === '/webhooks/orders') {
      const signature = request.headers['request-signature'];
      const keys = await options.shopKeys();
      received.push({
        headers: request.headers, text, body: JSON.parse(text),
        verified: typeof signature === 'string' ? await verifyDetached(signature, text, keys) : undefined,
        messageSignature: verifyMessageSignature({ method: 'POST', authority: `127.0.0.1:${port}`, path: request.url, headers: request.headers, body: text }, keys),
      });
      response.writeHead(200).end();
      return;
    }
    response.writeHead(404).end();
  };
  let server: Server = await listen(0, handler);
  port = (server.address() as AddressInfo).port;
  return {
    profileUrl: `http://127.0.0.1:${port}/profile`,
    received,
    async stop() {
      receiving = false;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async start() {
      if (!receiving) server = await listen(port, handler);
      receiving = true;
    },
  };
}

async function listen(port: number, handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** RFC 7797 detached JWS check: the header names the key, the body goes between the dots unencoded. */
export async function verifyDetached(signature: string, body: string, keys: Array<Record<string, string>>): Promise<boolean> {
  const [header, empty, sig] = signature.split('.');
  if (!header || empty !== '' || !sig) return false;
  const parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg: string; kid: string; b64: boolean; crit: string[] };
  if (parsed.alg !== 'ES256' || parsed.b64 !== false || !parsed.crit.includes('b64')) return false;
  const jwk = keys.find((key) => key.kid === parsed.kid);
  if (!jwk) return false;
  return verify('sha256', Buffer.from(`${header}.${body}`), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
}

/**
 * RFC 9421 verification written out by hand from the RFC, independent of the code under test: the signature
 * base is one `"name": value` line per covered component and the `"@signature-params"` line last; ES256 is r‖s.
 */
export function verifyMessageSignature(
  message: { method: string; authority: string; path: string; query?: string; headers: Record<string, string | string[] | undefined>; body: string },
  keys: Array<Record<string, string>>,
): { components: string[]; keyid: string } | { error: string } {
  const header = (name: string) => {
    const value = message.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const input = parseDictionary(header('signature-input') ?? '').get('sig1');
  const signature = parseDictionary(header('signature') ?? '').get('sig1');
  if (!input || !Array.isArray(input[0]) || !signature || !(signature[0] instanceof ArrayBuffer)) return { error: 'no sig1' };
  const components = input[0].map(([name]) => String(name));
  const keyid = String(input[1].get('keyid'));
  const digest = `sha-256=:${createHash('sha256').update(message.body).digest('base64')}:`;
  if (header('content-digest') !== digest) return { error: 'content-digest' };
  const lines = components.map((name) => {
    const value = name === '@method' ? message.method : name === '@authority' ? message.authority : name === '@path' ? message.path : name === '@query' ? message.query : header(name);
    return `"${name}": ${value}`;
  });
  lines.push(`"@signature-params": ${serializeInnerList(input as Parameters<typeof serializeInnerList>[0])}`);
  const jwk = keys.find((key) => key.kid === keyid);
  if (!jwk) return { error: `unknown key ${keyid}` };
  const ok = verify('sha256', Buffer.from(lines.join('\n')), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(signature[0]));
  return ok ? { components, keyid } : { error: 'signature' };
}
