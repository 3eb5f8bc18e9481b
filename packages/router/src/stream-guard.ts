import { LlmError, unfinishedStreamError, upstreamDecodeFailure, type LlmStreamEvent, type ProtocolId, type StepOutput, type StreamStep } from '@llm/core';

/**
 * The one place where an upstream stream's ending is judged.
 * Whatever happens to the upstream stream, its decoded events end with a `finish` or an `error`,
 * so a client never takes a cut stream for a complete answer:
 * - a decoder that throws (bytes that are not the protocol's stream) ends the events with an
 *   `upstream` error, and the rest of the input is ignored;
 * - a failed read (connection reset, idle timeout, request deadline) arrives as a
 *   {@link StreamFailure} input and ends the events with its error;
 * - input that ends with neither a `finish` nor an `error` gets an `upstream` error appended.
 */

/** A failed upstream read, handed to the guard as its last input. */
export class StreamFailure {
  constructor(readonly cause: unknown) {}
}

/** What a guarded decode step takes: upstream bytes, or the failure that ended them. */
export type GuardedInput = Uint8Array | StreamFailure;

/** A guarded decode step (see the module comment). */
export interface StreamGuard extends StreamStep<GuardedInput, LlmStreamEvent> {
  /**
   * The error event the guard (or the decoder's end of stream) made itself since the last call,
   * which the upstream's bytes therefore do not hold: a same-protocol pass-through must still
   * send it to the client.
   */
  takeMadeError(): LlmStreamEvent | undefined;
}

/** Guards `decode` (upstream SSE bytes of `protocol` -> canonical events). */
export function guardStream(decode: StreamStep<Uint8Array, LlmStreamEvent>, protocol: ProtocolId): StreamGuard {
  /** A terminal event passed: the stream said how it ended. */
  let ended = false;
  /** The guard emitted its own error: nothing more is read. */
  let failed = false;
  let flushing = false;
  let made: LlmStreamEvent | undefined;
  let target: StepOutput<LlmStreamEvent> | undefined;
  const tracked: StepOutput<LlmStreamEvent> = {
    enqueue(event) {
      if (event.type === 'finish' || event.type === 'error') ended = true;
      // An error the decoder emits at its end (a truncation) is not in the upstream's bytes.
      if (flushing && event.type === 'error') made = event;
      target?.enqueue(event);
    },
  };
  const fail = (error: LlmError, out: StepOutput<LlmStreamEvent>): void => {
    failed = true;
    ended = true;
    made = { type: 'error', error };
    out.enqueue(made);
  };
  return {
    transform(chunk, out) {
      if (failed) return;
      if (chunk instanceof StreamFailure) {
        fail(readFailure(chunk.cause), out);
        return;
      }
      target = out;
      try {
        decode.transform(chunk, tracked);
      } catch (error) {
        fail(upstreamDecodeFailure(protocol, 'stream', error), out);
      }
    },
    flush(out) {
      if (failed) return;
      target = out;
      flushing = true;
      try {
        decode.flush?.(tracked);
      } catch (error) {
        fail(upstreamDecodeFailure(protocol, 'stream', error), out);
        return;
      }
      if (!ended) fail(unfinishedStreamError(), out);
    },
    takeMadeError() {
      const event = made;
      made = undefined;
      return event;
    },
  };
}

/**
 * The error of a read that failed: the router's own timeouts as they are, anything else (a
 * reset, a socket error naming an address) as a generic `upstream` error keeping it as `cause`.
 */
function readFailure(cause: unknown): LlmError {
  if (LlmError.isInstance(cause) && (cause.kind === 'timeout' || cause.kind === 'cancelled')) return cause;
  return new LlmError({ kind: 'upstream', message: 'the upstream connection failed mid-stream', cause });
}
