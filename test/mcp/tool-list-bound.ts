/**
 * The most bytes `tools/list` may take for every tool (UCP off), which tool-schemas.test.ts checks and the connector's
 * longer list is measured against. The goal is 40 KB (docs/behaviour.md#the-tool-list); this bound only keeps the list
 * from growing unnoticed. It was 97 KB for 51 tools, 109 KB for 58 after this round added products.adjust_stock, orders.refund (and the
 * refunds orders.get lists), the five shipping tools, the shop's search vocabulary in settings.get and
 * settings.update, the MCP Apps views named by six tools, and cart.checkout's shipping country.
 */
export const TOOL_LIST_BOUND = 112_000;
