import { UCP_VERSION } from './agent-header.ts';
import { UCP_MCP_PATH } from './mcp.ts';
import { publishedHandlers } from './payment-handlers.ts';
import type { PaymentHandlerDeclaration } from './payment-handlers.ts';
import type { PublicJwk } from './signing-keys.ts';
import { SHOPPING_CAPABILITIES } from './shopping-capabilities.ts';

const SPEC = 'https://ucp.dev/specification';
const SCHEMAS = 'https://ucp.dev/schemas/shopping';

/** The capabilities Butik implements, with the spec and schema of each (capability.json#/$defs/discovery). */
const DISCOVERY_CAPABILITIES = [
  { name: 'dev.ucp.shopping.checkout', spec: `${SPEC}/checkout`, schema: `${SCHEMAS}/checkout.json` },
  { name: 'dev.ucp.shopping.order', spec: `${SPEC}/order`, schema: `${SCHEMAS}/order.json` },
  { name: 'dev.ucp.shopping.fulfillment', spec: `${SPEC}/fulfillment`, schema: `${SCHEMAS}/fulfillment.json`, extends: 'dev.ucp.shopping.checkout' },
  { name: 'dev.ucp.shopping.discount', spec: `${SPEC}/discount`, schema: `${SCHEMAS}/discount.json`, extends: 'dev.ucp.shopping.checkout' },
  { name: 'dev.ucp.shopping.buyer_consent', spec: `${SPEC}/buyer-consent`, schema: `${SCHEMAS}/buyer_consent.json`, extends: 'dev.ucp.shopping.checkout' },
].map((capability) => ({ ...capability, version: UCP_VERSION }));

/** GET /.well-known/ucp: the shop's business profile (spec/discovery/profile_schema.json). */
export function businessProfile(baseUrl: string, handlers: readonly PaymentHandlerDeclaration[], signingKeys: readonly PublicJwk[]) {
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        'dev.ucp.shopping': {
          version: UCP_VERSION,
          spec: `${SPEC}/overview`,
          rest: { schema: 'https://ucp.dev/services/shopping/rest.openapi.json', endpoint: baseUrl },
          mcp: { schema: 'https://ucp.dev/services/shopping/mcp.openrpc.json', endpoint: `${baseUrl}${UCP_MCP_PATH}` },
        },
      },
      capabilities: [...DISCOVERY_CAPABILITIES, ...SHOPPING_CAPABILITIES],
    },
    payment: { handlers: publishedHandlers(handlers) },
    signing_keys: signingKeys,
  };
}
