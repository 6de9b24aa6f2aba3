import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The layering of src/ as a rule instead of a habit. Handlers (tools), business rules (commerce, shop)
 * and pure rules (domain) never import a transport; http/ and mcp/ are siblings over calls/ and edge/;
 * the public site reads shop/, not tools/.
 */
const layers = [
  { type: 'domain', pattern: 'src/domain/**', mode: 'full' },
  { type: 'errors', pattern: 'src/errors/**', mode: 'full' },
  { type: 'schema', pattern: 'src/schema/**', mode: 'full' },
  { type: 'db', pattern: 'src/db/**', mode: 'full' },
  { type: 'access', pattern: 'src/access/**', mode: 'full' },
  { type: 'policies', pattern: 'src/policies/**', mode: 'full' },
  { type: 'shop', pattern: 'src/shop/**', mode: 'full' },
  { type: 'commerce', pattern: 'src/commerce/**', mode: 'full' },
  { type: 'tools', pattern: 'src/tools/**', mode: 'full' },
  { type: 'calls', pattern: 'src/calls/**', mode: 'full' },
  { type: 'edge', pattern: 'src/edge/**', mode: 'full' },
  { type: 'http', pattern: 'src/http/**', mode: 'full' },
  { type: 'mcp', pattern: 'src/mcp/**', mode: 'full' },
  { type: 'oauth', pattern: 'src/oauth/**', mode: 'full' },
  { type: 'site', pattern: 'src/site/**', mode: 'full' },
  { type: 'admin', pattern: 'src/admin/**', mode: 'full' },
  { type: 'seed', pattern: 'src/seed/**', mode: 'full' },
  { type: 'import', pattern: 'src/import/**', mode: 'full' },
  { type: 'outbound', pattern: 'src/outbound/**', mode: 'full' },
  // UCP's rooms (docs/architecture.md#ucp): listed before the top of src/ucp, since the first pattern that matches wins.
  ...['core', 'payments', 'identity', 'call', 'checkout', 'signatures', 'webhooks', 'catalog', 'cart', 'mcp']
    .map((room) => ({ type: `ucp-${room}`, pattern: `src/ucp/${room}/**`, mode: 'full' })),
  { type: 'ucp', pattern: 'src/ucp/*.ts', mode: 'full' },
  { type: 'handoff', pattern: 'src/handoff/**', mode: 'full' },
  { type: 'commands', pattern: 'src/commands/**', mode: 'full' },
  { type: 'kernel', pattern: ['src/log.ts', 'src/context.ts', 'src/config.ts'], mode: 'full' },
  { type: 'deps', pattern: 'src/deps.ts', mode: 'full' },
  { type: 'main', pattern: ['src/app.ts', 'src/cli.ts', 'src/server.ts', 'src/staff-command.ts', 'src/embedded-first-start.ts'], mode: 'full' },
];

const base = ['domain', 'errors', 'schema', 'kernel'];

/**
 * What UCP may use outside itself: the commerce rules and the shop's reads, the call pipeline's idempotency, the
 * edge's helpers, the MCP schema helpers and the one outbound fetcher. Never tools/: the webhook tools are defined there over functions of
 * UCP's, handed to them by app.ts.
 */
const ucpOutside = [...base, 'commerce', 'shop', 'access', 'db', 'calls', 'edge', 'deps', 'mcp', 'outbound'];
/**
 * UCP's rooms, each over the ones below it and never back (test/lint/ucp-rooms.test.ts also refuses cycles
 * between files): the top of src/ucp (face, bindings, dispatchers, profile, negotiation) uses them all.
 */
const ucpRooms = {
  'ucp-core': [],
  'ucp-payments': ['ucp-core'],
  'ucp-identity': ['ucp-core'],
  'ucp-call': ['ucp-core', 'ucp-identity'],
  'ucp-checkout': ['ucp-core', 'ucp-payments', 'ucp-identity'],
  'ucp-signatures': ['ucp-core', 'ucp-checkout'],
  'ucp-webhooks': ['ucp-core', 'ucp-identity', 'ucp-checkout', 'ucp-signatures'],
  'ucp-catalog': ['ucp-core'],
  'ucp-cart': ['ucp-core', 'ucp-identity', 'ucp-checkout', 'ucp-catalog'],
  'ucp-mcp': ['ucp-core', 'ucp-identity', 'ucp-call', 'ucp-checkout', 'ucp-signatures', 'ucp-catalog'],
};
const UCP = ['ucp', ...Object.keys(ucpRooms)];

