import { z } from 'zod';
import { ProductSummary } from '../schema/product.ts';
import { searchCatalog, SearchInput } from '../shop/product-search.ts';
import { defineTool, readOnly } from './define-tool.ts';

export const searchProducts = defineTool({
  name: 'products.search',
  description: 'Search the visible catalog, which is written in Danish (English shop words in q and in the colour '
    + 'filters are understood too). '
    + 'All filters are optional and combine with AND; prices are in øre incl. VAT. Ordered strongest match first when q '
    + 'is given (see q), otherwise newest first. Page with limit and offset.',
  scope: 'catalog:read',
  anonymous: true,
  annotations: readOnly('Search products'),
  input: SearchInput.meta({ examples: [{ q: 'solbriller', frameColor: 'sort', maxPriceOere: 150000, limit: 10 }] }),
  output: z.array(ProductSummary),
  handler: (input, { db }) => searchCatalog(db, input),
});
