import { describe, expect, it } from 'vitest';
import { MAX_ERROR_DESCRIPTION_LENGTH, describeError } from './describe-error.js';
import { LlmError } from './errors.js';

describe('describeError', () => {
  it('renders the message and the whole cause chain that LlmError.from hides from clients', () => {
    const socket = new Error('connect ECONNREFUSED 10.0.0.5:9099');
    const fetchError = new TypeError('fetch failed', { cause: socket });
    expect(describeError(LlmError.from(fetchError))).toBe(
      'LlmError(server 500): internal error <- cause: TypeError: fetch failed <- cause: Error: connect ECONNREFUSED 10.0.0.5:9099',
    );
  });

  it('names an LlmError path and renders thrown non-errors', () => {
    expect(describeError(LlmError.invalidRequest('messages[0].role', 'expected "user"'))).toBe(
      'LlmError(invalid_request 400 at messages[0].role): messages[0].role: expected "user"',
    );
    expect(describeError('plain text')).toBe('plain text');
    expect(describeError({ code: 7 })).toBe('{"code":7}');
    expect(describeError(undefined)).toBe('undefined');
    expect(describeError(10n)).toBe('a thrown bigint');
  });

  it('stops at a cause cycle and bounds the text', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    (first as { cause?: unknown }).cause = second;
    expect(describeError(first)).toBe('Error: first <- cause: Error: second');
    const long = describeError(new Error('x'.repeat(5000), { cause: new Error('y'.repeat(5000)) }));
    expect(long.length).toBe(MAX_ERROR_DESCRIPTION_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });

  it('stops following a long chain of small causes', () => {
    let error: unknown = new Error('root');
    for (let at = 0; at < 10_000; at++) error = new Error(`wrap ${at}`, { cause: error });
    expect(describeError(error).length).toBeLessThanOrEqual(MAX_ERROR_DESCRIPTION_LENGTH);
  });
});
