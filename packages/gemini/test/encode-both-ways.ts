// Encodes one canonical response the two ways a codec can answer: the non-stream body, and the SSE
// chunks its stream encoder writes for the same response (core's responseToEvents, the events a
// stream of it carries), with the warnings each reported. Nothing here is Gemini-specific: it
// belongs in @llm/test-utils once the other codecs' stream/non-stream property tests use it.
import { responseToEvents, type Codec, type LlmResponse, type LlmWarning, type SseEvent } from '@llm/core';

/** Both encodings of one response, and what each reported. */
export interface BothEncodings {
  body: unknown;
  bodyWarnings: LlmWarning[];
  /** Each SSE event's data, parsed. */
  chunks: unknown[];
  streamWarnings: LlmWarning[];
}

export function encodeBothWays(codec: Pick<Codec, 'response' | 'stream'>, response: LlmResponse): BothEncodings {
  const bodyWarnings: LlmWarning[] = [];
  const body = codec.response.encode(structuredClone(response), { warn: (warning) => bodyWarnings.push(warning) });
  const streamWarnings: LlmWarning[] = [];
  const step = codec.stream.encoder({ warn: (warning) => streamWarnings.push(warning) });
  const events: SseEvent[] = [];
  const out = { enqueue: (event: SseEvent) => events.push(event) };
  for (const event of responseToEvents(structuredClone(response))) step.transform(event, out);
  step.flush?.(out);
  return { body, bodyWarnings, chunks: events.map((event) => JSON.parse(event.data) as unknown), streamWarnings };
}

/** What a set of warnings says, regardless of where and how often (a stream reports a loss once). */
export function warningKinds(warnings: readonly LlmWarning[]): string[] {
  return [...new Set(warnings.map((warning) => `${warning.code}: ${warning.message}`))].sort();
}
