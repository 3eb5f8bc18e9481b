import { extensionKit, wireReader, type ExtensionKit, type WireReader } from '@llm/core/kit';

/** This codec's protocol id. */
export const PROTOCOL = 'bedrock-converse' as const;

/**
 * Readers of Converse wire input: errors name the JSON path and this protocol. (Typed explicitly
 * so that a `read.invalid(...)` call narrows like a `throw`.)
 */
export const read: WireReader = wireReader(PROTOCOL);

/**
 * The Converse extension bag: unmodelled wire fields, copied back on encode, and bookkeeping marks
 * (never written to the wire as such):
 * - `$separate`: this message started its own wire message (the encoder would otherwise merge it
 *   with the tool results before it).
 * - `$inferenceConfig`: `inferenceConfig` fields with no canonical home.
 * - `$toolConfig`: `toolConfig` fields with no canonical home.
 * - `$outputConfig`: `outputConfig` fields with no canonical home.
 * - `$schemaText`: the JSON text of an `outputConfig.textFormat` schema, as the client wrote it.
 * - `$status`: a tool result's `status` was `success` (written back only when it was sent).
 * - `$noStatus` (response): an answer without `stopReason` / `usage` / `metrics`, kept missing.
 */
export const ext: ExtensionKit = extensionKit(PROTOCOL);
