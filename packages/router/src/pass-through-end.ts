import { formatSseEvent, type Codec, type LlmStreamEvent, type ProtocolId, type SseEvent, type StepOutput, type StreamOptions } from '@llm/core';

/**
 * The opening events of each protocol's stream: sent once, before anything else. A passed-through
 * stream whose upstream already sent its opening must not get a second one with the error the
 * router adds (a Claude client would see two `message_start`s, a Responses client two
 * `response.created`s). Chat and Gemini streams have no opening of their own. Whatever an encoder
 * sends for the `start` event itself is dropped as well; this table catches the openings an
 * encoder holds back until the next event (Claude's, to fold early usage into it).
 */
const OPENING_EVENTS: Readonly<Record<ProtocolId, ReadonlySet<string>>> = {
  claude: new Set(['message_start']),
  'openai-responses': new Set(['response.created', 'response.in_progress']),
  'openai-chat': new Set(),
  gemini: new Set(),
};

/** The `start` event of a decoded stream. */
export type StartEvent = Extract<LlmStreamEvent, { type: 'start' }>;

/**
 * The SSE text that ends a passed-through client stream with `error`, an error its upstream's
 * bytes do not hold (a cut stream, a failed read, a timeout). The bytes so far were the
 * upstream's own, so the client's encoder never saw them: a fresh one encodes the error. When the
 * upstream's stream had started (`start`, decoded from its opening), that encoder is primed with
 * it (same id and model) and the opening it would send again is dropped, so the client sees
 * the upstream's events, then its protocol's one error signal. Runs once per failed stream.
 */
export function passThroughErrorText(client: Codec, options: StreamOptions, start: StartEvent | undefined, error: LlmStreamEvent): string {
  const encoder = client.stream.encoder(options);
  let text = '';
  const collect: StepOutput<SseEvent> = {
    enqueue: (event) => {
      if (start && OPENING_EVENTS[client.id].has(event.event ?? '')) return;
      text += formatSseEvent(event);
    },
  };
  if (start) encoder.transform(start, { enqueue: () => undefined });
  encoder.transform(error, collect);
  encoder.flush?.(collect);
  return text;
}
