export { gemini } from './codec.js';
export { http } from './http.js';
export { SKIP_SIGNATURE } from './request-encode.js';
export { fromGeminiSchema } from './schema.js';
export { decodeUsage, encodeUsage } from './usage.js';
export type * from './wire-types.js';
