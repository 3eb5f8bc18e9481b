/**
 * Stream steps: the body of a `TransformStream` as a plain synchronous object, so that several
 * stages can run as one. Every Web stream stage costs promises and queueing per chunk; a bridge
 * chains a dozen stages per event, which made streaming CPU-bound (tools/bench). Codecs expose
 * their stream transcoders as steps too; {@link stepStream} turns any step into a stream and
 * {@link pipeSteps} fuses two steps into one, the first feeding the second directly.
 */

/** Where a step writes its output (a `TransformStreamDefaultController` is one). */
export interface StepOutput<O> {
  enqueue(chunk: O): void;
}

/** A synchronous transform: `transform` per input chunk, `flush` once at the end. May throw. */
export interface StreamStep<I, O> {
  transform(chunk: I, out: StepOutput<O>): void;
  flush?(out: StepOutput<O>): void;
}

/** A `TransformStream` running `step`. */
export function stepStream<I, O>(step: StreamStep<I, O>): TransformStream<I, O> {
  const flush = step.flush;
  return new TransformStream<I, O>({
    transform: (chunk, controller) => step.transform(chunk, controller),
    flush: flush ? (controller) => flush.call(step, controller) : undefined,
  });
}

/** A step that hands every chunk on unchanged. */
export function passThroughStep<T>(): StreamStep<T, T> {
  return { transform: (chunk, out) => out.enqueue(chunk) };
}

/** One step made of two: what `first` emits goes straight into `second`, with no queue between. */
export function pipeSteps<A, B, C>(first: StreamStep<A, B>, second: StreamStep<B, C>): StreamStep<A, C> {
  let target: StepOutput<C> | undefined;
  const feed: StepOutput<B> = { enqueue: (chunk) => second.transform(chunk, target as StepOutput<C>) };
  return {
    transform(chunk, out) {
      target = out;
      first.transform(chunk, feed);
    },
    flush(out) {
      target = out;
      first.flush?.(feed);
      second.flush?.(out);
    },
  };
}

/**
 * A text step whose output is joined per input chunk: a network read that carried many events
 * leaves as one string (one write).
 */
export function joinTextStep<I>(step: StreamStep<I, string>): StreamStep<I, string> {
  let text = '';
  const collect: StepOutput<string> = {
    enqueue: (chunk) => {
      text += chunk;
    },
  };
  const release = (out: StepOutput<string>): void => {
    if (text === '') return;
    const joined = text;
    text = '';
    out.enqueue(joined);
  };
  return {
    transform(chunk, out) {
      step.transform(chunk, collect);
      release(out);
    },
    flush(out) {
      step.flush?.(collect);
      release(out);
    },
  };
}

/**
 * A byte stream running `step`, whose text output is joined per input chunk and encoded once: a
 * network read that carried many events leaves as one write.
 */
export function textStepStream<I>(step: StreamStep<I, string>): TransformStream<I, Uint8Array> {
  const encoder = new TextEncoder();
  return stepStream(pipeSteps(joinTextStep(step), { transform: (text, out) => out.enqueue(encoder.encode(text)) }));
}
