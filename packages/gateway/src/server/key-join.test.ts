import { describe, expect, it, vi } from 'vitest';
import type { RequestRecord } from '../router-contract.js';
import { KeyJoin } from './key-join.js';

const record = (requestId: string): RequestRecord => ({ requestId, clientProtocol: 'claude', status: 200, stream: false, totalMs: 1, warnings: [] });

describe('KeyJoin', () => {
  it('joins a record with its key whichever comes first', () => {
    const rows: [string, string | undefined][] = [];
    const join = new KeyJoin((r, keyId) => rows.push([r.requestId, keyId]));
    join.record(record('a'));
    join.key('a', 'key-1');
    join.key('b', 'key-2');
    join.record(record('b'));
    join.key('c', undefined);
    join.record(record('c'));
    expect(rows).toEqual([['a', 'key-1'], ['b', 'key-2'], ['c', undefined]]);
  });

  it('writes a record without key after the wait, and on flush', () => {
    vi.useFakeTimers();
    try {
      const rows: [string, string | undefined][] = [];
      const join = new KeyJoin((r, keyId) => rows.push([r.requestId, keyId]), 100);
      join.record(record('late'));
      vi.advanceTimersByTime(101);
      join.record(record('pending'));
      join.flush();
      expect(rows).toEqual([['late', undefined], ['pending', undefined]]);
    } finally {
      vi.useRealTimers();
    }
  });
});
