import { CancelSource } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { IncomingCall } from './incoming-call.js';

describe('IncomingCall', () => {
  it('gives its body once, as a WHATWG Request does, and reads headers case-insensitively', async () => {
    const call = new IncomingCall('POST', 'http://h/v1/messages', { 'x-api-key': 'k' }, Buffer.from('{"a":"é"}'), new CancelSource());
    expect(call.headers.get('X-Api-Key')).toBe('k');
    expect(await call.text()).toBe('{"a":"é"}');
    await expect(call.text()).rejects.toThrow('the request body was already read');
    await expect(new IncomingCall('GET', 'http://h/', {}, undefined, new CancelSource()).json()).rejects.toThrow(SyntaxError);
  });
});
