// Virtual keys (the README's "Keys, limits and budgets").
export { DEFAULT_KEY_CACHE_TTL_MS, KeyResolver, MAX_CACHED_KEYS, NOT_CACHED } from './key-resolver.js';
export type { KeyAuthentication } from './key-resolver.js';
export { DEFAULT_RESERVED_OUTPUT_TOKENS, KeyEnforcement, RESERVED_CHARS_PER_INPUT_TOKEN } from './key-enforcement.js';
export type { EnforcementSettings, KeyLimiter, KeyPrices } from './key-enforcement.js';
export { KeyInputError, KEY_NAME_PATTERN, MAX_KEY_MODELS, MAX_METADATA_ENTRIES, parseKeyChanges, parseNewKey } from './key-input.js';
export type { KeyChanges, NewKey } from './key-input.js';
export { KeyOperationError, KeyRegistry } from './key-registry.js';
export type { KeyRegistryOptions } from './key-registry.js';
export type { KeyStore } from './key-store.js';
export { keyLocationOf, keyLocationOfConfig } from './key-location.js';
export type { KeyLocation } from './key-location.js';
export { KEY_CHANGES_CHANNEL } from './key-changes.js';
export { openGatewayKeys, openKeyRegistry, openKeyStore } from './open-keys.js';
export type { GatewayKeys, GatewayKeysOptions } from './open-keys.js';
export { allowsModel, hashSecret, keyRefusal, keyView, newSecret, SECRET_PREFIX } from './virtual-key.js';
export type { KeySettings, KeyView, VirtualKey } from './virtual-key.js';
