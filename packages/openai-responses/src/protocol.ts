import { invalid } from '@llm/core';
import { extensionKit, wireReader } from '@llm/core/kit';

/** This codec's protocol id. */
export const PROTOCOL = 'openai-responses' as const;

/** Wire readers that name this protocol in their errors. */
export const read = wireReader(PROTOCOL);

/**
 * This codec's extension bag. Its bookkeeping marks (keys starting with `$`, never written to
 * the wire):
 * - `$item`: on a part, the fields of the message item it opened (`id`, `status`, `phase`, `type`).
 * - `$string`: the message item's content was a bare string.
 * - `$input`: a system message that was an `input` item, not `instructions`.
 * - `$summary` / `$content`: a reasoning item's summary / content arrays when the canonical text
 *   cannot say them exactly.
 * - `$maxEffort`: a Responses client sent `reasoning.effort: "max"` (written back as sent; another
 *   protocol's `max` goes as `xhigh`, OpenAI's highest level).
 * - `$maxOutput`: a `max_output_tokens` below the API's floor as a Responses client sent it
 *   (written back as sent; one from elsewhere is raised to the floor).
 */
export const ext = extensionKit(PROTOCOL);

/** The least `max_output_tokens` the Responses API takes (it refuses smaller values with a 400). */
export const MIN_MAX_OUTPUT_TOKENS = 16;

/**
 * The "expected X, got Y" error at `path` for a value other than the one at that path (a part
 * judged by its `type`), which `read.invalid` cannot name.
 */
export function invalidAt(path: string, expected: string, got: unknown): never {
  return invalid(path, undefined, expected, got, PROTOCOL);
}
