import { matchesGlob } from '@llm/router';
import type { GatewayConfig } from '../config/schema.js';
import type { RequestRecord } from '../router-contract.js';
import type { ModelPrice } from './model-price.js';
import { priceIdsOf } from './model-id.js';
import { PRICE_TABLE } from './price-table.js';
import { usageCost } from './usage-cost.js';

/** The cost of one request: USD, or `unpriced` when its model has no price. */
export type RequestCost = { usd: number } | { unpriced: true };

/** Prices of the models upstreams bill: the shipped table under the config's `prices:`. */
export interface PriceBook {
  /** The price of a model as the upstream bills it (its upstream model id; dated ids match their alias). */
  priceOf(model: string): ModelPrice | undefined;
  /** The cost of one finished request from its record's usage; `unpriced` when the model has no price; undefined when the record has no usage. */
  costOf(record: RequestRecord): RequestCost | undefined;
}

/**
 * The price book of a config: its `prices:` entries first (exact ids before globs, globs in the
 * file's order), then the shipped table. Each id is tried as written, then as its alias
 * (see {@link priceIdsOf}), so a config's `claude-sonnet-4-5` prices the dated and cloud ids too.
 */
export function createPriceBook(config: Pick<GatewayConfig, 'prices'>): PriceBook {
  const configured = Object.entries(config.prices ?? {}) as [string, ModelPrice][];
  const exact = new Map(configured.filter(([id]) => !isGlob(id)));
  const globs = configured.filter(([id]) => isGlob(id));
  const lookup = (id: string): ModelPrice | undefined =>
    exact.get(id) ?? globs.find(([pattern]) => matchesGlob(pattern, id))?.[1] ?? (Object.hasOwn(PRICE_TABLE, id) ? PRICE_TABLE[id] : undefined);
  // Asked once per request: a gateway bills a handful of ids, so each answer is kept.
  const known = new Map<string, ModelPrice | undefined>();
  const priceOf = (model: string): ModelPrice | undefined => {
    if (known.has(model)) return known.get(model);
    let price: ModelPrice | undefined;
    for (const id of priceIdsOf(model)) {
      price = lookup(id);
      if (price) break;
    }
    if (known.size < MAX_REMEMBERED_MODELS) known.set(model, price);
    return price;
  };
  return {
    priceOf,
    costOf(record) {
      if (!record.usage) return undefined;
      const model = record.upstreamModel ?? record.clientModel;
      const price = model === undefined ? undefined : priceOf(model);
      return price ? { usd: usageCost(price, record.usage) } : { unpriced: true };
    },
  };
}

/** Model ids remembered at most (clients choose the ids they send: the memory stays bounded). */
const MAX_REMEMBERED_MODELS = 1000;

function isGlob(id: string): boolean {
  return id.includes('*') || id.includes('?');
}
