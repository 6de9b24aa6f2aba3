import { AP2_SINCE } from './signatures/ap2-mandates.ts';
import { UCP_MCP_PATH } from './mcp/mcp.ts';
import { publishedHandlers } from './payments/payment-handlers.ts';
import type { PaymentHandlerDeclaration } from './payments/payment-handlers.ts';
import { AP2_MANDATE_CAPABILITY, CHECKOUT_CAPABILITY, CHECKOUT_EXTENSIONS, handlerRegistry, ORDER_CAPABILITY } from './checkout/shapes.ts';
import type { PublicJwk } from './signatures/signing-keys.ts';
import { servedVersions, usesRegistries } from './core/versions.ts';
import type { UcpVersion } from './core/versions.ts';

/** Where the profile of an older version is published: beside /.well-known/ucp, as overview.md's example has it. */
export const VERSIONED_PROFILE_PATH = '/.well-known/ucp/:version';
export const versionedProfileUrl = (baseUrl: string, version: UcpVersion) => `${baseUrl}/.well-known/ucp/${version}`;

/**
 * A capability the shop publishes. Other capabilities (catalog, cart, identity linking) slot in here: discovery is
 * built from this one list, per version, and `since` keeps a capability out of the profiles of older versions.
 */
export type PublishedCapability = {
  name: string;
  /** The path of its spec page and its schema under https://ucp.dev. */
  spec: string;
  schema: string;
  extends?: string;
  /** The first protocol version that has it. */
  since: UcpVersion;
  /** What the capability declares about the shop, published as its `config`. */
  config?: Record<string, unknown>;
};

export const PUBLISHED_CAPABILITIES: readonly PublishedCapability[] = [
  { name: CHECKOUT_CAPABILITY, spec: 'checkout', schema: 'shopping/checkout.json', since: '2026-01-11' },
  { name: ORDER_CAPABILITY, spec: 'order', schema: 'shopping/order.json', since: '2026-01-11' },
  ...CHECKOUT_EXTENSIONS.map((name) => {
    const short = name.slice('dev.ucp.shopping.'.length);
    return { name, spec: short.replace('_', '-'), schema: `shopping/${short}.json`, extends: CHECKOUT_CAPABILITY, since: '2026-01-11' as const };
  }),
  /*
   * Identity linking (2026-04-08, docs/ucp.md#identity-linking). Its `config.scopes` lists the hard gates, the
   * scopes without which an operation is refused; Butik gates nothing (guest checkout and reading an order by its
   * id work as before), so the map is empty, and the scopes a linked buyer unlocks are the optional layer: the
   * authorization server's `scopes_supported`.
   */
  { name: 'dev.ucp.common.identity_linking', spec: 'identity-linking', schema: 'common/identity_linking.json', since: '2026-04-08', config: { scopes: {} } },
  // Catalog search, catalog lookup and cart, from 2026-04-08 on.
  { name: 'dev.ucp.shopping.catalog.search', spec: 'catalog/search', schema: 'shopping/catalog_search.json', since: '2026-04-08' },
  { name: 'dev.ucp.shopping.catalog.lookup', spec: 'catalog/lookup', schema: 'shopping/catalog_lookup.json', since: '2026-04-08' },
  { name: 'dev.ucp.shopping.cart', spec: 'cart', schema: 'shopping/cart.json', since: '2026-04-08' },
  // Mandates are SD-JWTs (dc+sd-jwt), checked in the trusted-platform-provider flow (ap2-mandates.ts).
  {
    name: AP2_MANDATE_CAPABILITY, spec: 'ap2-mandates', schema: 'shopping/ap2_mandate.json', extends: CHECKOUT_CAPABILITY, since: AP2_SINCE,
    config: { vp_formats_supported: { 'dc+sd-jwt': {} } },
  },
];

type ProfileInputs = {
  baseUrl: string;
  handlers: readonly PaymentHandlerDeclaration[];
  signingKeys: readonly PublicJwk[];
  /** The version /.well-known/ucp declares; the profile of an older one is a leaf without supported_versions. */
  declared: UcpVersion;
};

/** 2026-01-11's profile: services as one object per service, capabilities as a list, handlers under `payment`. */
function listProfile(version: UcpVersion, inputs: ProfileInputs) {
  const spec = 'https://ucp.dev/specification';
  return {
    ucp: {
      version,
      services: {
        'dev.ucp.shopping': {
          version,
          spec: `${spec}/overview`,
          rest: { schema: 'https://ucp.dev/services/shopping/rest.openapi.json', endpoint: inputs.baseUrl },
          mcp: { schema: 'https://ucp.dev/services/shopping/mcp.openrpc.json', endpoint: `${inputs.baseUrl}${UCP_MCP_PATH}` },
        },
      },
      capabilities: capabilitiesOf(version).map((capability) => ({
        name: capability.name, version, spec: `${spec}/${capability.spec}`, schema: `https://ucp.dev/schemas/${capability.schema}`,
        ...(capability.extends ? { extends: capability.extends } : {}),
        ...(capability.config ? { config: capability.config } : {}),
      })),
    },
    payment: { handlers: publishedHandlers(inputs.handlers) },
    signing_keys: inputs.signingKeys,
  };
}

/** From 2026-01-23 on: registries keyed by reverse-domain name, each entry versioned, the URLs under the version. */
function registryProfile(version: UcpVersion, inputs: ProfileInputs) {
  const site = `https://ucp.dev/${version}`;
  const service = (transport: 'rest' | 'mcp', endpoint: string, schema: string) => ({
    version, spec: `${site}/specification/overview`, transport, endpoint, schema: `${site}/services/shopping/${schema}`,
  });
  const older = servedVersions(inputs.declared).filter((served) => served !== version);
  return {
    ucp: {
      version,
      ...(version === inputs.declared && older.length > 0
        ? { supported_versions: Object.fromEntries(older.map((served) => [served, versionedProfileUrl(inputs.baseUrl, served)])) }
        : {}),
      services: {
        'dev.ucp.shopping': [
          service('rest', inputs.baseUrl, 'rest.openapi.json'),
          service('mcp', `${inputs.baseUrl}${UCP_MCP_PATH}`, 'mcp.openrpc.json'),
        ],
      },
      capabilities: Object.fromEntries(capabilitiesOf(version).map((capability) => [capability.name, [{
        version, spec: `${site}/specification/${capability.spec}`, schema: `${site}/schemas/${capability.schema}`,
        ...(capability.extends ? { extends: capability.extends } : {}),
        ...(capability.config ? { config: capability.config } : {}),
      }]])),
      payment_handlers: handlerRegistry(inputs.handlers),
    },
    signing_keys: inputs.signingKeys,
  };
}

const capabilitiesOf = (version: UcpVersion) => PUBLISHED_CAPABILITIES.filter((capability) => capability.since <= version);

/** The names of the capabilities the shop publishes in one version's profile. */
export const publishedCapabilityNames = (version: UcpVersion) => capabilitiesOf(version).map((capability) => capability.name);

/**
 * The shop's business profile for one protocol version: GET /.well-known/ucp is the declared version's, listing the
 * older ones it serves in `supported_versions`; GET /.well-known/ucp/{version} is an older version's, complete
 * and self-contained.
 */
export function businessProfile(version: UcpVersion, inputs: ProfileInputs) {
  return usesRegistries(version) ? registryProfile(version, inputs) : listProfile(version, inputs);
}