export default tseslint.config(
  { ignores: ['node_modules/', 'drizzle/', 'dist/', '.butik/'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': layers,
      'boundaries/include': ['src/**/*.ts'],
    },
    rules: {
      'boundaries/no-unknown-files': 'error',
      'boundaries/element-types': ['error', {
        default: 'disallow',
        message: '${file.type} may not import ${dependency.type} (see eslint.config.js for the layering)',
        rules: [
          { from: 'domain', allow: ['domain'] },
          { from: 'errors', allow: ['errors', 'db'] },
          { from: 'schema', allow: [...base, 'access'] },
          { from: 'db', allow: ['db', 'kernel'] },
          // The tool context names the order-event hub whose event types are domain's. The configuration keeps UCP's
          // settings raw: the UCP face reads and checks its payment-handler file and version when it starts.
          { from: 'kernel', allow: ['kernel', 'domain', 'db', 'access'] },
          { from: 'access', allow: [...base, 'access', 'db'] },
          // Beside access: the owner's rules over agents' calls, and the calls they hold; the call pipeline asks them.
          { from: 'policies', allow: [...base, 'policies', 'access', 'db'] },
          { from: 'shop', allow: [...base, 'shop', 'db'] },
          // Commerce knows nothing of UCP: it announces order changes through the hub in its context, and the UCP
          // module, which may import commerce, subscribes at composition. Never add 'ucp' here.
          { from: 'commerce', allow: [...base, 'commerce', 'shop', 'db', 'access'] },
          { from: 'tools', allow: [...base, 'tools', 'commerce', 'shop', 'db', 'access', 'policies'] },
          { from: 'calls', allow: [...base, 'calls', 'tools', 'access', 'db', 'policies'] },
          { from: 'deps', allow: [...base, 'access', 'db', 'tools'] },
          { from: 'edge', allow: [...base, 'edge', 'calls', 'access', 'deps'] },
          { from: 'http', allow: [...base, 'http', 'edge', 'calls', 'tools', 'access', 'db', 'deps', 'commands'] },
          // The MCP Apps views (mcp/apps/) read the shop's currency and wear the storefront's colours.
          { from: 'mcp', allow: [...base, 'mcp', 'edge', 'calls', 'tools', 'access', 'oauth', 'deps', 'shop', 'site'] },
          // The one outbound fetcher (size, time, redirect and address limits) is below every face that sends a request
          // on someone else's word: UCP (platform profiles, webhooks) and OAuth (client metadata documents).
          { from: 'outbound', allow: ['outbound'] },
          { from: 'oauth', allow: [...base, 'oauth', 'edge', 'access', 'db', 'site', 'deps', 'outbound'] },
          // The console is a third face of the tools beside http/ and mcp/: it may read what http/ reads, and shop/
          // for read-only views, but changes the shop only through the call pipeline (calls/). Staff accounts,
          // sessions and API keys are access/ concerns; admin/ never imports db/ itself. It renders a page preview with
          // the storefront's own renderer (site/), under /admin where the session cookie is sent; site/ never imports admin/.
          // What is the owner's alone and no tool (connected apps, the CSV import) it runs as the owner commands the CLI
          // runs (commands/).
          { from: 'admin', allow: [...base, 'admin', 'edge', 'calls', 'tools', 'access', 'deps', 'shop', 'site', 'commands', 'policies'] },
          { from: 'site', allow: [...base, 'site', 'shop', 'edge', 'db', 'deps'] },
          { from: 'seed', allow: [...base, 'seed', 'shop', 'commerce', 'db'] },
          { from: 'import', allow: [...base, 'import', 'shop', 'access', 'db'] },
          // UCP is a transport of its own over the commerce rules: it answers UCP's JSON, not problem+json. It never
          // imports tools/: its webhook tools (tools/webhooks.ts) run on its outbox, which app.ts hands them.
          { from: 'ucp', allow: [...ucpOutside, ...UCP] },
          ...Object.entries(ucpRooms).map(([room, below]) => ({ from: room, allow: [...ucpOutside, room, ...below] })),
          // The buyer's checkout page is a face for people over the UCP operations: it runs them as the REST and MCP
          // bindings do (so it has no path of its own to an order) and wears the storefront's pages and stylesheet.
          // It never imports db/, commerce/ or tools/: what it changes, it changes through ucp/.
          { from: 'handoff', allow: [...base, 'handoff', 'ucp', 'ucp-core', 'ucp-call', 'site', 'shop', 'edge', 'deps'] },
          // The CLI's owner commands (butik oauth …): run on the database, here or through the server's route,
          // so they sit below http/ and the CLI and use the rules of the faces they manage (oauth/, import/).
          { from: 'commands', allow: [...base, 'commands', 'db', 'access', 'oauth', 'tools', 'import', 'shop', 'policies', 'calls'] },
          { from: 'main', allow: ['*'] },
        ],
      }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read response bodies by path; their schema tests check the shapes that `any` skips here.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
