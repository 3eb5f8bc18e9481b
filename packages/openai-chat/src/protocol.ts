import { extensionKit, wireReader, type ExtensionKit, type WireReader } from '@llm/core/kit';

/** This codec's protocol id. */
export const PROTOCOL = 'openai-chat' as const;

/**
 * Readers of Chat wire input: errors name this protocol. Typed explicitly so that TypeScript
 * narrows after `read.invalid(...)` (it returns `never`).
 */
export const read: WireReader = wireReader(PROTOCOL);

/**
 * This codec's extension bag: unmodelled wire fields, and marks (`$`-keys, never written) that
 * remember wire shape choices (a string vs an array `content`, `max_tokens` vs
 * `max_completion_tokens`).
 */
export const ext: ExtensionKit = extensionKit(PROTOCOL);
