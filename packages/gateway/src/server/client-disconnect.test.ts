import { describe, expect, it } from 'vitest';
import { ClientDisconnect } from './client-disconnect.js';

describe('ClientDisconnect', () => {
  it('runs each listener still attached once, keeps the reason, and ignores a second abort', () => {
    const signal = new ClientDisconnect();
    const calls: string[] = [];
    const a = () => calls.push('a');
    const b = () => calls.push('b');
    signal.addEventListener('abort', a);
    signal.addEventListener('abort', b, { once: true });
    signal.removeEventListener('abort', a);
    expect(signal.aborted).toBe(false);
    const reason = new Error('client disconnected');
    signal.abort(reason);
    signal.abort(new Error('again'));
    expect(calls).toEqual(['b']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it('does not call a listener added after the abort (an AbortSignal does not either)', () => {
    const signal = new ClientDisconnect();
    signal.abort(undefined);
    let called = false;
    signal.addEventListener('abort', () => {
      called = true;
    });
    expect(called).toBe(false);
  });
});
