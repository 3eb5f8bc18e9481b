import { listFixtures, readCassette, readChunkPayloads, readFixtureJson } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

const P = 'openai-responses';
const bodies = listFixtures(P, ['.json']).filter((path) => {
  const value = readFixtureJson(P, path) as Record<string, unknown>;
  return value.object === 'response';
});
const errorBodies = listFixtures(P, ['.json']).filter((path) => !bodies.includes(path));
const cassettes = listFixtures(P, ['.yaml']);

describe('identity over the shared vercel-ai response bodies', () => {
  it.each(bodies)('%s', (path) => {
    const wire = readFixtureJson(P, path);
    expect(openaiResponses.response.encode(openaiResponses.response.decode(wire))).toEqual(wire);
  });
});

describe('shared error bodies decode', () => {
  it.each(errorBodies)('%s', (path) => {
    const wire = readFixtureJson(P, path) as { error: { message: string } };
    const error = openaiResponses.error.decode(400, wire);
    expect(error.message).toBe(wire.error.message);
  });
});

describe('identity over the pydantic-ai cassettes (requests and JSON responses)', () => {
  it.each(cassettes)('%s', (path) => {
    for (const interaction of readCassette(P, path)) {
      const request = interaction.request.body;
      if (request && typeof request === 'object' && 'input' in request) {
        expect(openaiResponses.request.encode(openaiResponses.request.decode(request))).toEqual(request);
      }
      const response = interaction.response.body as Record<string, unknown> | undefined;
      if (response && typeof response === 'object' && response.object === 'response') {
        expect(openaiResponses.response.encode(openaiResponses.response.decode(response))).toEqual(response);
      }
    }
  });
});

describe('stream payloads of the shared chunk logs decode without errors', () => {
  it.each(listFixtures(P, ['.chunks.txt']))('%s', async (path) => {
    const payloads = readChunkPayloads(P, path);
    const events: unknown[] = [];
    const { createDecodeState, decodeStep } = await import('../src/stream-decode.js');
    let state = createDecodeState();
    for (const data of payloads) {
      if (data.includes('"type":"response.created"') && events.length > 0) state = createDecodeState();
      decodeStep(state, { data, event: undefined, id: undefined }, { enqueue: (event) => events.push(event) });
    }
    const errors = events.filter((event) => (event as { type: string }).type === 'error');
    // parallel-tool-call-wrapper.1 holds one hand-edited line that is not JSON: one error event.
    if (path.includes('error') || path.includes('parallel-tool-call-wrapper')) expect(errors.length).toBe(1);
    else expect(errors).toEqual([]);
  });
});
