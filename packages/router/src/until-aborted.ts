import type { CancelSignal } from '@llm/core';

/**
 * `promise`, or a rejection with the signal's reason as soon as `signal` aborts: a transport may
 * ignore its signal while a body is read, and a deadline must hold anyway.
 */
export function untilAborted<T>(promise: Promise<T>, signal: CancelSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
