/**
 * What a cancellable operation needs of an abort signal: an `AbortSignal` is one, and so is a
 * {@link CancelSource}. undici's request API takes either.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A cancel signal and its trigger in one plain object. A server makes one or two per request, and
 * an `AbortController` builds an `EventTarget` each time; this keeps a listener list. APIs that
 * insist on a real `AbortSignal` (global `fetch`) get one from {@link toAbortSignal}.
 */
export class CancelSource implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | undefined;
  private linked: AbortController | undefined;

  /** Every listener runs at most once: the list is dropped on abort (so `once` holds either way). */
  addEventListener(_type: 'abort', listener: () => void, _options?: { once?: boolean }): void {
    if (!this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index >= 0) this.listeners?.splice(index, 1);
  }

  /** Cancels: sets `aborted` and `reason`, then runs each listener once. Later calls do nothing. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener();
  }

  /** An `AbortSignal` that aborts with this source (made on first call, then the same one). */
  toAbortSignal(): AbortSignal {
    if (!this.linked) {
      const controller = new AbortController();
      if (this.aborted) controller.abort(this.reason);
      else this.addEventListener('abort', () => controller.abort(this.reason));
      this.linked = controller;
    }
    return this.linked.signal;
  }
}
