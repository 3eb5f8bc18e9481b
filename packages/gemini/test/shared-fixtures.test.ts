import { accumulateEvents, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { collect, listFixtures, readCassette, readChunkPayloads, readFixtureJson, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { gemini } from '../src/index.js';

const P = 'gemini';
const isResponse = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && ('candidates' in value || 'promptFeedback' in value);
const bodies = listFixtures(P, ['.json']).filter((path) => isResponse(readFixtureJson(P, path)));
const errorBodies = listFixtures(P, ['.json']).filter((path) => !bodies.includes(path));
const cassettes = listFixtures(P, ['.yaml']);

function modelOf(uri: string): { model: string; stream: boolean } | undefined {
  const match = gemini.http.matchRequest('POST', new URL(uri));
  return match?.operation === 'generate' ? { model: match.model!, stream: match.stream === true } : undefined;
}

async function decode(events: SseEvent[]): Promise<LlmStreamEvent[]> {
  return collect(streamOf(events).pipeThrough(gemini.stream.decode()));
}

async function reencode(events: LlmStreamEvent[]): Promise<SseEvent[]> {
  return collect(streamOf(events).pipeThrough(gemini.stream.encode()));
}

describe('identity over the shared response bodies', () => {
  it.each(bodies)('%s', (path) => {
    const wire = readFixtureJson(P, path);
    expect(gemini.response.encode(gemini.response.decode(wire))).toEqual(wire);
  });
});

describe('shared error bodies decode with their message and status', () => {
  it.each(errorBodies)('%s', (path) => {
    const wire = readFixtureJson(P, path);
    const first = (Array.isArray(wire) ? wire[0] : wire) as { error?: { code: number; message: string } };
    if (!first?.error) return expect(wire).toBeDefined();
    const error = gemini.error.decode(first.error.code, wire);
    expect([error.message, error.status]).toEqual([first.error.message, first.error.code]);
  });
});

describe('pydantic-ai cassettes', () => {
  it.each(cassettes)('%s: responses are identical after a round trip; requests reach a fixed point', (path) => {
    for (const interaction of readCassette(P, path)) {
      const route = modelOf(interaction.request.uri);
      const request = interaction.request.body;
      if (route && request && typeof request === 'object' && 'contents' in request) {
        const once = gemini.request.decode(request, route);
        expect(once.model).toBe(route.model);
        const twice = gemini.request.decode(gemini.request.encode(once), route);
        expect(twice).toEqual(once);
      }
      const response = interaction.response.body;
      if (isResponse(response) && interaction.response.status === 200) {
        expect(gemini.response.encode(gemini.response.decode(response))).toEqual(response);
      }
    }
  });
});

describe('every shared chunk log decodes, and re-encoding keeps its meaning', () => {
  // google-usage-raw-live holds one usage chunk, not a stream: see codec.test.ts for its usage.
  it.each(listFixtures(P, ['.chunks.txt']).filter((path) => !path.includes('usage-raw-live')))('%s', async (path) => {
    const sse = readChunkPayloads(P, path).map((data): SseEvent => ({ data, event: undefined, id: undefined }));
    const events = await decode(sse);
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
    const response = accumulateEvents(events);
    expect(response.choices.length).toBeGreaterThan(0);
    // Same protocol: decoding the re-encoded stream folds into the same response.
    expect(accumulateEvents(await decode(await reencode(events)))).toEqual(response);
  });
});
