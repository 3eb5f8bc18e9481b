// Prices and the cost of requests (the README's "Prices and cost").
export type { ModelPrice, TokenRates } from './model-price.js';
export { createPriceBook } from './price-book.js';
export type { PriceBook, RequestCost } from './price-book.js';
export { PRICE_TABLE, PRICE_TABLE_DATE, PRICE_TABLE_SOURCES } from './price-table.js';
export { priceIdsOf } from './model-id.js';
export { usageCost } from './usage-cost.js';
