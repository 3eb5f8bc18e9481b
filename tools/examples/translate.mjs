#!/usr/bin/env node
// README's main job until the gateway lands: a streamed Claude-style answer with reasoning and a
// tool call, decoded from raw SSE bytes (split mid-character, as networks do), folded into one
// canonical response, and unfolded again into the events a stream of it would carry.
import { accumulateEvents, collectSse, embedOpaqueState, extractOpaqueState, formatSseEvent, responseToEvents } from '@llm/core';

const wire = [
  { event: 'start', data: JSON.stringify({ type: 'start', id: 'msg_demo', model: 'demo-model' }) },
  { event: 'block-start', data: JSON.stringify({ type: 'block-start', index: 0, block: { kind: 'text' } }) },
  { event: 'text-delta', data: JSON.stringify({ type: 'text-delta', index: 0, text: 'Il fait beau à Paris ' }) },
  { event: 'text-delta', data: JSON.stringify({ type: 'text-delta', index: 0, text: '☀️ — checking.' }) },
  { event: 'block-end', data: JSON.stringify({ type: 'block-end', index: 0 }) },
  {
    event: 'block-start',
    data: JSON.stringify({ type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'get_weather' } }),
  },
  { event: 'tool-args-delta', data: JSON.stringify({ type: 'tool-args-delta', index: 1, json: '{"city":"Pa' }) },
  { event: 'tool-args-delta', data: JSON.stringify({ type: 'tool-args-delta', index: 1, json: 'ris"}' }) },
  { event: 'block-end', data: JSON.stringify({ type: 'block-end', index: 1 }) },
  {
    event: 'finish',
    data: JSON.stringify({ type: 'finish', reason: 'tool_calls', usage: { inputTokens: 42, outputTokens: 17 } }),
  },
];

const bytes = new TextEncoder().encode(wire.map(formatSseEvent).join(''));
const body = new ReadableStream({
  start(controller) {
    for (let offset = 0; offset < bytes.length; offset += 13) controller.enqueue(bytes.subarray(offset, offset + 13));
    controller.close();
  },
});

const events = (await collectSse(body)).map((event) => JSON.parse(event.data));
const response = accumulateEvents(events);
console.log('canonical response:');
console.log(JSON.stringify(response, null, 2));

const signedId = embedOpaqueState('call_1', { origin: { protocol: 'gemini' }, data: 'c2lnbmF0dXJl' });
console.log(`\ntool-call id carrying a Gemini thought signature: ${signedId}`);
console.log('unpacked:', JSON.stringify(extractOpaqueState(signedId)));
console.log(`\nre-streamed as ${responseToEvents(response).length} canonical events.`);
