// A stand-in UCP platform for trying order webhooks locally (README, "UCP checkout for shopping agents"):
//   node scripts/ucp-webhook-receiver.mjs SHOP_URL [PORT]
// It serves its profile at http://127.0.0.1:PORT/profile (an order capability naming its webhook) and prints each
// order event it receives with whether its RFC 9421 signature verifies against the keys the shop publishes in
// /.well-known/ucp, checked by http-message-sig as Butik itself checks a platform's requests.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { verifySignature } from 'http-message-sig';

const [shop = 'http://127.0.0.1:3000', port = '8285'] = process.argv.slice(2);
const profileUrl = `http://127.0.0.1:${port}/profile`;
const webhookUrl = `http://127.0.0.1:${port}/webhooks/orders`;
const profile = {
  ucp: {
    version: '2026-04-08',
    capabilities: { 'dev.ucp.shopping.order': [{ version: '2026-04-08', config: { webhook_url: webhookUrl } }] },
  },
};
const CURVES = { 'P-256': { algorithm: 'ecdsa-p256-sha256', hash: 'sha256' }, 'P-384': { algorithm: 'ecdsa-p384-sha384', hash: 'sha384' } };

async function checkSignature(request, body) {
  const { signing_keys: keys = [] } = await (await fetch(`${shop}/.well-known/ucp`)).json();
  const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
  if (request.headers['content-digest'] !== digest) return 'Content-Digest does not match the body';
  const fields = Object.entries(request.headers).map(([name, value]) => ({ name, value: String(value) }));
  let keyid;
  try {
    await verifySignature({ kind: 'request', method: request.method, targetUri: `http://127.0.0.1:${port}${request.url}`, fields }, {
      policy: { algorithms: Object.values(CURVES).map((curve) => curve.algorithm), requiredComponents: ['@method', '@authority', '@path', 'content-digest', 'content-type'], requiredParameters: ['keyid'] },
      resolveVerifier: ({ parameters }) => {
        keyid = parameters.keyid;
        const jwk = keys.find((key) => key.kid === keyid);
        if (!jwk) throw new Error(`key ${keyid} is not published`);
        const key = createPublicKey({ key: jwk, format: 'jwk' });
        const { algorithm, hash } = CURVES[jwk.crv];
        return { algorithm, verify: (data, signature) => verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature) };
      },
    });
    return `verified with the shop's key ${keyid}`;
  } catch (error) {
    return `does not verify: ${error.message}`;
  }
}

createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString('utf8');
  if (request.method === 'GET' && request.url === '/profile') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(profile));
    return;
  }
  if (request.method === 'POST' && request.url === '/webhooks/orders') {
    const event = JSON.parse(body);
    console.log(`${request.headers['webhook-id']} ${event.event_type ?? event.type ?? 'event'} for order ${event.order?.id ?? event.id ?? '?'}`);
    console.log(`  Signature-Input: ${request.headers['signature-input']}`);
    console.log(`  signature ${await checkSignature(request, body)}`);
    response.writeHead(200).end();
    return;
  }
  response.writeHead(404).end();
}).listen(Number(port), '127.0.0.1', () => console.log(`platform profile at ${profileUrl}`));
