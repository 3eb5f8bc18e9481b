import type { CancelSignal } from '@llm/router';

/**
 * A client's disconnect as the router's cancel signal. One is made per inbound call, so it is a
 * plain object with a listener list: an `AbortController` builds an `EventTarget` per request.
 */
export class ClientDisconnect implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | undefined;

  /** Every listener runs at most once: the list is dropped on abort (so `once` holds either way). */
  addEventListener(_type: 'abort', listener: () => void, _options?: { once?: boolean }): void {
    if (!this.aborted) (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners?.indexOf(listener) ?? -1;
    if (index >= 0) this.listeners?.splice(index, 1);
  }

  /** Marks the call cancelled and runs each listener once. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener();
  }
}
