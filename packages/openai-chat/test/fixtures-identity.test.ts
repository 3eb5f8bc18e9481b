import type { LlmStreamEvent } from '@llm/core';
import { accumulateEvents, collectSse, isJsonObject } from '@llm/core';
import { listFixtures, readCassette, readChunkPayloads, readFixtureBytes, readFixtureJson, runTransform, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const cassettes = listFixtures('openai-chat', ['.yaml']);
const isChatPath = (uri: string): boolean => uri.includes('/chat/completions');

describe('request identity over the pydantic-ai cassettes', () => {
  let count = 0;
  for (const path of cassettes) {
    readCassette('openai-chat', path).forEach((interaction, i) => {
      if (!isChatPath(interaction.request.uri) || !isJsonObject(interaction.request.body)) return;
      count++;
      it(`${path} #${i}`, () => {
        const body = interaction.request.body;
        expect(openaiChat.request.encode(openaiChat.request.decode(body))).toEqual(body);
      });
    });
  }
  it('covers every cassette with a chat request', () => {
    expect(count).toBeGreaterThanOrEqual(cassettes.length);
  });
});

describe('response identity over the JSON bodies', () => {
  const bodies: Array<[string, unknown]> = [];
  for (const path of cassettes) {
    readCassette('openai-chat', path).forEach((interaction, i) => {
      const body = interaction.response.body;
      if (isChatPath(interaction.request.uri) && isJsonObject(body) && body.object === 'chat.completion') bodies.push([`${path} #${i}`, body]);
    });
  }
  for (const path of listFixtures('openai-chat', ['.json'])) {
    const body = readFixtureJson('openai-chat', path);
    if (isJsonObject(body) && body.object === 'chat.completion') bodies.push([path, body]);
  }
  it('found response bodies', () => expect(bodies.length).toBeGreaterThan(10));
  for (const [name, body] of bodies) {
    it(name, () => {
      expect(openaiChat.response.encode(openaiChat.response.decode(body))).toEqual(body);
    });
  }
});

async function decodePayloads(payloads: string[]): Promise<LlmStreamEvent[]> {
  return runTransform(
    openaiChat.stream.decode(),
    payloads.map((data) => ({ data }) as { data: string; event: undefined; id: undefined }),
  );
}

function checkRules(events: LlmStreamEvent[]): void {
  const open = new Set<number>();
  let finished = 0;
  for (const event of events) {
    if (event.type === 'block-start') {
      expect(open.has(event.index)).toBe(false);
      open.add(event.index);
    } else if (event.type === 'block-end') {
      expect(open.delete(event.index)).toBe(true);
    } else if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-args-delta') {
      expect(open.has(event.index)).toBe(true);
    } else if (event.type === 'finish') finished++;
  }
  expect(open.size).toBe(0);
  expect(finished).toBeGreaterThan(0);
}

describe('stream decoding of every capture', () => {
  for (const path of listFixtures('openai-chat', ['.sse'])) {
    it(`${path}: decodes, keeps the block rules, and the text matches the chunks`, async () => {
      const sse = await collectSse(streamOf([readFixtureBytes('openai-chat', path)]));
      const events = await runTransform(openaiChat.stream.decode(), sse);
      checkRules(events);
      expect(events.some((event) => event.type === 'error')).toBe(false);
      const payloads = sse.filter((event) => event.data !== '[DONE]').map((event) => JSON.parse(event.data) as Record<string, any>);
      const expected = new Map<number, string>();
      for (const chunk of payloads) {
        for (const choice of chunk.choices ?? []) {
          if (typeof choice.delta?.content === 'string') expected.set(choice.index, (expected.get(choice.index) ?? '') + choice.delta.content);
        }
      }
      const response = accumulateEvents(events);
      for (const [index, text] of expected) {
        const got = response.choices.find((choice) => choice.index === index)!;
        expect(
          got.content
            .filter((part) => part.type === 'text')
            .map((part) => (part as { text: string }).text)
            .join(''),
        ).toBe(text);
      }
    });
  }
  for (const path of listFixtures('openai-chat', ['.chunks.txt'])) {
    it(`${path}: decodes and keeps the block rules`, async () => {
      const events = await decodePayloads(readChunkPayloads('openai-chat', path));
      checkRules(events);
    });
  }
});
