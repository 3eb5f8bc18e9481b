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
 * - `$toolConfig`: `toolConfig` fields with no canonical home (present, maybe empty, whenever the
 *   request had a `toolConfig`).
 * - `$outputConfig`: `outputConfig` fields with no canonical home.
 * - `$schemaText`: the JSON text of an `outputConfig.textFormat` schema, as the client wrote it.
 * - `$budget`: a Claude model's thinking budget as a Converse client sent it (written back unfitted).
 * - `$asSent`: a Converse client's sampling outside its Claude model's bounds (written back as it
 *   came, where another protocol's is fitted: see sampling-bounds.ts).
 * - `$block`: a json part of a tool result that is a wire item kept whole (video, S3 media, ...).
 * - `$noUsage`, `$noMetrics` (answers): an answer without `usage` / `metrics`, kept without them.
 * - `$stop`, `$metadata` (a streamed answer's choice): `messageStop` and `metadata` fields besides
 *   the stop reason and usage (`additionalModelResponseFields`, `metrics`, `trace`), and a stop
 *   reason this codec does not know.
 */
export const ext: ExtensionKit = extensionKit(PROTOCOL);
