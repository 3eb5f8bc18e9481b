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

  it("serves an answer to the key that created it only (another key's id is missing to it), and lets a reused id change owner", () => {
    const store = new ResponseStore();
    const json = '{"id":"resp_1","object":"response"}';
    store.put(json, 'key-1');
    expect(store.get('resp_1', 'key-1')).toBe(json);
    expect(store.get('resp_1', 'key-2')).toBeUndefined();
    expect(store.get('resp_1')).toBeUndefined();
    // An upstream reusing the id for another key's answer: the later one replaces it.
    const other = '{"id":"resp_1","object":"response","output":[]}';
    store.put(other, 'key-2');
    expect(store.get('resp_1', 'key-1')).toBeUndefined();
    expect(store.get('resp_1', 'key-2')).toBe(other);
    // An open gateway: one shared owner.
    store.put('{"id":"resp_open"}');
    expect(store.get('resp_open')).toBe('{"id":"resp_open"}');
    expect(store.get('resp_open', 'key-1')).toBeUndefined();
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
    store.put(`{"id":"a","pad":"${'x'.repeat(10)}"}`);
    store.put('{"id":"b"}');
    store.put('{"id":"c"}');
    expect([store.get('a'), store.get('b'), store.get('c')]).toEqual([undefined, '{"id":"b"}', '{"id":"c"}']);
    store.put(`{"id":"d","pad":"${'x'.repeat(40)}"}`);
    expect([store.get('b'), store.get('c'), store.get('d')?.length]).toEqual([undefined, undefined, 59]);
  });

  it('keeps a streamed answer from its completed event, named or only typed, with the marker split across chunks', async () => {
    const completed = { id: 'resp_s', object: 'response', output: [] };
    const delta = { type: 'response.output_text.delta', delta: 'the words response.completed in the text' };
    const named = `event: response.output_text.delta\ndata: ${JSON.stringify(delta)}\n\nevent: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: completed })}\n\n`;
    const typedOnly = `data: ${JSON.stringify(delta)}\n\ndata: ${JSON.stringify({ type: 'response.completed', response: { ...completed, id: 'resp_t' } })}\n\n`;
    for (const [text, id] of [
      [named, 'resp_s'],
      [typedOnly, 'resp_t'],
    ] as const) {
      const store = new ResponseStore();
      const at = text.lastIndexOf('completed') - 4;
      const chunks = [text.slice(0, at), new TextEncoder().encode(text.slice(at))];
      const reply = store.capture({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: (async function* () {
          yield* chunks;
        })(),
      });
      const passed: (string | Uint8Array)[] = [];
      for await (const chunk of reply.body as AsyncIterable<string | Uint8Array>) passed.push(chunk);
      expect(passed).toEqual(chunks);
      expect(JSON.parse(store.get(id) as string)).toEqual({ ...completed, id });
    }
  });

  it('keeps nothing from an answer the router marks not retrievable', () => {
    const store = new ResponseStore();
    store.capture({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"resp_p"}', retrievable: false });
    expect(store.get('resp_p')).toBeUndefined();
  });
});
