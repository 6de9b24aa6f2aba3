import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/element-types').map((m) => m.message);
}

describe('the layering lint (eslint.config.js)', () => {
  it.each([
    ['src/domain/x.ts', "import { REFERENCE_POLICY } from '../http/reference-page.ts';", 'domain may not import http'],
    ['src/tools/x.ts', "import { sendProblem } from '../edge/problem-reply.ts';", 'tools may not import edge'],
    ['src/commerce/x.ts', "import { runCall } from '../calls/run-call.ts';", 'commerce may not import calls'],
    ['src/http/x.ts', "import { MCP_PATH } from '../mcp/route.ts';", 'http may not import mcp'],
    ['src/mcp/x.ts', "import { toolsRoute } from '../http/tools-route.ts';", 'mcp may not import http'],
    ['src/db/x.ts', "import { ALL_TOOLS } from '../tools/registry.ts';", 'db may not import tools'],
    ['src/site/x.ts', "import { productTools } from '../tools/products.ts';", 'site may not import tools'],
    ['src/commerce/x.ts', "import { feedOrderEvents } from '../ucp/webhooks/order-feed.ts';", 'commerce may not import ucp'],
    ['src/tools/x.ts', "import { webhookEvents } from '../ucp/webhooks/outbox.ts';", 'tools may not import ucp'],
    ['src/site/x.ts', "import { pagePath } from '../admin/pages/pages.ts';", 'site may not import admin'],
    // UCP never imports tools, from the top of src/ucp or from any of its rooms.
    ['src/ucp/x.ts', "import { searchProducts } from '../tools/products-search.ts';", 'ucp may not import tools'],
    ['src/ucp/catalog/x.ts', "import { searchProducts } from '../../tools/products-search.ts';", 'ucp-catalog may not import tools'],
    // UCP's rooms use the rooms below them, never the top of src/ucp or a room above.
    ['src/ucp/mcp/x.ts', "import { ucpOperations } from '../operations.ts';", 'ucp-mcp may not import ucp'],
    ['src/ucp/checkout/x.ts', "import { requestVerifier } from '../signatures/verify-request.ts';", 'ucp-checkout may not import ucp-signatures'],
    ['src/ucp/core/x.ts', "import { openCaller } from '../identity/caller.ts';", 'ucp-core may not import ucp-identity'],
    ['src/admin/x.ts', "import { openDatabase } from '../db/client.ts';", 'admin may not import db'],
  ])('refuses %s importing across a wall: %s', async (file, code, message) => {
    expect(await violations(file, `${code}\nexport const used = 1;\n`)).toEqual([expect.stringContaining(message)]);
  });

  it('allows the arrows the layering has: a tool reads commerce, MCP reads calls, the site reads shop, UCP places orders through commerce', async () => {
    expect(await violations('src/tools/x.ts', "import { changeOrderStatus } from '../commerce/orders.ts';")).toEqual([]);
    expect(await violations('src/mcp/x.ts', "import { runCall } from '../calls/run-call.ts';")).toEqual([]);
    expect(await violations('src/site/x.ts', "import { readSettings } from '../shop/settings.ts';")).toEqual([]);
    expect(await violations('src/ucp/x.ts', "import { placeOrder } from '../commerce/place-order.ts';")).toEqual([]);
    expect(await violations('src/ucp/catalog/x.ts', "import { searchCatalogRecords } from '../../shop/product-search.ts';")).toEqual([]);
    expect(await violations('src/ucp/cart/x.ts', "import { variantIdOf } from '../catalog/catalog-product.ts';")).toEqual([]);
    // The console previews a draft page with the storefront's renderer.
    expect(await violations('src/admin/x.ts', "import { pageView } from '../site/views.ts';")).toEqual([]);
  });
});
