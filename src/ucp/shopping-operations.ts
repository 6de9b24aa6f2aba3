import type { StoredAnswer } from '../calls/idempotency.ts';
import type { AppDeps } from '../deps.ts';
import { failureAnswer, namesNothing, runOnce } from './call/call.ts';
import type { RunShopping, ShoppingCall, ShoppingOperationName } from './call/call.ts';
import { cancelUcpCart, createUcpCart, readUcpCart, updateUcpCart } from './cart/cart-sessions.ts';
import { getCatalogProduct, lookupCatalog, searchCatalogProducts } from './catalog/catalog-operations.ts';
import { Outcome, outcomeBody, transportErrorBody } from './catalog/shopping-answer.ts';
import type { ShoppingCapability } from './catalog/shopping-answer.ts';

type Operation = {
  capability: ShoppingCapability;
  writes: boolean;
  run(call: ShoppingCall): Promise<{ status: number; body: unknown }>;
};

/**
 * The catalog and cart operations of UCP 2026-04-08, shared by the REST and MCP bindings: a write runs once per
 * Idempotency-Key and platform, a business outcome (an unknown cart or product) is 200 with `ucp.status: "error"`,
 * and a transport error is its HTTP status with the same error structure.
 */
export function shoppingOperations(deps: AppDeps): RunShopping {
  const db = deps.database.db;
  const settingsOf = (call: ShoppingCall) => ({ caller: call.caller, now: deps.runtime.clock() });
  const operations: Record<ShoppingOperationName, Operation> = {
    search_catalog: {
      capability: 'dev.ucp.shopping.catalog.search', writes: false,
      run: async ({ body }) => ({ status: 200, body: await searchCatalogProducts(db, body, deps.baseUrl) }),
    },
    lookup_catalog: {
      capability: 'dev.ucp.shopping.catalog.lookup', writes: false,
      run: async ({ body }) => ({ status: 200, body: await lookupCatalog(db, body, deps.baseUrl) }),
    },
    get_product: {
      capability: 'dev.ucp.shopping.catalog.lookup', writes: false,
      run: async ({ body }) => ({ status: 200, body: await getCatalogProduct(db, body, deps.baseUrl) }),
    },
    create_cart: {
      capability: 'dev.ucp.shopping.cart', writes: true,
      run: async (call) => ({ status: 201, body: await createUcpCart(db, call.body, call.agent.profile, settingsOf(call)) }),
    },
    get_cart: {
      capability: 'dev.ucp.shopping.cart', writes: false,
      run: async (call) => ({ status: 200, body: await readUcpCart(db, call.id, settingsOf(call)) }),
    },
    update_cart: {
      capability: 'dev.ucp.shopping.cart', writes: true,
      run: async (call) => ({ status: 200, body: await updateUcpCart(db, call.id, call.body, settingsOf(call)) }),
    },
    cancel_cart: {
      capability: 'dev.ucp.shopping.cart', writes: true,
      run: async (call) => ({ status: 200, body: await cancelUcpCart(db, call.id, settingsOf(call)) }),
    },
  };

  return async function runShopping(call: ShoppingCall) {
    const operation = operations[call.operation];
    const { capability } = operation;
    const execute = async (): Promise<StoredAnswer> => {
      try {
        if (call.operation.endsWith('_cart') && call.operation !== 'create_cart' && namesNothing(call.id)) {
          throw new Outcome('not_found', 'Cart not found or has expired');
        }
        const answer = await operation.run(call);
        return { status: answer.status, text: JSON.stringify(answer.body) };
      } catch (error) {
        if (error instanceof Outcome) return { status: 200, text: JSON.stringify(outcomeBody(capability, error)) };
        throw error;
      }
    };
    return runOnce({ db, now: deps.runtime.clock() }, call, operation.writes, execute,
      (failure) => failureAnswer(failure, { status: failure.status, body: transportErrorBody(capability, failure) }));
  };
}
