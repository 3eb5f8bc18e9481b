// Encodes one canonical response the two ways a codec can answer: the non-stream body, and the SSE
// chunks its stream encoder writes for the same response (the events a stream of it carries, as
// core's `responseToEvents` gives them), with the warnings each reported. For the codecs'
// stream/non-stream agreement properties. Structural types: test-utils does not import core.

/** A reported loss, as far as these helpers look at it. */
export interface WarningLike {
  code: string;
  message: string;
}

interface WarningSink<W> {
  warn(warning: W): void;
}

interface SseEventLike {
  event?: string;
  data: string;
}

interface StepOutputLike {
  enqueue(event: SseEventLike): void;
}

/** The two members of a codec these helpers use: its response encoder and its stream encoder step. */
export interface BothWaysCodec<R, E, W extends WarningLike, O extends object> {
  response: { encode(response: R, context: WarningSink<W>): unknown };
  stream: {
    encoder(options: O & WarningSink<W>): {
      transform(event: E, out: StepOutputLike): void;
      flush?(out: StepOutputLike): void;
    };
  };
}

/** Both encodings of one response, and what each reported. */
export interface BothEncodings<W> {
  body: unknown;
  bodyWarnings: W[];
  /** Each SSE event's data, parsed (Chat's end marker `[DONE]`, not JSON, stays the string). */
  chunks: unknown[];
  /** Each SSE event's `event:` name (Converse names its payloads only there). */
  eventNames: (string | undefined)[];
  streamWarnings: W[];
}

/**
 * `response` encoded as a body and as a stream: `toEvents` (core's `responseToEvents`) gives the
 * events the stream encoder is fed; `streamOptions` are passed to the stream encoder (e.g. Chat's
 * `includeUsage`). Each path gets its own copy of `response`, so neither sees the other's edits.
 */
export function encodeBothWays<R, E, W extends WarningLike, O extends object = object>(
  codec: BothWaysCodec<R, E, W, O>,
  response: R,
  toEvents: (response: R) => readonly E[],
  streamOptions?: O,
): BothEncodings<W> {
  const bodyWarnings: W[] = [];
  const body = codec.response.encode(structuredClone(response), { warn: (warning) => bodyWarnings.push(warning) });
  const streamWarnings: W[] = [];
  const step = codec.stream.encoder({ ...(streamOptions as O), warn: (warning: W) => streamWarnings.push(warning) });
  const events: SseEventLike[] = [];
  const out = { enqueue: (event: SseEventLike) => events.push(event) };
  for (const event of toEvents(structuredClone(response))) step.transform(event, out);
  step.flush?.(out);
  return {
    body,
    bodyWarnings,
    chunks: events.map((event) => (event.data === '[DONE]' ? event.data : (JSON.parse(event.data) as unknown))),
    eventNames: events.map((event) => event.event),
    streamWarnings,
  };
}

/** What a set of warnings says, regardless of where and how often (a stream reports a loss once). */
export function warningKinds(warnings: readonly WarningLike[]): string[] {
  return [...new Set(warnings.map((warning) => `${warning.code}: ${warning.message}`))].sort();
}
