import { formatSseEvent, type Codec, type LlmStreamEvent, type SseEvent, type StepOutput, type StreamOptions } from '@llm/core';

/** The `start` event of a decoded stream. */
export type StartEvent = Extract<LlmStreamEvent, { type: 'start' }>;

/**
 * The SSE text that ends a passed-through client stream with `error`, an error its upstream's
 * bytes do not hold (a cut stream, a failed read, a timeout). The bytes so far were the
 * upstream's own, so the client's encoder never saw them: a fresh one encodes the error. When the
 * upstream's stream had started (`start`, decoded from its opening), that encoder is primed with
 * it (same id and model) and the opening it would send again is dropped, so the client sees
 * the upstream's events, then its protocol's one error signal. Runs once per failed stream.
 *
 * The opening is the events named by the client codec's `traits.streamOpeningEvents` (Claude's
 * `message_start`, Responses' `response.created` / `response.in_progress`; Chat and Gemini have
 * none): whatever an encoder sends for the `start` event itself, and the openings an encoder
 * holds back until the next event (Claude's, to fold early usage into it).
 */
export function passThroughErrorText(client: Codec, options: StreamOptions, start: StartEvent | undefined, error: LlmStreamEvent): string {
  const encoder = client.stream.encoder(options);
  const opening = client.traits.streamOpeningEvents;
  let text = '';
  const collect: StepOutput<SseEvent> = {
    enqueue: (event) => {
      if (start && opening.includes(event.event ?? '')) return;
      text += formatSseEvent(event);
    },
  };
  if (start) encoder.transform(start, { enqueue: () => undefined });
  encoder.transform(error, collect);
  encoder.flush?.(collect);
  return text;
}
