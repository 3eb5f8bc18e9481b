import { extensionKit, wireReader } from '@llm/core/kit';

/** This codec's protocol id. */
export const PROTOCOL = 'gemini' as const;

/** Readers of Gemini wire input: a wrong value is a 400 naming its path and this protocol. */
export const read = wireReader(PROTOCOL);

/**
 * This codec's extension bag. Keys starting with `$` are bookkeeping for exact same-protocol
 * round trips (never written to the wire as such):
 * - `$syntheticId`: the call id was made up by the decoder (Gemini sent none).
 * - `$unsigned`: a Gemini function call that carried no thought signature.
 * - `$tool`: index of the wire Tool object a tool came from (several kinds may share one).
 * - `$schema`: the original `parameters` / `responseSchema` in Gemini's OpenAPI dialect.
 * - `$jsonSchema`: the schema came as `parametersJsonSchema` / `responseJsonSchema`.
 * - `$joined`: a user message that shared one wire content with the tool results before it.
 * - `$tools[i].functionDeclarations[j]` (request bag): that declaration's fields with no canonical
 *   meaning (`responseJsonSchema`, `behavior`, ...), named by their path so that a request going
 *   to another protocol reports each; the tool's own bag writes them back to Gemini.
 */
export const ext = extensionKit(PROTOCOL);
