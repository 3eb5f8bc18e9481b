import { describe, expect, it } from 'vitest';
import { CancelSource } from './cancel.js';

describe('CancelSource', () => {
  it('runs each listener still attached once, keeps the reason, and ignores a second abort', () => {
    const source = new CancelSource();
    const calls: string[] = [];
    const a = () => calls.push('a');
    const b = () => calls.push('b');
    source.addEventListener('abort', a);
    source.addEventListener('abort', b, { once: true });
    source.removeEventListener('abort', a);
    expect(source.aborted).toBe(false);
    const reason = new Error('client disconnected');
    source.abort(reason);
    source.abort(new Error('again'));
    expect(calls).toEqual(['b']);
    expect(source.aborted).toBe(true);
    expect(source.reason).toBe(reason);
  });

  it('does not call a listener added after the abort, as an AbortSignal does not', () => {
    const source = new CancelSource();
    source.abort();
    let called = false;
    source.addEventListener('abort', () => {
      called = true;
    });
    expect(called).toBe(false);
  });

  it('gives a real AbortSignal that follows it, before or after the abort', async () => {
    const before = new CancelSource();
    const signal = before.toAbortSignal();
    expect(before.toAbortSignal()).toBe(signal);
    expect(signal.aborted).toBe(false);
    before.abort('stop');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');
    const after = new CancelSource();
    after.abort('late');
    expect(after.toAbortSignal().reason).toBe('late');
    // fetch accepts it (and rejects at once when it is already aborted).
    await expect(fetch('http://127.0.0.1:9', { signal: after.toAbortSignal() })).rejects.toBe('late');
  });
});
