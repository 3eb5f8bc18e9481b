import { describe, expect, it } from 'vitest';
import { ResponseStore } from './response-store.js';

describe('ResponseStore', () => {
  it('keeps a response under its id, whether the id leads the object or not', () => {
    const store = new ResponseStore();
    const leading = '{"id":"resp_1","object":"response","output":[{"id":"msg_1"}]}';
    const spaced = '{ "id" : "resp_\\"2\\"", "object":"response"}';
    const later = '{"object":"response","output":[{"id":"msg_3"}],"id":"resp_3"}';
    for (const json of [leading, spaced, later]) store.put(json);
    expect(store.get('resp_1')).toBe(leading);
    expect(store.get('resp_"2"')).toBe(spaced);
    expect(store.get('resp_3')).toBe(later);
    expect(store.get('msg_1')).toBeUndefined();
    expect(store.get('msg_3')).toBeUndefined();
  });

  it('ignores text without a string id, and text that is not JSON', () => {
    const store = new ResponseStore();
    store.put('{"id":7}');
    store.put('{"object":"response","id":"resp_x"');
    store.put('not json');
    expect(store.get('resp_x')).toBeUndefined();
    expect(store.get('7')).toBeUndefined();
  });

  it('evicts the oldest entries beyond its count and byte bounds', () => {
    const store = new ResponseStore(2, 60);
    store.put('{"id":"a","pad":"' + 'x'.repeat(10) + '"}');
    store.put('{"id":"b"}');
    store.put('{"id":"c"}');
    expect([store.get('a'), store.get('b'), store.get('c')]).toEqual([undefined, '{"id":"b"}', '{"id":"c"}']);
    store.put('{"id":"d","pad":"' + 'x'.repeat(40) + '"}');
    expect([store.get('b'), store.get('c'), store.get('d')?.length]).toEqual([undefined, undefined, 59]);
  });
});
