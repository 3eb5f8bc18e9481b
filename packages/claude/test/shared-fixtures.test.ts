import { accumulateEvents, decodeSse, type LlmStreamEvent, type LlmWarning, type SseEvent } from '@llm/core';
import { collect, listFixtures, readCassette, readChunkPayloads, readFixtureBytes, readFixtureJson, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';

const P = 'claude';
const bodies = listFixtures(P, ['.json']).filter((path) => (readFixtureJson(P, path) as { type?: unknown }).type === 'message');
const cassettes = listFixtures(P, ['.yaml']);

/** Splits a chunk log that concatenates the streams of several steps after each `message_stop`. */
function streamsOf(path: string): SseEvent[][] {
  const streams: SseEvent[][] = [[]];
  for (const data of readChunkPayloads(P, path)) {
    const type = (JSON.parse(data) as { type: string }).type;
    streams.at(-1)!.push({ event: type, data, id: undefined });
    if (type === 'message_stop') streams.push([]);
  }
  return streams.filter((stream) => stream.length > 0);
}

/** A finish the wire gave no stop reason gets one when written back (the SDK requires it). */
function withoutSuppliedReason(events: LlmStreamEvent[], original: LlmStreamEvent[]): LlmStreamEvent[] {
  const originalFinish = original.find((event) => event.type === 'finish');
  if (!originalFinish || originalFinish.rawReason !== undefined) return events;
  return events.map((event) => {
    if (event.type !== 'finish') return event;
    const { rawReason: _supplied, ...rest } = event;
    return rest;
  });
}

async function decode(events: SseEvent[]): Promise<LlmStreamEvent[]> {
  return collect(streamOf(events).pipeThrough(claude.stream.decode()));
}

async function reencode(events: LlmStreamEvent[], warnings: LlmWarning[] = []): Promise<SseEvent[]> {
  return collect(streamOf(events).pipeThrough(claude.stream.encode({ warn: (warning) => warnings.push(warning) })));
}

/** Block fields a stream states at start but the canonical events carry at the block's end. */
function withoutLateBlockFields(events: LlmStreamEvent[]): LlmStreamEvent[] {
  return events.map((event) => (event.type === 'block-end' && event.extensions ? { type: 'block-end', index: event.index } : event));
}

describe('identity over the shared response bodies', () => {
  it.each(bodies)('%s', (path) => {
    const wire = readFixtureJson(P, path);
    expect(claude.response.encode(claude.response.decode(wire))).toEqual(wire);
  });
});

describe('identity over the pydantic-ai cassettes (requests and JSON responses)', () => {
  it.each(cassettes)('%s', (path) => {
    for (const interaction of readCassette(P, path)) {
      const request = interaction.request.body as Record<string, unknown> | undefined;
      if (request && typeof request === 'object' && Array.isArray(request.messages) && interaction.request.uri.endsWith('/v1/messages')) {
        expect(claude.request.encode(claude.request.decode(request))).toEqual(request);
      }
      const response = interaction.response.body as Record<string, unknown> | undefined;
      if (response && typeof response === 'object' && response.type === 'message') {
        expect(claude.response.encode(claude.response.decode(response))).toEqual(response);
      }
      if (response && typeof response === 'object' && response.type === 'error') {
        const error = claude.error.decode(interaction.response.status, response);
        expect(error.message).toBe((response.error as { message: string }).message);
        expect(claude.error.encode(error)).toMatchObject({ status: interaction.response.status, body: { type: 'error', error: response.error } });
      }
    }
  });
});

describe('every shared chunk log decodes, and re-encoding keeps its meaning', () => {
  it.each(listFixtures(P, ['.chunks.txt']))('%s', async (path) => {
    for (const wire of streamsOf(path)) {
      const events = await decode(wire);
      const errors = events.filter((event) => event.type === 'error');
      // spliced-message-start: a second message begins inside the first; the stream is corrupt.
      if (wire.some((event) => event.event === 'error') || path.includes('spliced')) expect(errors.length).toBe(1);
      else {
        expect(errors).toEqual([]);
        // Same protocol: decode(encode(decode(x))) is decode(x), except block fields that arrive
        // too late to be written (reported, never silent).
        const warnings: LlmWarning[] = [];
        const again = withoutSuppliedReason(await decode(await reencode(events, warnings)), events);
        const late = events.some((event) => event.type === 'block-end' && event.extensions !== undefined);
        expect(again).toEqual(late ? withoutLateBlockFields(events) : events);
        expect(warnings.map((warning) => warning.code)).toEqual(late ? ['dropped-field'] : []);
      }
    }
  });
});

describe('the SDK raw SSE captures', () => {
  it.each(listFixtures(P, ['.txt']).filter((path) => path.startsWith('anthropic-sdk-typescript/')))('%s', async (path) => {
    const sse = await collect(decodeSse(streamOf([readFixtureBytes(P, path)])));
    const events = await decode(sse);
    const response = accumulateEvents(events);
    expect(response.id).toMatch(/^msg_/);
    expect(await decode(await reencode(events))).toEqual(events);
  });
});
