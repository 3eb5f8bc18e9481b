import { extensionKit, wireReader, type ExtensionKit, type WireReader } from '@llm/core/kit';

/** This codec's protocol id. */
export const PROTOCOL = 'claude' as const;

/**
 * Readers of Claude wire input: errors name the JSON path and this protocol. (Typed explicitly so
 * that a `read.invalid(...)` call narrows like a `throw`.)
 */
export const read: WireReader = wireReader(PROTOCOL);

/**
 * Claude's extension bag. Bookkeeping marks (never written to the wire):
 * - `$blocks`: the top-level `system` was a block array (even of one plain block).
 * - `$separate`: this message started its own wire message (the encoder would otherwise merge it
 *   with the tool results before it).
 * - `$noContent`: a `tool_result` without `content`.
 * - `$block`: a json part inside a tool result that is a wire block kept whole.
 * - `$budget`: the request's thinking budget as a Claude client sent it (written back unfitted).
 * - `$asSent`: a Claude client's sampling and thinking settings outside Claude's bounds (written
 *   back as they came, where another protocol's are fitted: see sampling-bounds.ts).
 */
export const ext: ExtensionKit = extensionKit(PROTOCOL);
