import type { Readable } from 'node:stream';

type Waiting = { resolve(result: IteratorResult<Uint8Array>): void; reject(error: unknown): void };

const DONE: IteratorResult<Uint8Array> = { done: true, value: undefined };

/**
 * A `Readable`'s chunks as an async iterator, read as node's own iterator reads them (each
 * `next()` takes all that is buffered, so the events of one socket read come as one chunk; an
 * error, or a close before the end, rejects the read once, then the iteration is over) but
 * without its async generator and `finished()` watch, which cost a generator step and promises
 * per read on top of the read itself. `return()` destroys the stream at once: a pending read
 * then rejects with the stream's error (undici: the request aborted), and the socket closes.
 */
export class ReadableChunks implements AsyncIterableIterator<Uint8Array> {
  #waiting: Waiting | undefined;
  /** Why the stream ended early, until a read has rejected with it. */
  #failure: unknown;
  #over = false;

  constructor(private readonly stream: Readable) {
    if (stream.errored) this.#failure = stream.errored;
    else if (stream.readableEnded) this.#over = true;
    stream.on('readable', this.#onReadable);
    stream.on('end', this.#onEnd);
    stream.on('error', this.#onError);
    stream.on('close', this.#onClose);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#failure !== undefined) return Promise.reject(this.#takeFailure());
    if (this.#over) return Promise.resolve(DONE);
    const chunk = this.stream.destroyed ? null : (this.stream.read() as Uint8Array | null);
    if (chunk !== null) return Promise.resolve({ done: false, value: chunk });
    return new Promise(this.#wait);
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    this.stream.destroy();
    return Promise.resolve(DONE);
  }

  readonly #wait = (resolve: Waiting['resolve'], reject: Waiting['reject']): void => {
    this.#waiting = { resolve, reject };
  };

  readonly #onReadable = (): void => {
    const waiting = this.#waiting;
    if (!waiting || this.stream.destroyed) return;
    const chunk = this.stream.read() as Uint8Array | null;
    // null: the buffer is empty and the end is coming (`end` settles the read).
    if (chunk === null) return;
    this.#waiting = undefined;
    waiting.resolve({ done: false, value: chunk });
  };

  readonly #onEnd = (): void => {
    this.#over = true;
    this.#settle();
  };

  readonly #onError = (error: unknown): void => {
    if (this.#over) return;
    this.#failure = error;
    this.#settle();
  };

  readonly #onClose = (): void => {
    if (this.#over || this.#failure !== undefined) return;
    this.#failure = Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
    this.#settle();
  };

  /** Ends the read waiting, if any, with the end or the failure. */
  #settle(): void {
    const waiting = this.#waiting;
    if (!waiting) return;
    this.#waiting = undefined;
    if (this.#failure !== undefined) waiting.reject(this.#takeFailure());
    else waiting.resolve(DONE);
  }

  #takeFailure(): unknown {
    const failure = this.#failure;
    this.#failure = undefined;
    this.#over = true;
    this.stream.off('readable', this.#onReadable);
    return failure;
  }
}
