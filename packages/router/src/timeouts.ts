import { type CancelSignal, CancelSource, LlmError } from '@llm/core';

/**
 * The router's timeouts after an upstream's headers arrived (before them, `UpstreamConfig.timeoutMs`
 * bounds each attempt, see upstream-call.ts):
 * - {@link RequestDeadline}: the whole request, across retries, fallbacks and the stream;
 * - {@link watchChunks}: the silence between two chunks of a streamed answer.
 */

/** Default of `RouterConfig.requestDeadlineMs`: 30 minutes. */
export const DEFAULT_REQUEST_DEADLINE_MS = 1_800_000;

/** Default of `UpstreamConfig.streamIdleTimeoutMs`: 2 minutes. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

/**
 * A request's cancellation: aborted by the client (its signal's reason) or when the deadline
 * passes (reason: an `LlmError` of kind `timeout`). Upstream calls take it as their signal, so the
 * deadline cancels whatever runs then. One timer per request, cleared by {@link dispose}.
 */
export class RequestDeadline implements CancelSignal {
  readonly #source = new CancelSource();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #client: CancelSignal | undefined;
  readonly #onClientAbort = (): void => this.#source.abort(this.#client?.reason);

  constructor(ms: number, client?: CancelSignal) {
    this.#client = client;
    this.#timer = setTimeout(() => this.#source.abort(new LlmError({ kind: 'timeout', message: `the request passed its deadline of ${ms} ms` })), ms);
    if (client?.aborted) this.#onClientAbort();
    else client?.addEventListener('abort', this.#onClientAbort, { once: true });
  }

  get aborted(): boolean {
    return this.#source.aborted;
  }

  get reason(): unknown {
    return this.#source.reason;
  }

  /** The deadline's error once it passed, else undefined (a client abort is not one). */
  get expired(): LlmError | undefined {
    const reason = this.#source.reason;
    return LlmError.isInstance(reason) && reason.kind === 'timeout' ? reason : undefined;
  }

  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void {
    this.#source.addEventListener(type, listener, options);
  }

  removeEventListener(type: 'abort', listener: () => void): void {
    this.#source.removeEventListener(type, listener);
  }

  /** The request ended: no timer or listener outlives it. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#client?.removeEventListener('abort', this.#onClientAbort);
  }
}

/** An upstream stream's chunks under the idle timeout; {@link WatchedChunks.cancel} ends it early. */
export interface WatchedChunks<T> extends AsyncIterableIterator<T> {
  /** Stops reading and cancels the upstream call (its `return()`). */
  cancel(): void;
}

/**
 * `source` with a bound on silence: a read that waits `idleMs` without a chunk fails with a
 * `timeout` error and cancels the source (the upstream call and its socket). `signal` (the
 * request's deadline) fails a pending read with its reason the same way, even when the transport
 * ignores it. Time only counts while a read waits: a slow client reading slowly is not an idle
 * upstream. One timer per idle period, not per chunk.
 */
export function watchChunks<T>(source: AsyncIterable<T>, idleMs: number, signal?: CancelSignal): WatchedChunks<T> {
  return new ChunkWatch(source[Symbol.asyncIterator](), idleMs, signal);
}

class ChunkWatch<T> implements WatchedChunks<T> {
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the pending read started; undefined when no read waits. */
  #waitingSince: number | undefined;
  #resolve: ((result: IteratorResult<T>) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  #failure: unknown;
  #ended = false;
  readonly #onAbort = (): void =>
    this.#fail(LlmError.isInstance(this.signal?.reason) ? this.signal.reason : new LlmError({ kind: 'cancelled', message: 'client cancelled the request' }));

  constructor(
    private readonly source: AsyncIterator<T>,
    private readonly idleMs: number,
    private readonly signal: CancelSignal | undefined,
  ) {
    if (signal?.aborted) this.#onAbort();
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    this.#waitingSince = Date.now();
    this.#timer ??= setTimeout(this.#check, this.idleMs);
    // Per chunk: one promise of ours (a timeout must be able to fail it while the source's read
    // is still pending) and the source's; the callbacks are fields, so no closure per chunk.
    const pending = new Promise<IteratorResult<T>>(this.#capture);
    this.source.next().then(this.#onResult, this.#onError);
    return pending;
  }

  readonly #capture = (resolve: (result: IteratorResult<T>) => void, reject: (error: unknown) => void): void => {
    this.#resolve = resolve;
    this.#reject = reject;
  };

  readonly #onResult = (result: IteratorResult<T>): void => {
    this.#waitingSince = undefined;
    if (result.done) this.#end();
    this.#resolve?.(result);
  };

  readonly #onError = (error: unknown): void => {
    this.#waitingSince = undefined;
    this.#end();
    this.#reject?.(error);
  };

  async return(): Promise<IteratorResult<T>> {
    if (!this.#ended) {
      this.#end();
      await this.source.return?.();
    }
    return { done: true, value: undefined };
  }

  cancel(): void {
    void this.return().catch(() => undefined);
  }

  readonly #check = (): void => {
    this.#timer = undefined;
    if (this.#ended || this.#waitingSince === undefined) return;
    const silent = Date.now() - this.#waitingSince;
    if (silent < this.idleMs) {
      this.#timer = setTimeout(this.#check, this.idleMs - silent);
      return;
    }
    this.#fail(new LlmError({ kind: 'timeout', message: `the upstream sent nothing for ${this.idleMs} ms` }));
  };

  #fail(error: unknown): void {
    if (this.#ended) return;
    this.#failure = error;
    this.#reject?.(error);
    this.cancel();
  }

  #end(): void {
    this.#ended = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.signal?.removeEventListener('abort', this.#onAbort);
  }
}
