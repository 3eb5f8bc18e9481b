export { claude } from './codec.js';
export { DEFAULT_MAX_TOKENS } from './request-encode.js';
export { MAX_CACHE_BREAKPOINTS } from './cache-breakpoints.js';
export { DEFAULT_ANTHROPIC_VERSION, http } from './http.js';
export { decodeUsage, encodeUsage } from './usage.js';
export type * from './wire-types.js';
