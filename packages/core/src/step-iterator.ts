import type { StepOutput, StreamStep } from './stream-step.js';

/**
 * Stream steps over async iterables: the Web-stream-free twin of `stepStream`. A server that
 * owns its sockets (node:http) reads an upstream body as an async iterable and writes what comes
 * out, with no `ReadableStream` / `TransformStream` built per response; creating those and
 * moving chunks through them was a large share of the gateway's CPU per streamed answer.
 */

/** Options of {@link stepIterable}. */
export interface StepIterableOptions<O> {
  /** Runs once: after the flush, on an error, or on `return()`. */
  onEnd?: () => void;
  /**
   * Called when reading the source fails (a connection reset mid-stream). It may write a last
   * output (an error event in the consumer's protocol) and return true: the iteration then ends
   * normally after it. Otherwise (or when the step itself throws) the read rejects.
   */
  recover?: (error: unknown, out: StepOutput<O>) => boolean;
}

/**
 * Runs `step` over `source`. `return()` (a consumer that stops early, e.g. a client that went
 * away) ends the source at once, even while a read is pending, so an upstream request is
 * cancelled without waiting for its next chunk.
 */
export function stepIterable<I, O>(source: AsyncIterable<I>, step: StreamStep<I, O>, options: StepIterableOptions<O> = {}): AsyncIterableIterator<O> {
  return new StepIterator(source[Symbol.asyncIterator](), step, options);
}

class StepIterator<I, O> implements AsyncIterableIterator<O> {
  private readonly pending: O[] = [];
  private readonly out: StepOutput<O> = { enqueue: (chunk) => void this.pending.push(chunk) };
  private ended = false;
  /** Settles the read in progress; `return()` uses it so a pending read never outlives the end. */
  private settle: ((result: IteratorResult<I>) => void) | undefined;

  constructor(
    private readonly source: AsyncIterator<I>,
    private readonly step: StreamStep<I, O>,
    private readonly options: StepIterableOptions<O>,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<O, undefined>> {
    for (;;) {
      if (this.pending.length > 0) return { done: false, value: this.pending.shift() as O };
      if (this.ended) return { done: true, value: undefined };
      let result: IteratorResult<I>;
      try {
        result = await this.read();
      } catch (error) {
        if (this.ended) continue;
        let recovered = false;
        try {
          recovered = this.options.recover?.(error, this.out) ?? false;
        } catch {
          // A failing recovery is no recovery: the read error stands.
        }
        if (recovered) {
          this.end();
          continue;
        }
        this.pending.length = 0;
        this.end();
        throw error;
      }
      try {
        if (this.ended) continue;
        if (result.done) {
          this.step.flush?.(this.out);
          this.end();
        } else {
          this.step.transform(result.value, this.out);
        }
      } catch (error) {
        this.pending.length = 0;
        if (!this.ended) {
          this.end();
          await this.source.return?.();
        }
        throw error;
      }
    }
  }

  async return(): Promise<IteratorResult<O, undefined>> {
    this.pending.length = 0;
    if (!this.ended) {
      this.end();
      this.settle?.({ done: true, value: undefined });
      await this.source.return?.();
    }
    return { done: true, value: undefined };
  }

  private read(): Promise<IteratorResult<I>> {
    return new Promise((resolve, reject) => {
      this.settle = resolve;
      this.source.next().then(resolve, reject);
    });
  }

  private end(): void {
    this.ended = true;
    this.options.onEnd?.();
  }
}

/**
 * True for a Web `ReadableStream`, told by its shape: naming the global would load the runtime's
 * whole Web streams implementation (on Node, megabytes) in a process that never uses one.
 */
export function isReadableStream(value: unknown): value is ReadableStream {
  return typeof value === 'object' && value !== null && typeof (value as ReadableStream).getReader === 'function';
}

/**
 * A `ReadableStream` as an async iterable whose `return()` cancels the stream at once (a pending
 * read ends with it). Async iterables are returned as they are.
 */
export function chunksOf<T>(body: ReadableStream<T> | AsyncIterable<T>): AsyncIterable<T> {
  if (!isReadableStream(body)) return body;
  const reader = body.getReader();
  const iterator: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      const { done, value } = await reader.read();
      return done ? { done: true, value: undefined } : { done: false, value };
    },
    async return() {
      await reader.cancel().catch(() => undefined);
      return { done: true, value: undefined };
    },
  };
  return iterator;
}

/**
 * A byte `ReadableStream` pulling from an async iterable of text or bytes (text is UTF-8
 * encoded); cancelling the stream calls the iterator's `return()`.
 */
export function readableFrom(source: AsyncIterable<string | Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === 'string' ? encoder.encode(value) : value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
