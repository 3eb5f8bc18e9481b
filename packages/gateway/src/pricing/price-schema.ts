import * as v from 'valibot';

/** USD per million tokens: a finite number from 0. */
const Usd = v.pipe(v.number(), v.finite('must be a finite number'), v.minValue(0, 'must be at least 0'));

const RATE_FIELDS = {
  input: Usd,
  output: Usd,
  cachedInput: v.optional(Usd),
  cacheWrite5m: v.optional(Usd),
  cacheWrite1h: v.optional(Usd),
  reasoning: v.optional(Usd),
};

/** One model's price in the config (the shipped table's fields; see model-price.ts). */
export const ModelPriceSchema = v.strictObject({
  ...RATE_FIELDS,
  longContext: v.optional(
    v.strictObject({
      aboveInputTokens: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1')),
      ...RATE_FIELDS,
    }),
  ),
});

/**
 * `prices:` in the config: a model id, or a glob (`*`, `?`) over the ids upstreams bill, to its
 * price. Overrides the shipped table for the ids it matches and prices models the table lacks.
 */
export const PricesSchema = v.optional(v.record(v.pipe(v.string(), v.minLength(1, 'must not be empty')), ModelPriceSchema));
